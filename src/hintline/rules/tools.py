"""Rules: agent protocol errors — unknown tools and unresolved references.

The unknown-tool texts are the ones real agent frameworks send back to the model or raise
(LangGraph/LangChain ToolNode, OpenAI Agents SDK, MCP servers, PydanticAI). The ``${steps…}``
reference is hintline's own agent-runtime vocabulary: its guard reports an unresolved reference as
``unresolved reference ${steps.<step>.output.<field>}: …`` and these rules define that format.
See rules/__init__.py for global precedence.
"""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule

_FX = "tests/rules/fixtures/tools/"
_SG = "tests/rules/fixtures/signals/"

_UNKNOWN_TOOL = "Tool '{key}' does not exist; call one of the available tools instead (for example '{tools}') and check the spelling."

RULES: tuple[Rule, ...] = (
    Rule(
        code="AG001",
        name="tools.langgraph-invalid-tool",
        category=Category.UNKNOWN_TOOL,
        pattern=r"Error: (?P<key>[^\s,]+) is not a valid tool, try one of \[(?P<tools>[^\]\n]*)\]",
        hint=_UNKNOWN_TOOL,
        why="LangGraph's prebuilt ToolNode (and LangChain agents) answer a call to an unregistered tool with this ToolMessage.",
        examples=(
            Example(
                "ToolMessage(content='Error: get_wether is not a valid tool, try one of [get_weather].', "
                "name='get_wether', tool_call_id='call_1', status='error')",
                "Hint: Tool 'get_wether' does not exist; call one of the available tools instead (for example 'get_weather') and check the spelling.",
                "get_wether",
                _FX + "langgraph_toolnode.txt",
            ),
        ),
        near_misses=("Error: get_weather is not a valid city",),
    ),
    Rule(
        code="AG002",
        name="tools.openai-agents-tool-not-found",
        category=Category.UNKNOWN_TOOL,
        pattern=r"Tool (?P<key>[^\s,]+) not found in agent (?P<agent>[^\n]+)",
        hint="Tool '{key}' is not defined on agent '{agent}'; call one of that agent's tools instead and check the spelling.",
        why="OpenAI Agents SDK raises ModelBehaviorError when the model calls a tool the agent does not have.",
        examples=(
            Example(
                "agents.exceptions.ModelBehaviorError: Tool get_wether not found in agent Weather",
                "Hint: Tool 'get_wether' is not defined on agent 'Weather'; call one of that agent's tools instead and check the spelling.",
                "get_wether",
                _FX + "openai_agents.txt",
            ),
        ),
    ),
    Rule(
        code="AG003",
        name="tools.pydantic-ai-unknown-tool-name",
        category=Category.UNKNOWN_TOOL,
        pattern=r"Unknown tool name: '(?P<key>[^'\n]+)'\.(?: Available tools: (?P<tools>[^\n\"]+))?",
        hint=_UNKNOWN_TOOL,
        why="PydanticAI returns this to the model (and raises it under UnexpectedModelBehavior when retries run out).",
        examples=(
            Example(
                "tool result sent back to the model: {\"error\":\"Unknown tool name: 'get_wether'. "
                "Available tools: 'get_weather'\"}",
                "Hint: Tool 'get_wether' does not exist; call one of the available tools instead (for example 'get_weather') and check the spelling.",
                "get_wether",
                _FX + "pydantic_ai.txt",
            ),
        ),
    ),
    Rule(
        code="AG004",
        name="tools.mcp-unknown-tool",
        category=Category.UNKNOWN_TOOL,
        pattern=r"Unknown tool: (?P<key>[^\s'\",]+)",
        hint="Tool '{key}' is not offered by the MCP server; list the server's tools and call one of those.",
        why="MCP servers (the Python SDK's tool manager, and others) reject tools/call for an unregistered name.",
        examples=(
            Example(
                "Tool 'get_wether' failed: 'Unknown tool: get_wether'\n"
                "content=[TextContent(type='text', text='Unknown tool: get_wether')] is_error=True",
                "Hint: Tool 'get_wether' is not offered by the MCP server; list the server's tools and call one of those.",
                "get_wether",
                _FX + "mcp_unknown_tool.txt",
            ),
        ),
        near_misses=("Unknown tool name: 'x'. No tools available.",),
    ),
    Rule(
        code="AG005",
        name="tools.step-reference-unresolved",
        category=Category.UNRESOLVED_REFERENCE,
        pattern=(
            r"(?i)(?:unresolved reference|could not resolve|cannot resolve|failed to resolve) "
            r"\$\{(?P<key>steps\.[\w.\[\]-]+)\}"
        ),
        hint="Reference '${{{key}}}' does not resolve; run the step it names first, or fix the step or field name.",
        why="hintline's agent runtime format: a tool argument refers to a step output that does not exist (defined here, emitted by the guard).",
        examples=(
            Example(
                "unresolved reference ${steps.fetch_user.output.id}: step 'fetch_user' has no output 'id'",
                "Hint: Reference '${steps.fetch_user.output.id}' does not resolve; run the step it names first, or fix the step or field name.",
                "steps.fetch_user.output.id",
                "hintline guard format (defined by this rule)",
            ),
            Example(
                "ToolError: could not resolve ${steps.create_order.output.order_id} in argument 'order_id'",
                "Hint: Reference '${steps.create_order.output.order_id}' does not resolve; run the step it names first, or fix the step or field name.",
                "steps.create_order.output.order_id",
                "hintline guard format (defined by this rule)",
            ),
        ),
        near_misses=("resolved reference ${steps.fetch_user.output.id} to 42",),
    ),
    Rule(
        code="AG006",
        name="tools.prompt-missing-variables",
        category=Category.UNRESOLVED_REFERENCE,
        pattern=r"Input to (?P<template>\w+) is missing variables \{(?P<key>[^}\n]+)\}",
        hint="Template variable '{key}' was not supplied to {template}; pass a value for '{key}' in the input.",
        why="LangChain prompt templates raise this KeyError when a {variable} in the template gets no value.",
        examples=(
            Example(
                "KeyError: \"Input to ChatPromptTemplate is missing variables {'audience'}.  Expected: "
                "['audience', 'topic'] Received: ['topic']\"",
                "Hint: Template variable 'audience' was not supplied to ChatPromptTemplate; pass a value for 'audience' in the input.",
                "audience",
                _FX + "langchain_prompt_missing.txt",
            ),
        ),
    ),
    Rule(
        code="AG007",
        name="tools.jsonrpc-invalid-tool-arguments",
        category=Category.TYPE_MISMATCH,
        pattern=r"Invalid arguments for tool (?P<key>[\w.\-]{1,64})",
        hint="The arguments for tool '{key}' do not match its input schema (JSON-RPC -32602); read the tool's schema and send the fields it requires with the right types.",
        why="MCP servers answer tools/call with invalid arguments by -32602 Invalid params naming the tool (the TypeScript SDK's input validation).",
        examples=(
            Example(
                '{"result":{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool read_text_file: Invalid input: expected string, received undefined at path"}],"isError":true},"jsonrpc":"2.0","id":2}',
                "Hint: The arguments for tool 'read_text_file' do not match its input schema (JSON-RPC -32602); read the tool's schema and send the fields it requires with the right types.",
                "read_text_file",
                _SG + "mcp-fs-invalid-params.txt",
            ),
        ),
    ),
    Rule(
        code="AG008",
        name="tools.jsonrpc-invalid-params",
        category=Category.TYPE_MISMATCH,
        pattern=r"(?:[\"']code[\"']: ?-32602\b|-32602:? Invalid params)",
        hint="The call's parameters are invalid (JSON-RPC -32602 Invalid params); check the method's parameter names and types.",
        why="JSON-RPC 2.0 error -32602: the method exists but its params do not fit.",
        key_group=None,
        examples=(
            Example(
                'MCP error -32602: Invalid params',
                "Hint: The call's parameters are invalid (JSON-RPC -32602 Invalid params); check the method's parameter names and types.",
                None,
                "https://www.jsonrpc.org/specification#error_object (-32602 Invalid params)",
            ),
        ),
    ),
    Rule(
        code="AG009",
        name="tools.jsonrpc-method-not-found",
        category=Category.UNKNOWN_TOOL,
        pattern=r"(?:[\"']code[\"']: ?-32601\b|-32601:? Method not found)",
        hint="The server has no such method (JSON-RPC -32601 Method not found); list what it offers (tools/list) and call one of those.",
        why="JSON-RPC 2.0 error -32601 (MCP servers included): the method name is not one the server implements.",
        key_group=None,
        examples=(
            Example(
                '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}',
                "Hint: The server has no such method (JSON-RPC -32601 Method not found); list what it offers (tools/list) and call one of those.",
                None,
                _SG + "mcp-fs-method-not-found.txt",
            ),
        ),
        near_misses=('{"code": -326010}',),
    ),
)
