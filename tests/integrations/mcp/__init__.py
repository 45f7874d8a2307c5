import pytest

pytest.importorskip("mcp")
