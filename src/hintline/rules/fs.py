"""Rules: filesystem errors from Python, Node, Java, Go, Rust and PHP, and sandbox escapes.

Keyed rules (that can name the path) come before the generic wording of each error. The
sandbox rules come first: hintline's own guard format, then the real library errors that
guard an extraction or a workspace root. See rules/__init__.py for global precedence.
"""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule

_FX = "tests/rules/fixtures/fs/"
_SG = "tests/rules/fixtures/signals/"

_NOT_FOUND = "File or directory '{key}' does not exist; check the path (list the directory first) or create it before reading it."
_DENIED = "Permission denied for '{key}'; this path is not accessible to the process, so use a path you are allowed to read or write."
_PATH = r"[^\n'\"]+"

RULES: tuple[Rule, ...] = (
    Rule(
        code="FS017",
        name="fs.sandbox-outside-allowed-directories",
        category=Category.SANDBOX_ESCAPE,
        pattern=r"path outside allowed directories: (?P<key>[^\s\"']+)",
        hint="Path '{key}' is outside the allowed directories; use a path inside them, access outside is refused by policy (do not retry another way around).",
        why="The MCP filesystem server (and tools modelled on it) refuse paths that resolve outside their allowed directories, traversal included.",
        examples=(
            Example(
                '{"result":{"content":[{"type":"text","text":"Access denied - path outside allowed directories: /etc/passwd not in /tmp/hintline-mcp-ws-lbe4t9jt"}],"isError":true},"jsonrpc":"2.0","id":2}',
                "Hint: Path '/etc/passwd' is outside the allowed directories; use a path inside them, access outside is refused by policy (do not retry another way around).",
                "/etc/passwd",
                _SG + "mcp-fs-sandbox.txt",
            ),
        ),
    ),
    Rule(
        code="FS018",
        name="fs.sandbox-escape-wording",
        category=Category.SANDBOX_ESCAPE,
        pattern=(
            r"(?i)(?:resolves outside (?:of )?(?:the )?(?:workspace|sandbox|project|allowed|root)|"
            r"outside (?:of )?(?:the )?allowed (?:working )?director(?:y|ies)|"
            r"escapes? (?:from )?(?:the )?(?:sandbox|workspace|jail)|path traversal (?:attempt|detected|is not allowed)|"
            r"outside (?:of )?the (?:workspace|sandbox) root)"
        ),
        hint="The path leaves the allowed workspace; access outside it is refused by policy, so use a path inside the workspace (do not retry another way around).",
        why="Sandboxed tools word path escapes many ways (resolves outside the workspace root, escapes the sandbox, traversal); all are the same policy refusal.",
        key_group=None,
        examples=(
            Example(
                "Permission denied: src/../config/secrets.ts is outside the allowed working directory /project/my-app/.",
                "Hint: The path leaves the allowed workspace; access outside it is refused by policy, so use a path inside the workspace (do not retry another way around).",
                None,
                "/work/shared/docs/seeds (error-taxonomy seed: the policy error format of an agent tool)",
            ),
        ),
        near_misses=("The job escaped quoting", "resolved the workspace root"),
    ),
    Rule(
        code="FS001",
        name="fs.sandbox-escape",
        category=Category.SANDBOX_ESCAPE,
        pattern=r"(?i)path (?P<key>'[^'\n]+'|\"[^\"\n]+\"|[^\s'\"]+) is outside the allowed root",
        hint="Path '{key}' is outside the allowed root; use a path inside the workspace, access outside it is refused by policy.",
        why="hintline's agent runtime format for a tool path that leaves the sandbox root (defined here, emitted by the guard).",
        examples=(
            Example(
                "SandboxEscape: path '/etc/passwd' is outside the allowed root '/srv/agent/workspace'",
                "Hint: Path '/etc/passwd' is outside the allowed root; use a path inside the workspace, access outside it is refused by policy.",
                "/etc/passwd",
                "hintline guard format (defined by this rule)",
            ),
        ),
        near_misses=("path '/srv/agent/workspace/a.txt' is inside the allowed root",),
    ),
    Rule(
        code="FS002",
        name="fs.tar-outside-destination",
        category=Category.SANDBOX_ESCAPE,
        pattern=r"(?:OutsideDestinationError|LinkOutsideDestinationError|AbsolutePathError|AbsoluteLinkError): '(?P<key>[^'\n]+)'",
        hint="Archive member '{key}' would be written outside the destination directory; refuse this archive or extract only members inside it.",
        why="Python's tarfile extraction filters (PEP 706, 3.11.4+/3.12) block path traversal out of the target directory.",
        examples=(
            Example(
                "tarfile.OutsideDestinationError: '../../etc/cron.d/job' would be extracted to "
                "'/tmp/hintline-fixtures/etc/cron.d/job', which is outside the destination",
                "Hint: Archive member '../../etc/cron.d/job' would be written outside the destination directory; refuse this archive or extract only members inside it.",
                "../../etc/cron.d/job",
                _FX + "py_tar_outside_destination.txt",
            ),
        ),
    ),
    Rule(
        code="FS003",
        name="fs.path-outside-root",
        category=Category.SANDBOX_ESCAPE,
        pattern=r"'(?P<key>[^'\n]+)' is not in the subpath of '(?P<root>[^'\n]+)'",
        hint="Path '{key}' is outside '{root}'; use a path inside that root, access outside it is refused.",
        why="pathlib's PurePath.relative_to, the usual workspace-root check, fails for a path outside the root.",
        examples=(
            Example(
                "ValueError: '/etc/passwd' is not in the subpath of '/srv/agent/workspace' OR one path is "
                "relative and the other is absolute.",
                "Hint: Path '/etc/passwd' is outside '/srv/agent/workspace'; use a path inside that root, access outside it is refused.",
                "/etc/passwd",
                _FX + "py_relative_to_outside_root.txt",
            ),
        ),
    ),
    Rule(
        code="FS004",
        name="fs.python-file-not-found",
        category=Category.FILE_NOT_FOUND,
        pattern=r"(?:FileNotFoundError|NotADirectoryError): \[Errno \d+\] [^:\n]+: '(?P<key>[^'\n]+)'",
        hint=_NOT_FOUND,
        why="Python's FileNotFoundError (ENOENT) names the path it could not open.",
        examples=(
            Example(
                "FileNotFoundError: [Errno 2] No such file or directory: 'data/report.csv'",
                "Hint: File or directory 'data/report.csv' does not exist; check the path (list the directory first) or create it before reading it.",
                "data/report.csv",
                _FX + "py_file_not_found.txt",
            ),
        ),
    ),
    Rule(
        code="FS005",
        name="fs.node-enoent",
        category=Category.FILE_NOT_FOUND,
        pattern=r"ENOENT: no such file or directory, \w+ '(?P<key>[^'\n]+)'",
        hint=_NOT_FOUND,
        why="Node's fs errors (code ENOENT) name the syscall and the path.",
        examples=(
            Example(
                "Error: ENOENT: no such file or directory, open 'data/report.csv'\n  errno: -2,\n  code: 'ENOENT',",
                "Hint: File or directory 'data/report.csv' does not exist; check the path (list the directory first) or create it before reading it.",
                "data/report.csv",
                _FX + "node_enoent.txt",
            ),
        ),
    ),
    Rule(
        code="FS006",
        name="fs.java-no-such-file",
        category=Category.FILE_NOT_FOUND,
        pattern=r"java\.nio\.file\.NoSuchFileException: (?P<key>[^\n]+)",
        hint=_NOT_FOUND,
        why="Java NIO's NoSuchFileException (Files.readString, Files.newInputStream…) carries the path.",
        examples=(
            Example(
                "Exception in thread \"main\" java.nio.file.NoSuchFileException: data/report.csv\n"
                "\tat java.base/sun.nio.fs.UnixException.translateToIOException(UnixException.java:92)",
                "Hint: File or directory 'data/report.csv' does not exist; check the path (list the directory first) or create it before reading it.",
                "data/report.csv",
                _FX + "java_no_such_file.txt",
            ),
        ),
    ),
    Rule(
        code="FS007",
        name="fs.java-file-not-found",
        category=Category.FILE_NOT_FOUND,
        pattern=r"java\.io\.FileNotFoundException: (?P<key>[^\n]+?) \((?:No such file or directory|The system cannot find the (?:file|path) specified)\)",
        hint=_NOT_FOUND,
        why="java.io's FileNotFoundException with the OS reason in parentheses (FileInputStream, FileReader).",
        examples=(
            Example(
                "Exception in thread \"main\" java.io.FileNotFoundException: data/report.csv (No such file or directory)",
                "Hint: File or directory 'data/report.csv' does not exist; check the path (list the directory first) or create it before reading it.",
                "data/report.csv",
                _FX + "java_file_not_found.txt",
            ),
        ),
    ),
    Rule(
        code="FS008",
        name="fs.go-path-not-found",
        category=Category.FILE_NOT_FOUND,
        pattern=r"(?:open|stat|lstat|read|remove|mkdir|chdir|readdir|rename) (?P<key>[^\s:\"]+): no such file or directory",
        hint=_NOT_FOUND,
        why="Go's *fs.PathError prints the operation, the path and the errno text.",
        examples=(
            Example(
                "error: open data/report.csv: no such file or directory\n",
                "Hint: File or directory 'data/report.csv' does not exist; check the path (list the directory first) or create it before reading it.",
                "data/report.csv",
                _FX + "go_open.txt",
            ),
            Example(
                "panic: open data/report.csv: no such file or directory\n\ngoroutine 1 [running]:\n",
                "Hint: File or directory 'data/report.csv' does not exist; check the path (list the directory first) or create it before reading it.",
                "data/report.csv",
                _FX + "go_panic_err.txt",
            ),
        ),
    ),
    Rule(
        code="FS009",
        name="fs.not-found",
        category=Category.FILE_NOT_FOUND,
        pattern=r"(?:kind: NotFound|No such file or directory|ENOENT\b)",
        hint="A file or directory does not exist; check the path (list the directory first) or create it before reading it.",
        why="The errno text without a path: Rust's io::Error (kind: NotFound), C programs, shells.",
        key_group=None,
        examples=(
            Example(
                "called `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound, message: \"No such file or directory\" }",
                "Hint: A file or directory does not exist; check the path (list the directory first) or create it before reading it.",
                None,
                _FX + "rust_file_not_found.txt",
            ),
        ),
    ),
    Rule(
        code="FS010",
        name="fs.python-permission-denied",
        category=Category.PERMISSION_DENIED,
        pattern=r"PermissionError: \[Errno \d+\] [^:\n]+: '(?P<key>[^'\n]+)'",
        hint=_DENIED,
        why="Python's PermissionError (EACCES/EPERM) names the path.",
        examples=(
            Example(
                "PermissionError: [Errno 13] Permission denied: 'data/payroll.csv'",
                "Hint: Permission denied for 'data/payroll.csv'; this path is not accessible to the process, so use a path you are allowed to read or write.",
                "data/payroll.csv",
                _FX + "py_permission_denied.txt",
            ),
        ),
    ),
    Rule(
        code="FS011",
        name="fs.node-eacces",
        category=Category.PERMISSION_DENIED,
        pattern=r"(?:EACCES: permission denied|EPERM: operation not permitted), \w+ '(?P<key>[^'\n]+)'",
        hint=_DENIED,
        why="Node's fs errors (code EACCES / EPERM) name the syscall and the path.",
        examples=(
            Example(
                "Error: EACCES: permission denied, open 'data/payroll.csv'\n  errno: -13,\n  code: 'EACCES',",
                "Hint: Permission denied for 'data/payroll.csv'; this path is not accessible to the process, so use a path you are allowed to read or write.",
                "data/payroll.csv",
                _FX + "node_eacces.txt",
            ),
        ),
    ),
    Rule(
        code="FS012",
        name="fs.java-access-denied",
        category=Category.PERMISSION_DENIED,
        pattern=r"java\.nio\.file\.AccessDeniedException: (?P<key>[^\n]+)",
        hint=_DENIED,
        why="Java NIO's AccessDeniedException carries the path.",
        examples=(
            Example(
                "Exception in thread \"main\" java.nio.file.AccessDeniedException: data/payroll.csv",
                "Hint: Permission denied for 'data/payroll.csv'; this path is not accessible to the process, so use a path you are allowed to read or write.",
                "data/payroll.csv",
                _FX + "java_access_denied.txt",
            ),
        ),
    ),
    Rule(
        code="FS013",
        name="fs.java-file-permission",
        category=Category.PERMISSION_DENIED,
        pattern=r"java\.io\.FileNotFoundException: (?P<key>[^\n]+?) \((?:Permission denied|Access is denied)\)",
        hint=_DENIED,
        why="java.io reports EACCES as a FileNotFoundException with '(Permission denied)'.",
        examples=(
            Example(
                "Exception in thread \"main\" java.io.FileNotFoundException: data/payroll.csv (Permission denied)",
                "Hint: Permission denied for 'data/payroll.csv'; this path is not accessible to the process, so use a path you are allowed to read or write.",
                "data/payroll.csv",
                _FX + "java_file_permission.txt",
            ),
        ),
    ),
    Rule(
        code="FS014",
        name="fs.go-permission-denied",
        category=Category.PERMISSION_DENIED,
        pattern=r"(?:open|stat|lstat|read|write|remove|mkdir|chdir|readdir|rename) (?P<key>[^\s:\"]+): (?:permission denied|operation not permitted)",
        hint=_DENIED,
        why="Go's *fs.PathError for EACCES / EPERM.",
        examples=(
            Example(
                "error: open data/payroll.csv: permission denied\n",
                "Hint: Permission denied for 'data/payroll.csv'; this path is not accessible to the process, so use a path you are allowed to read or write.",
                "data/payroll.csv",
                _FX + "go_permission.txt",
            ),
        ),
    ),
    Rule(
        code="FS015",
        name="fs.permission-denied",
        category=Category.PERMISSION_DENIED,
        pattern=r"(?:kind: PermissionDenied|Permission denied|EACCES\b)",
        hint="Permission denied: the process may not access this file or resource; use one it is allowed to use, retrying will not help.",
        why="The errno text without a path: Rust's io::Error (kind: PermissionDenied), C programs, shells.",
        key_group=None,
        examples=(
            Example(
                "called `Result::unwrap()` on an `Err` value: Os { code: 13, kind: PermissionDenied, message: \"Permission denied\" }",
                "Hint: Permission denied: the process may not access this file or resource; use one it is allowed to use, retrying will not help.",
                None,
                _FX + "rust_permission_denied.txt",
            ),
        ),
    ),
    Rule(
        code="FS016",
        name="fs.disk-full",
        category=Category.DISK_FULL,
        pattern=r"(?i:no space left on device)|ENOSPC\b|kind: StorageFull|possibly out of free disk space",
        hint="The disk is full (no space left on device); free space or write somewhere else, retrying the same write will fail.",
        why="ENOSPC from any runtime: Python OSError 28, Node ENOSPC, Java IOException, Go, Rust StorageFull, PHP warnings.",
        key_group=None,
        examples=(
            Example(
                "OSError: [Errno 28] No space left on device",
                "Hint: The disk is full (no space left on device); free space or write somewhere else, retrying the same write will fail.",
                None,
                _FX + "py_disk_full.txt",
            ),
            Example(
                "Error: ENOSPC: no space left on device, write\n  errno: -28,\n  syscall: 'write',\n  code: 'ENOSPC'",
                "Hint: The disk is full (no space left on device); free space or write somewhere else, retrying the same write will fail.",
                None,
                _FX + "node_enospc.txt",
            ),
        ),
    ),
    Rule(
        code="FS019",
        name="fs.git-repository-not-found",
        category=Category.FILE_NOT_FOUND,
        pattern=r"fatal: repository '(?P<key>[^'\n]+)' (?:does not exist|not found)",
        hint="Git repository '{key}' does not exist; check the URL or path (and access to it).",
        why="git's own stderr, printed before the CalledProcessError (or exec error) that wraps it, names the repository.",
        examples=(
            Example(
                "fatal: repository '/srv/repos/missing-repo.git' does not exist",
                "Hint: Git repository '/srv/repos/missing-repo.git' does not exist; check the URL or path (and access to it).",
                "/srv/repos/missing-repo.git",
                _SG + "py-git-called-process.txt",
            ),
        ),
    ),
)
