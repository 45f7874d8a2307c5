"""The ``in_app`` decision: is a frame the project's own code?

Order (after sentry-python's ``set_in_app_in_frames``): the caller's include list, then its
exclude list, then known third-party places, then inside ``project_root`` (or, for JVM and
.NET frames that carry no path, inside the application's packages); anything still undecided
is not in app.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["InAppPolicy", "app_packages", "is_third_party_path"]

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


class InAppPolicy:
    """Decides ``in_app`` for frames; caches per (file, module) since traces repeat them.

    Args:
        project_root: frames whose file lies inside it (or is relative) are in app.
        include: module prefixes or path fragments that are always in app.
        exclude: module prefixes or path fragments that are never in app (after include).
        packages: package prefixes of the application (JVM/.NET frames have no path).
    """

    __slots__ = ("_cache", "exclude", "include", "packages", "root")

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
        self._cache: dict[tuple[str | None, str | None], bool] = {}

    def decide(self, file: str | None, module: str | None, function: str | None = None) -> bool:
        """Whether a frame with this file, module and function is the project's own code."""
        key = (file, module if module is not None else function)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._decide(file, module, function)
        return hit

    def decide_uncached(self, file: str | None, module: str | None, function: str | None) -> bool:
        """:meth:`decide` without the cache (the build step keeps its own)."""
        return self._decide(file, module, function)

    def _decide(self, file: str | None, module: str | None, function: str | None) -> bool:
        name = module if module is not None else function
        if self.include and _matches(self.include, file, name):
            return True
        if self.exclude and _matches(self.exclude, file, name):
            return False
        if file and is_third_party_path(file):
            return False
        if name and name.startswith(_THIRD_PARTY_MODULE):
            return False
        if file and self.root:
            path = file[7:] if file.startswith("file://") else file
            path = path.replace("\\", "/")
            if path.startswith(self.root):
                rel = path[len(self.root) :]
                return not rel.startswith(("var/", "vendor/"))
            if _is_relative(path):
                if "../" in path:
                    return False  # outside the project (glibc's ./csu/../csu/libc-start.c)
                return not path.removeprefix("./").startswith(("var/", "vendor/"))
        if self.packages and name:
            return _in_packages(self.packages, name)
        return False


def _matches(items: tuple[str, ...], file: str | None, name: str | None) -> bool:
    for item in items:
        if name and name.startswith(item):
            rest = name[len(item) : len(item) + 1]
            if not rest or rest in ".$:/\\" or item[-1] in ".$:/\\":
                return True
        if file and item in file.replace("\\", "/"):
            return True
    return False


def _in_packages(packages: tuple[str, ...], name: str) -> bool:
    for pkg in packages:
        if name.startswith(pkg) and (len(name) == len(pkg) or name[len(pkg)] in ".$:"):
            return True
    return False


def _is_relative(path: str) -> bool:
    return bool(path) and path[0] not in "/<[" and not (len(path) > 1 and path[1] == ":") and ":/" not in path


def app_packages(modules: Sequence[str | None]) -> tuple[str, ...]:
    """The application's package prefix, found from the *outermost* frames' modules.

    ``modules`` are given outermost first (the entry point first). The first one that is not a
    runtime, test-runner or framework package gives the package; every other such frame's
    package sharing its first two segments narrows it to their common prefix
    (``org.jsoup.integration`` + ``org.jsoup.parser`` → ``org.jsoup``).
    """
    best: list[str] | None = None
    stem = ""
    for module in dict.fromkeys(modules):
        if not module or (best is not None and not module.startswith(stem)):
            continue
        if module.startswith(_THIRD_PARTY_MODULE):
            continue
        parts = module.split(".")
        pkg = [p for p in parts[:-1] if p[:1].islower() or p[:1] == "_"]
        if best is None:
            if not pkg:
                return (parts[0].split("$")[0],)
            best = pkg
            stem = ".".join(pkg[:2]) + "." if len(pkg) >= 2 else "\x00"
        elif len(pkg) >= 2:
            n = 2
            while n < len(best) and n < len(pkg) and pkg[n] == best[n]:
                n += 1
            best = best[:n]
    return (".".join(best),) if best else ()
