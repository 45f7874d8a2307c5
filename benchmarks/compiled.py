"""What compiling ``clean()``'s hot path would give (issue 20, "compile the hot path"):
``python -m benchmarks.compiled [mypyc|cython] [--rounds N]``.

hintline ships pure Python. This experiment copies ``src/`` into a scratch directory, compiles
the modules one ``clean()`` runs through (:data:`MODULES`) there with mypyc (it comes with mypy,
a ``dev`` dependency) or Cython (``pip install --target DIR cython`` and put DIR on
``PYTHONPATH``), checks that the compiled tree answers every real rule fixture exactly as the
pure one does, then times both trees in alternating child processes, in CPU time
(``time.process_time``), best of the rounds:

- first seen: every cache emptied (:func:`hintline.cleaner.caches.clear`) before each call, the
  median of 3,000 calls, each timed alone (the emptying not counted);
- repeated: the same input again and again;
- over the real rule fixtures: each one's best of three calls, the median over all of them.

Nothing is installed: the compiled extension modules stay in the scratch tree, which is put
first on ``PYTHONPATH`` (an extension module is found before a ``.py`` of the same name).

Measured at commit ead747f (2 shared cores, load 7-10; CPU time, best of 6 rounds, µs)::

    input                      pure    mypyc          Cython
    187 B, first seen         11.00     9.24  1.19x    9.37  1.17x
    187 B, repeated            6.07     5.67  1.07x    5.99  1.01x
    742 B, first seen         11.84     9.97  1.19x   10.22  1.16x
    742 B, repeated            6.96     6.37  1.09x    6.54  1.06x
    JDBC 2.8 KB, first seen   13.27    11.87  1.12x   12.05  1.10x
    JDBC 2.8 KB, repeated      9.43     8.54  1.10x    8.83  1.07x
    fixtures' median, first   13.70    11.77  1.16x   12.05  1.14x
    fixtures' median, repeat   8.66     7.76  1.12x    6.86  1.26x

A second run, ``python -m benchmarks.compiled mypyc --rounds 6`` (load 10), gave first seen
1.22x (187 B), 1.39x (742 B), 1.18x (JDBC), 1.30x (fixtures' median), repeated 1.16-1.23x;
664 of 664 fixtures' answers the same; ``python -m benchmarks.compiled cython --rounds 6``
(load 9.5): first seen 1.21x, 1.21x, 1.12x, 1.12x, repeated 0.89-1.32x. The load makes single
ratios move by about 0.2.

The trace parsers (not on the matched path; compiled apart, Cython, all of ``traces/``, answers
the same on the 62 trace fixtures): ``parse_trace`` first seen on the bench's 5 KB traces
1.18-1.78x, median 1.31x (Python 102 -> 76 µs, Java 225 -> 171 and 234 -> 147, Rust 158 -> 129;
CPU time, best of 4 interleaved rounds, load 9.8): a real gain, still short of the 100 µs
target for Java and Rust on its own.

So compiling gives 1.1-1.4x, far from what issue 20's targets need (2 µs first seen under
1 KB: 5x) and not worth a compiled core's cost (below). Stage by stage (187 B): the pure
Python glue compiles well (prepare, normalise, locate: 1.5-3x) but it is under 0.5 µs of the
call; rendering a first-seen hint gains 1.2-1.6x; the match stage, about half of the call,
gains nothing (0.9-1.1x): it is the Vectorscan scan (1.3 µs), its per-hit callbacks through the
binding, and the ``re``/RE2 capture of the winner (0.75 µs), all C already; the scrub of the
rendered hint (1 µs, regex engines) gains 1.15x. The C floor of one 187 B call is above 2 µs.

What the compiled core would cost, hence not kept:

- mypyc needs source edits in modules other work changes often: a surrogate range in a string
  literal (``scrub/_scrubber.py``: "use chr(...)"), ``Hint.__dict__`` read through the class
  (``cleaner/render.py``; and ``Hint``, a public frozen dataclass, must stay a Python class:
  ``@mypyc_attr(native_class=False)``, which imports ``mypy_extensions`` at run time), and
  ``cleaner/_json.py`` keys a dict by ``id()`` of one-element tuples, which mypyc unboxes and
  boxes again: a new identity, a ``KeyError``, and ``clean()`` answered its safe hint for a
  JSON-RPC error (caught only by comparing answers). ``scrub/__init__.py`` (the callable
  package: it assigns its module's ``__class__``) cannot be compiled at all. Cython compiled
  the same modules unedited and answered identically.
- building: mypyc spends about 60 s of CPU on these 17 modules (80-270 s wall on this loaded
  machine), Cython about 110 s (320-510 s wall); ``make demo`` promises the core install and its samples in
  under a minute, and the build needs mypy (or Cython) and setuptools as build dependencies
  instead of hatchling alone; wheels would have to be built per platform and Python version,
  with the pure path kept and tested as the fallback.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "rules" / "fixtures"

MODULES = [
    "hint.py",
    "cleaner/render.py",
    "cleaner/signals.py",
    "cleaner/match.py",
    "cleaner/_vectorscan.py",
    "cleaner/normalise.py",
    "cleaner/_html.py",
    "cleaner/_json.py",
    "cleaner/locate.py",
    "cleaner/bound.py",
    "cleaner/fallback.py",
    "cleaner/caches.py",
    "scrub/_scrubber.py",
    "scrub/_cut.py",
    "_text.py",
    "_linear/__init__.py",
    "traces/_memo.py",
]
"""The modules one ``clean()`` runs through (found with ``sys.setprofile`` over every rule
fixture, first seen), but ``scrub/__init__.py``, which mypyc cannot compile."""

# (file, old text, new text, why): the edits mypyc needs (Cython needs none)
MYPYC_EDITS = [
    (
        "scrub/_scrubber.py",
        '_SURROGATE = re.compile("[\\ud800-\\udfff]")',
        '_SURROGATE = re.compile("[" + chr(0xD800) + "-" + chr(0xDFFF) + "]")',
        "mypyc: surrogate code points in a string literal are not supported",
    ),
    (
        "cleaner/_json.py",
        "_MORE = tuple((path,) for path in _MORE_KEYS)",
        "_MORE: tuple[tuple[_Path, ...], ...] = tuple(tuple([path]) for path in _MORE_KEYS)",
        "mypyc boxes a fixed-length tuple anew when it is read: _NAMES[id(paths)] misses",
    ),
    (
        "cleaner/render.py",
        "from typing import Any\n",
        "from typing import Any\n\nfrom mypy_extensions import mypyc_attr\n",
        "Hint stays a Python class (a public frozen dataclass)",
    ),
    (
        "cleaner/render.py",
        "@dataclass(frozen=True, slots=True)\nclass Hint:",
        "@mypyc_attr(native_class=False)\n@dataclass(frozen=True, slots=True)\nclass Hint:",
        "Hint stays a Python class (a public frozen dataclass)",
    ),
    (
        "cleaner/render.py",
        "Hint.__dict__[name].__set__",
        "vars(Hint)[name].__set__",
        "mypyc: cannot access instance attribute __dict__ through class object",
    ),
]

_SETUP = """
import sys
from setuptools import setup
mods = sys.argv.pop().split(",")
if sys.argv.pop() == "mypyc":
    from mypyc.build import mypycify
    exts = mypycify(["src/hintline/" + m for m in mods], opt_level="3", debug_level="0")
