import pytest

pytest.importorskip("structlog")
