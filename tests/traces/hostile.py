"""Hostile inputs shared by the totality tests and the benchmark (``bench_traces``)."""

from __future__ import annotations


def hostile_cases(scale: float = 1.0) -> dict[str, str | bytes]:
    """Inputs built to hurt a parser: huge single lines, 100 000 near-frame lines, binary.

    ``scale`` shrinks or grows every repeat count (the benchmark uses two small scales to
    show the cost grows linearly).
    """
    MB = max(1, int(1024 * 1024 * scale))  # noqa: N806 - reads like the unit it replaces

    def n(count: int) -> int:
        return max(1, int(count * scale))

    return {
        "empty": "",
        "binary": bytes(range(256)) * n(64),
        "nul_and_invalid_utf8": b"\x00\xff\xfe Traceback (most recent call last):\n\xc3\x28\n",
        "single_line_10mb_at": "at " * (10 * MB // 3),
        "single_line_10mb_parens": "at a (" * (10 * MB // 6),
        "single_line_10mb_escaped_newlines": "\\n\\tat a.b(C.java:1)" * (10 * MB // 20),
        "at_at_at_100k_lines": "at at at\n" * n(100_000),
        "indented_at_100k_lines": "    at at at (at at at:1:1\n" * n(100_000),
        "java_frames_100k": "java.lang.X: boom\n" + "\tat a.b.C.d(C.java:1)\n" * n(100_000),
        "caused_by_100k": "java.lang.X: boom\n\tat a.B.c(B.java:1)\n" + "Caused by: a.B: x\n\t... 1 more\n" * n(50_000),
        "tracebacks_100k": "Traceback (most recent call last):\n" * n(100_000),
        "python_frames_100k": "Traceback (most recent call last):\n" + '  File "x.py", line 1, in f\n' * n(100_000) + "E: x\n",
        "group_boxes_100k": "  + Exception Group Traceback (most recent call last):\n" + "  +-+---- 1 ----\n    | E: x\n" * n(50_000),
        "node_cause_nesting_50k": "Error: x\n    at f (/a.js:1:1) {\n" + "  [cause]: Error: y\n      at g (/a.js:2:2) {\n" * n(50_000),
        "php_frames_100k": "PHP Fatal error:  Uncaught Exception: x in /a.php:1\nStack trace:\n" + "#0 /a.php(1): f(" + "'a', " * n(1000) + ")\n" * n(100_000),
        "go_goroutines_50k": "panic: x\n\n" + "goroutine 1 [running]:\nmain.f(...)\n\t/a.go:1 +0x1\n" * n(50_000),
        "rust_frames_100k": "thread 'main' (1) panicked at src/main.rs:1:1:\nx\nstack backtrace:\n" + "   0: f\n             at ./src/main.rs:1:1\n" * n(100_000),
        "ruby_frames_100k": "a.rb:1:in `f': x (RuntimeError)\n" + "\tfrom a.rb:1:in `g'\n" * n(100_000),
        "dotnet_frames_100k": "System.Exception: x ---> System.Exception: y\n" + "   at A.B() in /a.cs:line 1\n" * n(100_000),
        "blank_lines_1m": "\n" * n(1_000_000),
        # runs of empty lines below the general cut (MAX_MESSAGE), and lines PHP's reader passes over
        "blank_runs_below_cut": "java.lang.X: boom\n\tat a.b.C.d(C.java:1)\n" + ("x" + "\n" * 4000) * n(250),
        "php_junk_lines": "PHP Fatal error:  Uncaught Exception: x in /a.php:1\nStack trace:\n#0 /a.php(1): f()\n"
        + ("Fatal error:\n" + "\n" * 7) * n(100_000),
        "php_near_rows": "PHP Fatal error:  Uncaught Exception: x in /a.php:1\nStack trace:\n#0 /a.php(1): f()\n"
        + "#1\n" * n(150_000) + "#1 \n" * n(100_000),
        "spaces_10mb": " " * (10 * MB),
        "colons_digits_line": "at " + ":1" * (2 * MB),
        "many_in_line": "   at A.B(" + ") in " * (MB // 5) + ":line 1",
    }
