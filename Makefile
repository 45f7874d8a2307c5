# The README's commands. `make demo`: the core install alone (its own small virtualenv, no
# system packages, no services), the product on samples in under a minute. `make test`: set up
# everything (system packages, services' binaries, .venv with every extra), then lint,
# type-check and run every test with its real services.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test ci lint bench docs clean-venv

setup:
	bash scripts/setup.sh

demo:
	bash scripts/demo.sh

test: setup
	bash scripts/test.sh $(ARGS)

# What CI runs: `make test` from a fresh clone of this commit with an empty HOME and TMPDIR.
ci:
	bash .ci/run $(ARGS)

lint:
	$(BIN)/ruff check src tests scripts benchmarks examples
	$(BIN)/mypy

bench: setup
	$(BIN)/python -m benchmarks $(ARGS)

docs:
	$(BIN)/python scripts/gen_rule_docs.py

clean-venv:
	rm -rf $(VENV) .venv-demo
