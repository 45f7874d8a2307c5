"""Which language printed this trace? A line-by-line vote on anchored signatures.

Every check looks at one line of bounded length with ``startswith`` tests and line-anchored
regexes without nested quantifiers, so detection is linear in the input.
"""

from __future__ import annotations

import re

from hintline.traces._raw import MAX_LINE

__all__ = ["LANGUAGES", "detect_language", "is_dotnet_frame", "may_hold_trace", "normalize_language"]

LANGUAGES = ("python", "java", "javascript", "php", "go", "rust", "dotnet", "ruby")

_ALIASES = {
    "py": "python", "python3": "python",
    "jvm": "java", "kotlin": "java", "kt": "java", "scala": "java", "groovy": "java",
    "js": "javascript", "node": "javascript", "nodejs": "javascript", "typescript": "javascript", "ts": "javascript",
    "golang": "go", "rs": "rust",
    ".net": "dotnet", "csharp": "dotnet", "c#": "dotnet", "cs": "dotnet", "fsharp": "dotnet", "mono": "dotnet",
    "rb": "ruby",
}

# Pieces every supported trace shape contains at least one of; ``in`` on a str is a fast
# C search, so the no-trace case (``clean`` calls parse_trace on every unmatched input) is cheap.
_MARKERS = (
    "at ", "File \"", "Traceback", "panicked at", "goroutine ", "panic: ", "fatal error: ",
    "#0 ", "Stack trace:", "thrown in", "[stacktrace]", ":in ", "Caused by:", "--- End of",
)
_JVM_FRAME = re.compile(r"[ \t]*at [^\s(]+\((?:[\w$.-]+\.(?:java|kt|kts|scala|groovy|clj)(?::\d+)?|Native Method|Unknown Source)\)")
_NODE_FRAME = re.compile(r"[ \t]*at (?:[^\n]*\()?[^\s()]*:\d+:\d+\)?,?(?: \{)?$|[ \t]*at [^\s(]+ \((?:<anonymous>|native|index \d+)\)")
_PHP_FRAME = re.compile(r"#\d+ (?:[^\n]*\(\d+\): |\{main\}|\[internal function\]: )")
_RUBY_FRAME = re.compile(r"(?:[ \t]*from )?[^\s:]+:\d+:in [`']")
_GO_LOC = re.compile(r"\t[^\t]*\.go:\d+(?: \+0x[0-9a-f]+)?$")


def is_dotnet_frame(s: str) -> bool:
    """Whether a stripped ``at …`` line is a .NET frame (CoreCLR or Mono)."""
    if ") [0x" in s or ") <0x" in s:
        return True
    pos = s.rfind(":line ")
    if pos > 0 and s[pos + 6 :].strip().isdigit() and " in " in s:
        return True
    if not s.endswith(")") or " (" in s:
        return False
    open_ = s.find("(")
    args = s[open_ + 1 : -1]
    return open_ > 3 and ":" not in args and (not args or " " in args) and "." in s[3:open_]


def normalize_language(language: str | None) -> str | None:
    """Map a caller's hint (``js``, ``kotlin``, ``c#``…) to one of :data:`LANGUAGES`."""
    if not language:
        return None
    lang = language.strip().lower()
    lang = _ALIASES.get(lang, lang)
    return lang if lang in LANGUAGES else None


def may_hold_trace(text: str) -> bool:
    """Cheap reject: ``False`` when the text has none of the pieces any trace is made of."""
    return any(marker in text for marker in _MARKERS)


def detect_language(lines: list[str]) -> str | None:
    """The language whose signatures score highest in ``lines`` (``None`` if none match)."""
    score = dict.fromkeys(LANGUAGES, 0)
    for line in lines:
        if len(line) > MAX_LINE or not line:
            continue
        s = line.lstrip()
        if not s:
            continue
        c = s[0]
        if c == "a" and s.startswith("at "):
            if _JVM_FRAME.match(s):
                score["java"] += 2
            elif is_dotnet_frame(s):
                score["dotnet"] += 2
            elif _NODE_FRAME.match(s):
                score["javascript"] += 2
        elif c == "T" and s.startswith("Traceback (most recent call last):"):
            score["python"] += 10
        elif (c == "F" and s.startswith('File "') and ", line " in s) or (c in "|+" and ("Traceback (most recent call last):" in s or 'File "' in s)):
            score["python"] += 3
        elif c == "C" and s.startswith("Caused by: "):
            score["java"] += 3
        elif c == "E" and s.startswith('Exception in thread "'):
            score["java"] += 6
        elif c == "t" and s.startswith("thread '") and " panicked at " in s:
            score["rust"] += 12
        elif c == "g" and s.startswith("goroutine ") and s.endswith("]:"):
            score["go"] += 12
        elif (c == "#" and _PHP_FRAME.match(s)) or (c == "S" and s.startswith("Stack trace:")):
            score["php"] += 2
        elif s.startswith(("thrown in ", "PHP Fatal error:", "PHP Warning:", "[stacktrace]", "[previous exception]")):
            score["php"] += 5
        elif s.startswith(("--- End of inner exception stack trace ---", "Unhandled exception.", "Unhandled Exception:")):
            score["dotnet"] += 6
        elif s.startswith(("[cause]: ", "Node.js v")):
            score["javascript"] += 3
        elif s.startswith("panic: ") and "thread '" not in s:
            score["go"] += 3
        elif c == "\t" or line[0] == "\t":
            pass
        elif _RUBY_FRAME.match(s):
            score["ruby"] += 3
        if line[0] == "\t" and _GO_LOC.match(line):
            score["go"] += 1
        elif " ---> " in s and ": " in s:
            score["dotnet"] += 2
        elif "Uncaught " in s and " in /" in s:
            score["php"] += 3
    best = max(LANGUAGES, key=lambda lang: score[lang])
    return best if score[best] >= 2 else None
