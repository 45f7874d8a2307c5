import pytest

pytest.importorskip("anthropic")
