import pytest

pytest.importorskip("langchain")
