"""A real MCP client session (in-process and over stdio) against guarded servers."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent

from hintline import AgentGuard, clean
from hintline.agent import GuardPolicy, ToolRefused
from hintline.integrations.mcp import build_server, hint_errors
from tests.agent.fakes import FakeClock, connect_closed_port


def text_of(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


def files_server(root: Path, state: dict[str, int], guard: AgentGuard) -> MCPServer:
    server = MCPServer("files")

    @server.tool()
    @hint_errors(guard)
    def read_file(path: str) -> str:
        """Read a file of the workspace."""
        return (root / path).read_text()

    @server.tool()
    @hint_errors(guard)
    def delete_file(path: str) -> str:
        """Delete a file."""
        state["delete"] = state.get("delete", 0) + 1
        raise ToolRefused(f"deleting {path} is not allowed in this workspace")

    @server.tool()
    @hint_errors(guard)
    async def fetch(url: str) -> str:
        """Fetch a URL."""
        state["fetch"] = state.get("fetch", 0) + 1
        if state["fetch"] <= state.get("fail_fetch", 1):
            connect_closed_port()
        return "fetched: 200 OK"

    @server.tool()
    @hint_errors(guard)
    def search_files(query: str) -> str:
        """Search file names."""
        return "report.txt"

    return server


def guard_for(clock: FakeClock, **policy: Any) -> AgentGuard:
    return AgentGuard(
        GuardPolicy(**policy), clock=clock.time, sleep=clock.sleep,
        async_sleep=clock.async_sleep, random=lambda: 0.5,
    )


class TestGuardedServer:
    async def test_recoverable_then_success(self, tmp_path: Path) -> None:
        """The client gets an isError result with the hint, then the content."""
        (tmp_path / "report.txt").write_text("quarterly numbers")
        guard = guard_for(FakeClock())
        async with Client(files_server(tmp_path, {}, guard), mode="legacy") as client:
            bad = await client.call_tool("read_file", {"path": "reprot.txt"})
            good = await client.call_tool("read_file", {"path": "report.txt"})
        assert bad.is_error
        with pytest.raises(FileNotFoundError) as same:
            (tmp_path / "reprot.txt").read_text()
        assert text_of(bad) == AgentGuard().describe(same.value).content
        assert "Perhaps you meant" in text_of(bad)
        assert "Traceback" not in text_of(bad)
        assert not good.is_error
        assert text_of(good) == "quarterly numbers"
        assert guard.consecutive_errors == 0

    async def test_policy_refusal(self, tmp_path: Path) -> None:
        """A refusal is an isError result with the intentional wording; not run twice."""
        state: dict[str, int] = {}
        guard = guard_for(FakeClock())
        async with Client(files_server(tmp_path, state, guard), mode="legacy") as client:
            first = await client.call_tool("delete_file", {"path": "a"})
            again = await client.call_tool("delete_file", {"path": "a"})
        assert first.is_error
        assert "intentional and cannot be bypassed" in text_of(first)
        assert again.is_error
        assert state["delete"] == 1

    async def test_transient_failure_is_retried_unseen(self, tmp_path: Path) -> None:
        """A real refused connection is retried in the server; the client sees the result."""
        state: dict[str, int] = {}
        clock = FakeClock()
        async with Client(files_server(tmp_path, state, guard_for(clock)), mode="legacy") as client:
            result = await client.call_tool("fetch", {"url": "http://x/"})
        assert not result.is_error
        assert text_of(result) == "fetched: 200 OK"
        assert state["fetch"] == 2
        assert clock.sleeps == [0.0]

    async def test_refused_at_the_clients_address_goes_back(self, tmp_path: Path) -> None:
        """A connection refused at the address the client chose: one immediate retry, then the
        hint (the address is the caller's to fix), not four retries out of its sight."""
        state: dict[str, int] = {"fail_fetch": 99}
        clock = FakeClock()
        async with Client(files_server(tmp_path, state, guard_for(clock)), mode="legacy") as client:
            result = await client.call_tool("fetch", {"url": "http://x/"})
        assert result.is_error
        assert "The address comes from your arguments (url='http://x/')" in text_of(result)
        assert clock.sleeps == [0.0]
        assert state["fetch"] == 2

    async def test_loop_meta_message(self, tmp_path: Path) -> None:
        """The second identical call's result carries the meta-message."""
        async with Client(files_server(tmp_path, {}, guard_for(FakeClock())), mode="legacy") as client:
            await client.call_tool("search_files", {"query": "*.txt"})
            second = await client.call_tool("search_files", {"query": "*.txt"})
        assert text_of(second).startswith("report.txt\n\n[hintline] You appear to be stuck")

    async def test_three_failures_escalate(self, tmp_path: Path) -> None:
        """The third failure tells the client's agent to stop, with the summary."""
        async with Client(files_server(tmp_path, {}, guard_for(FakeClock())), mode="legacy") as client:
            results = [
                await client.call_tool("read_file", {"path": f"{i}.txt"}) for i in range(3)
            ]
        assert all(r.is_error for r in results)
        last = text_of(results[2])
        assert "Stop calling tools" in last
        assert '1. read_file({"path":"0.txt"}) -> Hint: ' in last
        assert '3. read_file({"path":"2.txt"}) -> Hint: ' in last


class TestHintlineMcpServer:
    async def test_clean_error_in_process(self) -> None:
        """clean_error returns the hint fields of hintline.clean."""
        text = "psycopg.errors.ForeignKeyViolation: insert violates foreign key constraint"
        async with Client(build_server()) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            result = await client.call_tool("clean_error", {"text": text})
        assert tools == {"clean_error", "scrub"}
        assert not result.is_error
        hint = clean(text)
        assert result.structured_content is not None
        assert result.structured_content["hint"] == hint.text
        assert result.structured_content["kind"] == str(hint.kind)
        assert result.structured_content["category"] == str(hint.category)

    async def test_stdio_server_scrubs(self) -> None:
        """`python -m hintline mcp` over real stdio: scrub removes a URL password."""
        root = Path(__file__).resolve().parents[3]
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "hintline", "mcp"],
            env={"PYTHONPATH": f"{root / 'src'}:{root}"},
        )
        secret = "postgres://admin:hunter2@db.internal:5432/app"
        async with Client(params) as client:
            scrubbed = await client.call_tool("scrub", {"text": f"cannot connect to {secret}"})
            cleaned = await client.call_tool("clean_error", {"text": f"could not connect to {secret}"})
        assert "hunter2" not in text_of(scrubbed)
        assert "cannot connect to" in text_of(scrubbed)
        payload = cleaned.structured_content or json.loads(text_of(cleaned))
        assert "hunter2" not in json.dumps(payload)


