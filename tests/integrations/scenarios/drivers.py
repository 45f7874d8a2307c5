"""One driver per framework: plays a scenario script through the framework's real agent loop
with its own kind of test model, with hintline's wiring (a guard given) or alone (``None``)."""

from __future__ import annotations

import asyncio
import copy
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from hintline import AgentGuard
from hintline.exceptions import GuardTripped
from tests.agent.fakes import FakeClock
from tests.integrations.scenarios.harness import Observation, Result, Turn


def _stopped(obs: Observation, exc: BaseException) -> None:
    obs.stop = type(exc).__name__
    obs.stop_text = f"{exc}\n{getattr(exc, 'summary', '')}"


def _call_ids(script: list[Turn]) -> list[list[str]]:
    return [[f"call_{t}_{i}" for i in range(len(turn))] if isinstance(turn, list) else [] for t, turn in enumerate(script)]


class Driver:
    """Builds the agent once; :meth:`run` plays a script (several runs share the agent)."""

    name = ""

    def __init__(self, tools: list[Callable[..., Any]], guard: AgentGuard | None, clock: FakeClock, box: Any) -> None:
        self.tools, self.guard, self.clock, self.box = tools, guard, clock, box

    def run(self, script: list[Turn]) -> Observation:
        before, sleeps = Counter(self.box.runs), len(self.clock.sleeps)
        obs = Observation()
        try:
            self._play(script, obs)
        except (Exception, GuardTripped) as exc:
            _stopped(obs, exc)
        obs.runs = Counter(self.box.runs) - before
        obs.sleeps = self.clock.sleeps[sleeps:]
        return obs

    def _play(self, script: list[Turn], obs: Observation) -> None:
        raise NotImplementedError


# -- LangGraph / LangChain -----------------------------------------------------------------


class _LCBase(Driver):
    def _model(self, script: list[Turn]) -> Any:
        from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
        from langchain_core.messages import AIMessage
        from pydantic import Field

        class Scripted(GenericFakeChatModel):
            seen: list[Any] = Field(default_factory=list)

            def bind_tools(self, tools: Any, **kwargs: Any) -> Scripted:
                return self

            def _generate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
                self.seen.append(list(messages))
                return super()._generate(messages, *args, **kwargs)

        ids = _call_ids(script)
        replies: list[Any] = []
        for t, turn in enumerate(script):
            if isinstance(turn, str):
                replies.append(AIMessage(content=turn))
            else:
                calls = [{"name": n, "args": a, "id": ids[t][i], "type": "tool_call"} for i, (n, a) in enumerate(turn)]
                replies.append(AIMessage(content="", tool_calls=calls))
        return Scripted(messages=iter(replies))

    def _observe(self, model: Any, obs: Observation, result: Any) -> None:
        from langchain_core.messages import AIMessage, ToolMessage

        for messages in model.seen[1:]:
            last_ai = max(i for i, m in enumerate(messages) if isinstance(m, AIMessage))
            obs.seen.append([
                Result(str(m.content), m.status == "error")
                for m in messages[last_ai + 1 :] if isinstance(m, ToolMessage)
            ])
        if result is not None:
            obs.final = str(result["messages"][-1].content)

    def _invoke(self, graph: Any, model: Any, obs: Observation) -> None:
        result = None
        try:
            result = graph.invoke({"messages": [("user", "go")]}, {"recursion_limit": 100})
        finally:
            self._observe(model, obs, result)


class LangGraphDriver(_LCBase):
    name = "langgraph"

    def _play(self, script: list[Turn], obs: Observation) -> None:
        from langgraph.graph import END, START, MessagesState, StateGraph
        from langgraph.prebuilt import ToolNode, tools_condition

        from hintline.integrations.langgraph import guarded_tool_node

        model = self._model(script)
        if not hasattr(self, "_node"):  # the agent object (its tool node) is built once
            self._node = guarded_tool_node(self.tools, self.guard) if self.guard else ToolNode(self.tools)
        self._holder = model

        def agent(state: MessagesState) -> dict[str, Any]:
            return {"messages": [self._holder.invoke(state["messages"])]}

        if not hasattr(self, "_graph"):
            graph = StateGraph(MessagesState)
            graph.add_node("agent", agent)
            graph.add_node("tools", self._node)
            graph.add_edge(START, "agent")
            graph.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
            graph.add_edge("tools", "agent")
            self._graph = graph.compile()
        self._invoke(self._graph, model, obs)


