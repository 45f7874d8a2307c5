"""The ``in_app`` decision: is a frame the project's own code?

Order (after sentry-python's ``set_in_app_in_frames``): the caller's include list, then its
exclude list, then known third-party places, then inside ``project_root`` (or, for JVM and
.NET frames that carry no path, inside the application's packages); anything still undecided
is not in app.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hintline.traces._memo import MEMO_SIZE, settings_memo
from hintline.traces._raw import MAX_LINE

__all__ = ["InAppPolicy", "app_packages", "is_third_party_module", "is_third_party_path", "policy_for"]

# Paths that are never the project's own code: installed packages, vendored code, toolchains,
# runtimes' internals, framework caches. Checked as plain substrings / prefixes of the path
# (backslashes turned into slashes), which is much faster than a regex alternation.
_THIRD_PARTY_PARTS = (
    "/site-packages/", "/dist-packages/", "/.venv/", "/venv/", "/__pypackages__/",
    "/node_modules/", "/vendor/", "typo3/sysext/", "typo3temp/", "/var/cache/", "/var/log/",
    "/var/tmp/", "/var/transient/", "/storage/framework/", "/bootstrap/cache/", "/go/pkg/mod/",
    "/.cargo/registry/", "/.rustup/toolchains/", "/.m2/repository/", "/.gradle/caches/",
    "/gems/", "/lib/ruby/", "/.pyenv/versions/",
)
_THIRD_PARTY_PREFIXES = (
    "node:", "internal/", "<frozen ", "<internal:", "/usr/lib/", "/usr/local/lib/", "/usr/share/",
    "/usr/local/go/", "/rustc/", "/opt/homebrew/", "/opt/local/", ".venv/", "venv/",
    "node_modules/", "vendor/", "var/cache/",
)
_THIRD_PARTY_NAMES = frozenset({"<string>", "<stdin>", "<anonymous>", "native", "[internal function]"})
# Every first character of those names and prefixes: a bare file name starting otherwise
# (``Compiler.java``) is none of them, without the sixteen prefix tests.
_THIRD_PARTY_FIRST = frozenset(s[0] for s in (*_THIRD_PARTY_NAMES, *_THIRD_PARTY_PREFIXES))
_PY_STDLIB = re.compile(r"/lib/python\d[\d.]*/")


def is_third_party_path(file: str) -> bool:
    """Whether ``file`` lies in a known third-party place (installed, vendored, toolchain)."""
    if "/" not in file and "\\" not in file:
        return file in _THIRD_PARTY_NAMES or file.startswith(_THIRD_PARTY_PREFIXES)
    path = file.replace("\\", "/") if "\\" in file else file
    if path.startswith(_THIRD_PARTY_PREFIXES):
        return True
    if "/" not in path:
        return False
    for part in _THIRD_PARTY_PARTS:
        if part in path:
            return True
    return "/lib/python" in path and _PY_STDLIB.search(path) is not None


# Module prefixes of runtimes and frameworks (JVM packages, .NET namespaces, Rust crates).
_THIRD_PARTY_MODULE: tuple[str, ...] = (
    # JDK, JVM languages
    "java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "kotlinx.", "scala.", "groovy.",
    "org.codehaus.groovy.", "jakarta.", "org.w3c.", "org.xml.",
    # test runners, build tools, IDE launchers
    "junit.", "org.junit.", "org.testng.", "org.apache.tools.ant.", "org.apache.maven.",
    "org.gradle.", "com.intellij.", "org.jetbrains.", "org.eclipse.jdt.", "worker.org.gradle.",
    # frameworks and servers
    "org.springframework.", "org.hibernate.", "org.apache.catalina.", "org.apache.coyote.",
    "org.apache.tomcat.", "org.eclipse.jetty.", "io.undertow.", "io.netty.", "reactor.",
    "io.micronaut.", "io.quarkus.", "io.vertx.", "akka.", "org.jboss.", "com.zaxxer.hikari.",
    "org.postgresql.", "com.mysql.", "org.mariadb.", "org.h2.", "org.apache.kafka.",
    "org.apache.spark.", "org.apache.hadoop.", "org.apache.http.", "okhttp3.", "retrofit2.",
    "feign.", "org.glassfish.", "ch.qos.logback.", "org.slf4j.", "org.apache.logging.log4j.",
    "jdk.internal.", "net.bytebuddy.", "org.aspectj.", "com.google.common.", "io.grpc.",
    # .NET
    "System.", "Microsoft.", "Mono.", "NUnit.", "Xunit.",
    # Rust std and its machinery
    "std::", "core::", "alloc::", "<std::", "<core::", "<alloc::", "__rust", "rust_begin_unwind",
    "__rustc::", "tokio::", "<tokio::", "futures::", "<futures::",
)


def _by_head(prefixes: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    heads: dict[str, list[str]] = {}
    for prefix in prefixes:
        heads.setdefault(prefix[:2], []).append(prefix)
    return {head: tuple(group) for head, group in heads.items()}


# ``name.startswith(_THIRD_PARTY_MODULE)`` tries every prefix; indexing them by their first two
# characters (every prefix has at least two) tries only the few that can match.
_MODULE_BY_HEAD = _by_head(_THIRD_PARTY_MODULE)


def is_third_party_module(name: str) -> bool:
    """Whether a module, class or crate path belongs to a runtime or framework (``java.``, ``std::``…)."""
    return name.startswith(_MODULE_BY_HEAD.get(name[:2], ()))


# What a frame's file alone says about it (InAppPolicy.files).
_THIRD, _IN, _OUT, _OPEN = 0, 1, 2, 3


class InAppPolicy:
    """Decides ``in_app`` for frames; caches per (file, module) since traces repeat them.

    ``decisions`` maps ``(file, module or function)`` to the answer (at most ``MEMO_SIZE``
    entries); :func:`policy_for` shares one policy, and so its decisions, between calls.

    Args:
        project_root: frames whose file lies inside it (or is relative) are in app.
        include: module prefixes or path fragments that are always in app.
        exclude: module prefixes or path fragments that are never in app (after include).
        packages: package prefixes of the application (JVM/.NET frames have no path).
    """

    __slots__ = ("decisions", "exclude", "files", "include", "packages", "root")

    def __init__(
        self,
        project_root: str | None = None,
        include: Sequence[str] = (),
        exclude: Sequence[str] = (),
        packages: Sequence[str] = (),
    ) -> None:
        root = project_root.replace("\\", "/").rstrip("/") + "/" if project_root else None
        self.root = root if root and root != "/" else None
        self.include = tuple(s for s in include if s)
        self.exclude = tuple(s for s in exclude if s)
        self.packages = tuple(p for p in packages if p)
        self.decisions: dict[tuple[str | None, str | None], bool] = {}
        # what a file alone says (one of _THIRD, _IN, _OUT, _OPEN): a file holds many functions
        self.files: dict[str, int] = {}

    def decide(self, file: str | None, module: str | None, function: str | None = None) -> bool:
        """Whether a frame with this file, module and function is the project's own code."""
        name = module if module is not None else function
        hit = self.decisions.get((file, name))
        return self.learn(file, name) if hit is None else hit

    def learn(self, file: str | None, name: str | None) -> bool:
        """Decide a ``(file, module or function)`` pair not decided yet, and remember it."""
        hit = self._decide(file, name)
        decisions = self.decisions
        if len(decisions) >= MEMO_SIZE:
            decisions.clear()
        if len(file or "") + len(name or "") <= MAX_LINE:
            decisions[(file, name)] = hit
        return hit

    def _decide(self, file: str | None, name: str | None) -> bool:
        if self.include and _matches(self.include, file, name):
            return True
        if self.exclude and _matches(self.exclude, file, name):
            return False
        verdict = _OPEN
        if file and self.root is None and "/" not in file and "\\" not in file:
            # a bare file name (JVM, .NET) and no project root: a cheap test, not worth a memo
            if file[0] in _THIRD_PARTY_FIRST and (file in _THIRD_PARTY_NAMES or file.startswith(_THIRD_PARTY_PREFIXES)):
                return False
        elif file:
            found = self.files.get(file)
            if found is None:
                found = self._file_verdict(file)
                files = self.files
                if len(files) >= MEMO_SIZE:
                    files.clear()
                if len(file) <= MAX_LINE:
                    files[file] = found
            if found == _THIRD:
                return False
            verdict = found
        if name and name.startswith(_MODULE_BY_HEAD.get(name[:2], ())):
            return False
        if verdict != _OPEN:
            return verdict == _IN
        if self.packages and name:
            for pkg in self.packages:
                if name.startswith(pkg) and (len(name) == len(pkg) or name[len(pkg)] in ".$:"):
                    return True
        return False

    def _file_verdict(self, file: str) -> int:
        """What ``file`` alone says: a third-party place, in or out of the project, or nothing."""
        if is_third_party_path(file):
            return _THIRD
        if self.root:
            path = file[7:] if file.startswith("file://") else file
            path = path.replace("\\", "/")
            if path.startswith(self.root):
                rel = path[len(self.root) :]
                return _OUT if rel.startswith(("var/", "vendor/")) else _IN
            if _is_relative(path):
                if "../" in path:
                    return _OUT  # outside the project (glibc's ./csu/../csu/libc-start.c)
                return _OUT if path.removeprefix("./").startswith(("var/", "vendor/")) else _IN
        return _OPEN


