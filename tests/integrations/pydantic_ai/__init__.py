import pytest

pytest.importorskip("pydantic_ai")