class LangChainDriver(_LCBase):
    name = "langchain"

    def _play(self, script: list[Turn], obs: Observation) -> None:
        from langchain.agents import create_agent
        from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

        from hintline.integrations.langchain import HintlineMiddleware

        model = self._model(script)
        if not hasattr(self, "_agent"):
            middleware = [HintlineMiddleware(self.guard)] if self.guard else []
            self._shared = model
            self._agent = create_agent(model, self.tools, middleware=middleware)
        else:  # same agent object: give its model the next script
            assert isinstance(self._shared, GenericFakeChatModel)
            self._shared.messages = model.messages
            self._shared.seen.clear()
            model = self._shared
        self._invoke(self._agent, model, obs)


# -- PydanticAI -----------------------------------------------------------------------------


class PydanticAIDriver(Driver):
    name = "pydantic_ai"

    def _play(self, script: list[Turn], obs: Observation) -> None:
        from pydantic_ai import Agent
        from pydantic_ai.messages import (
            ModelRequest,
            ModelResponse,
            RetryPromptPart,
            TextPart,
            ToolCallPart,
            ToolReturnPart,
        )
        from pydantic_ai.models.function import FunctionModel

        from hintline.integrations.pydantic_ai import HintlineCapability

        ids = _call_ids(script)
        turns = list(enumerate(script))
        seen: list[Any] = []

        def respond(messages: list[Any], info: Any) -> ModelResponse:
            seen.append(list(messages))
            t, turn = turns.pop(0) if turns else (-1, "done")
            if isinstance(turn, str):
                return ModelResponse(parts=[TextPart(turn)])
            return ModelResponse(parts=[ToolCallPart(tool_name=n, args=a, tool_call_id=ids[t][i]) for i, (n, a) in enumerate(turn)])

        if not hasattr(self, "_agent"):
            capabilities = [HintlineCapability(self.guard)] if self.guard else []
            self._respond: list[Callable[..., Any]] = [respond]
            self._agent = Agent(
                FunctionModel(self._respond[0]),
                tools=self.tools, capabilities=capabilities, retries=3,
            )
        self._respond[0] = respond
        result = None
        try:
            result = self._agent.run_sync("go")
        finally:
            for messages in seen[1:]:
                request = messages[-1]
                assert isinstance(request, ModelRequest)
                turn: list[Result] = []
                for part in request.parts:
                    if isinstance(part, ToolReturnPart):
                        text = part.content if isinstance(part.content, str) else part.model_response_str()
                        turn.append(Result(str(text), part.outcome in ("retried", "failed")))
                    elif isinstance(part, RetryPromptPart):
                        turn.append(Result(part.model_response(), True))
                obs.seen.append(turn)
            if result is not None:
                obs.final = str(result.output)


# -- OpenAI Agents ----------------------------------------------------------------------------


class OpenAIAgentsDriver(Driver):
    name = "openai_agents"

    def _play(self, script: list[Turn], obs: Observation) -> None:
        from agents import Agent, RunConfig, Runner, function_tool

        from hintline.integrations.openai_agents import guarded_tool
        from tests.integrations.openai_agents.scripted import ScriptedModel, message, tool_call

        ids = _call_ids(script)
        outputs: list[Any] = []
        for t, turn in enumerate(script):
            if isinstance(turn, str):
                outputs.append([message(turn)])
            else:
                outputs.append([tool_call(n, ids[t][i], **a) for i, (n, a) in enumerate(turn)])

        class Many(ScriptedModel):
            async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> Any:
                from agents import ModelResponse, Usage

                self.seen.append(copy.deepcopy(input if isinstance(input, list) else [input]))
                out = self.steps.pop(0) if self.steps else [message("done")]
                return ModelResponse(output=out, usage=Usage(requests=1), response_id=None)

        model = Many(*outputs)
        if not hasattr(self, "_agent"):
            tools = [guarded_tool(f, self.guard) if self.guard else function_tool(f) for f in self.tools]
            self._agent = Agent(name="files", model=model, tools=tools)
        self._agent.model = model
        result = None
        try:
            result = asyncio.run(Runner.run(self._agent, "go", run_config=RunConfig(tracing_disabled=True), max_turns=20))
        finally:
            for t, items in enumerate(model.seen[1:]):
                wanted = set(ids[t])
                outs = [i for i in items if isinstance(i, dict) and i.get("type") == "function_call_output" and i.get("call_id") in wanted]
                obs.seen.append([Result(str(o["output"]), None) for o in outs])
            if result is not None:
                obs.final = str(result.final_output)


