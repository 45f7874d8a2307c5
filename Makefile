# The two commands of the README: `make demo` (set up, run the main job on a sample)
# and `make test` (set up, lint, type-check, run every test with its real services).
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test lint bench docs clean-venv

setup:
	bash scripts/setup.sh

demo: setup
	bash scripts/demo.sh

test: setup
	bash scripts/test.sh

lint:
	$(BIN)/ruff check src tests scripts benchmarks examples
	$(BIN)/mypy

bench: setup
	$(BIN)/python -m benchmarks $(ARGS)

docs:
	$(BIN)/python scripts/gen_rule_docs.py

clean-venv:
	rm -rf $(VENV)