@settings_memo
def policy_for(
    project_root: str | None, include: tuple[str, ...], exclude: tuple[str, ...], packages: tuple[str, ...]
) -> InAppPolicy:
    """The shared :class:`InAppPolicy` for these settings (its decisions carry over between calls)."""
    return InAppPolicy(project_root, include, exclude, packages)


def _matches(items: tuple[str, ...], file: str | None, name: str | None) -> bool:
    for item in items:
        if name and name.startswith(item):
            rest = name[len(item) : len(item) + 1]
            if not rest or rest in ".$:/\\" or item[-1] in ".$:/\\":
                return True
        if file and item in file.replace("\\", "/"):
            return True
    return False


def _is_relative(path: str) -> bool:
    return bool(path) and path[0] not in "/<[" and not (len(path) > 1 and path[1] == ":") and ":/" not in path


def _app_parts(module: str) -> tuple[str, ...] | None:
    """``None`` for a runtime or framework module, else its package segments (lower-case or
    ``_`` first letter; the class name dropped)."""
    if module.startswith(_MODULE_BY_HEAD.get(module[:2], ())):
        return None
    return tuple([p for p in module.split(".")[:-1] if p[:1].islower() or p[:1] == "_"])


def app_packages(modules: Sequence[str | None]) -> tuple[str, ...]:
    """The application's package prefix, found from the *outermost* frames' modules.

    ``modules`` are given outermost first (the entry point first). The first one that is not a
    runtime, test-runner or framework package gives the package; every later such module's
    package sharing its first two segments narrows it to their common prefix
    (``org.jsoup.integration`` + ``org.jsoup.parser`` → ``org.jsoup``). A trace of new modules
    costs about one prefix test per module: the classes of a framework package already seen are
    skipped by one ``startswith`` (every dotted framework prefix ends with a dot, so a class of
    the same package matches it too), and each later package is split once.
    """
    heads = _MODULE_BY_HEAD
    it = iter(modules)
    skip = "\x00"  # the package (with its dot) of the last framework module
    for module in it:
        if not module or module.startswith(skip):
            continue
        if module.startswith(heads.get(module[:2], ())):
            dot = module.rfind(".")
            skip = module[: dot + 1] if dot > 0 else "\x00"
            continue
        break
    else:
        return ()
    best = _app_parts(module)
    if not best:
        return (module.split(".", 1)[0].split("$")[0],)
    if len(best) >= 2:
        stem = f"{best[0]}.{best[1]}."
        inside = ".".join(best) + "."  # a module inside the package cannot narrow it
        seen: set[str] = set()
        for m in it:
            if not m or not m.startswith(stem) or m.startswith(inside):
                continue
            package = m[: m.rfind(".")]
            if package in seen:
                continue
            seen.add(package)
            pkg = _app_parts(m)
            if pkg is None or len(pkg) < 2:
                continue
            n = 2
            while n < len(best) and n < len(pkg) and pkg[n] == best[n]:
                n += 1
            if n < len(best):  # narrowing keeps the common prefix: order does not matter
                best = best[:n]
                inside = ".".join(best) + "."
    return (".".join(best),)