else:
    from Cython.Build import cythonize
    from setuptools import Extension
    def name(m):
        dotted = "hintline." + m[:-3].replace("/", ".")
        return dotted.removesuffix(".__init__")
    exts = cythonize([Extension(name(m), ["src/hintline/" + m]) for m in mods],
                     language_level=3, compiler_directives={"binding": True})
setup(name="hintline-compiled-experiment", package_dir={"": "src"}, ext_modules=exts)
"""


def build(compiler: str, scratch: Path) -> Path:
    """Copy ``src/`` into ``scratch`` and compile :data:`MODULES` there; return its ``src``."""
    src = scratch / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    if compiler == "mypyc":
        for rel, old, new, why in MYPYC_EDITS:
            path = src / "hintline" / rel
            text = path.read_text()
            if old not in text:
                print(f"note: the edit for {rel} no longer applies ({why})")
                continue
            path.write_text(text.replace(old, new, 1))
    # mypyc reads the project's [tool.mypy]; the rest of pyproject.toml is not setuptools'
    config = (ROOT / "pyproject.toml").read_text()
    (scratch / "pyproject.toml").write_text(config[config.index("[tool.mypy]") :])
    (scratch / "setup.py").write_text(_SETUP)
    log = scratch / "build.log"
    start = time.monotonic()
    with log.open("w") as out:
        done = subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--inplace", compiler, ",".join(MODULES)],
            cwd=scratch, stdout=out, stderr=subprocess.STDOUT, check=False,
        )
    if done.returncode:
        sys.exit(f"the {compiler} build failed; its output is in {log}")
    print(f"{compiler}: {len(MODULES)} modules built in {time.monotonic() - start:.0f} s (wall)")
    return src


def _env(src: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=f"{src}{os.pathsep}{ROOT}")


def _child(src: Path, what: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.compiled", what], env=_env(src),
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def answers() -> dict[str, list[str | None]]:
    """Every rule fixture's hint, whole (in a child: ``--answers``)."""
    import hintline

    out = {}
    for path in sorted(FIXTURES.rglob("*.txt")):
        hint = hintline.clean(path.read_text(errors="replace"))
        fields = (hint.text, hint.category.value, hint.rule, hint.key, hint.kind.value)
        out[str(path.relative_to(FIXTURES))] = [*fields, None if hint.retry is None else hint.retry.value]
    return out