# -- Anthropic tool runner --------------------------------------------------------------------


class AnthropicDriver(Driver):
    name = "anthropic"

    def _play(self, script: list[Turn], obs: Observation) -> None:
        import anthropic
        import httpx2 as httpx
        from anthropic.lib.tools import beta_tool

        from hintline.integrations.anthropic import tool_runner

        ids = _call_ids(script)
        replies: list[dict[str, Any]] = []
        for t, turn in enumerate(script):
            if isinstance(turn, str):
                replies.append({"content": [{"type": "text", "text": turn}], "stop_reason": "end_turn"})
            else:
                blocks = [{"type": "tool_use", "id": ids[t][i], "name": n, "input": a} for i, (n, a) in enumerate(turn)]
                replies.append({"content": blocks, "stop_reason": "tool_use"})
        requests: list[dict[str, Any]] = []

        def api(request: httpx.Request) -> httpx.Response:
            requests.append(json.loads(request.content))
            reply = replies.pop(0) if replies else {"content": [{"type": "text", "text": "done"}], "stop_reason": "end_turn"}
            body = {"id": f"msg_{len(requests)}", "type": "message", "role": "assistant", "model": "claude-test",
                    "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}, **reply}
            return httpx.Response(200, json=body)

        client = anthropic.Anthropic(api_key="test-key", base_url="http://127.0.0.1:9",
                                     http_client=httpx.Client(transport=httpx.MockTransport(api)), max_retries=0)
        params: dict[str, Any] = {"model": "claude-test", "max_tokens": 256, "messages": [{"role": "user", "content": "go"}]}
        final = None
        try:
            if self.guard is not None:
                final = tool_runner(client, tools=self.tools, guard=self.guard, **params).until_done()
            else:
                final = client.beta.messages.tool_runner(tools=[beta_tool(f) for f in self.tools], **params).until_done()
        finally:
            for body in requests[1:]:
                last = body["messages"][-1]
                blocks = [b for b in last["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
                obs.seen.append([
                    Result(b["content"] if isinstance(b["content"], str) else " ".join(x.get("text", "") for x in b["content"]),
                           bool(b.get("is_error")))
                    for b in blocks
                ])
            if final is not None:
                obs.final = "".join(getattr(b, "text", "") for b in final.content)


# -- MCP ----------------------------------------------------------------------------------------


class MCPDriver(Driver):
    """A scripted MCP client (the "model") against a server; one client session per run. A
    well-behaved client stops when a result tells it to."""

    name = "mcp"

    def _server(self) -> Any:
        if not hasattr(self, "_srv"):
            from mcp.server.mcpserver import MCPServer

            from hintline.integrations.mcp import guard_server

            server = MCPServer("files")
            for f in self.tools:
                server.tool()(f)
            self._srv = guard_server(server, self.guard) if self.guard else server
        return self._srv

    def _play(self, script: list[Turn], obs: Observation) -> None:
        asyncio.run(self._aplay(script, obs))

    async def _aplay(self, script: list[Turn], obs: Observation) -> None:
        from mcp import Client
        from mcp_types import TextContent

        async with Client(self._server(), mode="legacy") as client:
            for turn in script:
                if isinstance(turn, str):
                    obs.final = turn
                    return
                results = await asyncio.gather(*(client.call_tool(n, a) for n, a in turn))
                seen = [Result("\n".join(x.text for x in r.content if isinstance(x, TextContent)), bool(r.is_error)) for r in results]
                obs.seen.append(seen)
                stop = next((s for s in seen if "Stop calling tools" in s.text), None)
                if stop is not None:
                    obs.stop, obs.stop_text = "stop-result", stop.text
                    return


DRIVERS: dict[str, type[Driver]] = {
    d.name: d for d in (LangGraphDriver, LangChainDriver, PydanticAIDriver, OpenAIAgentsDriver, AnthropicDriver, MCPDriver)
}
