import pytest

pytest.importorskip("agents")
