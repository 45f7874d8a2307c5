"""One module per framework, each behind its own extra; the core never imports them.

``langgraph``, ``langchain``, ``pydantic_ai``, ``mcp``, ``openai_agents``, ``anthropic``.
"""