class TestSessions:
    async def test_two_sessions_never_share_state(self, tmp_path: Path) -> None:
        """Client B's first failure is its own: not client A's streak, not A's paths."""
        guard = guard_for(FakeClock())
        server = files_server(tmp_path, {}, guard)
        async with Client(server, mode="legacy") as a, Client(server, mode="legacy") as b:
            for i in range(2):
                await a.call_tool("read_file", {"path": f"private-a-{i}.txt"})
            first_b = await b.call_tool("read_file", {"path": "b.txt"})
            third_a = await a.call_tool("read_file", {"path": "private-a-2.txt"})
        assert "Stop calling tools" not in text_of(first_b)
        assert "private-a" not in text_of(first_b)
        assert "Stop calling tools" in text_of(third_a)
        assert "b.txt" not in text_of(third_a)

    async def test_stateless_requests_are_each_their_own_run(self, tmp_path: Path) -> None:
        """Without a session (a new connection per request) nothing is carried between calls."""
        server = files_server(tmp_path, {}, guard_for(FakeClock()))
        async with Client(server) as client:
            results = [await client.call_tool("read_file", {"path": f"{i}.txt"}) for i in range(4)]
        assert all(r.is_error and "Stop calling tools" not in text_of(r) for r in results)

    async def test_guard_server_counts_rejected_arguments(self, tmp_path: Path) -> None:
        from hintline.integrations.mcp import guard_server

        server = guard_server(MCPServer("files"), guard_for(FakeClock()))

        @server.tool()
        def read_file(path: str) -> str:
            """Read."""
            return (tmp_path / path).read_text()

        async with Client(server, mode="legacy") as client:
            results = [await client.call_tool("read_file", {"pth": "x"}) for _ in range(3)]
        assert "'path'" in text_of(results[0])
        assert results[0].is_error
        assert "Stop calling tools" in text_of(results[2])


async def test_disk_full_repeated_is_a_stop_each_time(tmp_path: Path) -> None:
    """A client that ignores the stop and saves again gets the stop again; the write is never
    retried (a full disk is permanent)."""
    from hintline.integrations.mcp import guard_server

    runs = {"save": 0}
    server = guard_server(MCPServer("files"), guard_for(FakeClock()))

    @server.tool()
    def save_report(text: str) -> str:
        """Save the report."""
        runs["save"] += 1
        with open("/dev/full", "w") as f:
            f.write(text)
        return "saved"

    async with Client(server, mode="legacy") as client:
        results = [await client.call_tool("save_report", {"text": "q3"}) for _ in range(2)]
    assert runs["save"] == 2
    for result in results:
        assert result.is_error
        assert text_of(result).startswith("Stopped: a permanent system fault (disk_full)")
        assert "Stop calling tools" in text_of(result)
