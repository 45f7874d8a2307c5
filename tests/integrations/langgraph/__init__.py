import pytest

pytest.importorskip("langgraph")
