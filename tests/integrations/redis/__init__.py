import pytest

pytest.importorskip("redis")