def timings() -> dict[str, float]:
    """One round of CPU-time figures (in a child: ``--time``)."""
    import hintline
    from hintline.cleaner import caches
    from hintline.cleaner import match as engine

    clean, clear, clock = hintline.clean, caches.clear, time.process_time
    clean("warm up")
    getattr(engine._default(), "wait", lambda _t: False)(600)
    short = (FIXTURES / "db" / "pg-psycopg-fk-insert.txt").read_text()
    inputs = {
        "187 B": short[short.rindex("\npsycopg") + 1 :],
        "742 B": short,
        "JDBC 2.8 KB": (FIXTURES / "db" / "mariadb-jdbc-fk-insert.txt").read_text(),
    }

    def alone(text: str | None, cold: bool, calls: int = 3000) -> float:
        times = []
        for _ in range(calls):
            if cold:
                clear()
            start = clock()
            if text is not None:
                clean(text)
            times.append(clock() - start)
        return statistics.median(times) * 1e6

    overhead = alone(None, False)
    out = {"compiled": float(hintline.hint.__file__.endswith(".so"))}
    for name, text in inputs.items():
        clean(text)
        out[f"{name}, first seen"] = alone(text, True) - overhead
        best = min(timeit.repeat(lambda text=text: clean(text), number=2000, repeat=5, timer=clock))
        out[f"{name}, repeated"] = best / 2000 * 1e6
    texts = [path.read_text(errors="replace") for path in sorted(FIXTURES.rglob("*.txt"))]
    for label, cold in (("first seen", True), ("repeated", False)):
        each = []
        for text in texts:
            best = float("inf")
            for _ in range(3):
                if cold:
                    clear()
                start = clock()
                clean(text)
                best = min(best, clock() - start)
            each.append(best * 1e6 - overhead)
        out[f"fixtures' median, {label}"] = statistics.median(each)
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["--answers"]:
        print(json.dumps(answers()))
        return 0
    if argv[:1] == ["--time"]:
        print(json.dumps(timings()))
        return 0
    compiler = argv[0] if argv and not argv[0].startswith("-") else "mypyc"
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 6
    with tempfile.TemporaryDirectory(prefix="hintline-compiled-") as scratch:
        trees = {"pure": ROOT / "src", compiler: build(compiler, Path(scratch))}
        pure, compiled = (_child(src, "--answers") for src in trees.values())
        differ = [name for name in pure if pure[name] != compiled.get(name)]
        print(f"answers: {len(pure) - len(differ)} of {len(pure)} rule fixtures the same")
        for name in differ:
            print(f"  differs: {name}: {pure[name]} / {compiled.get(name)}")
        rows: dict[str, list[dict[str, object]]] = {name: [] for name in trees}
        for _ in range(rounds):  # alternate the trees, so both see the same load
            for name, src in trees.items():
                rows[name].append(_child(src, "--time"))
    if not all(row["compiled"] for row in rows[compiler]):
        sys.exit("the compiled modules were not the ones imported")
    print(f"µs, CPU time, best of {rounds} rounds; load {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"| input | pure | {compiler} | speed-up |")
    print("|---|---|---|---|")
    for key in rows["pure"][0]:
        if key == "compiled":
            continue
        before = min(float(row[key]) for row in rows["pure"])  # type: ignore[arg-type]
        after = min(float(row[key]) for row in rows[compiler])  # type: ignore[arg-type]
        print(f"| {key} | {before:.2f} | {after:.2f} | {before / after:.2f}x |")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
