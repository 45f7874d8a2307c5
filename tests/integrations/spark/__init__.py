import pytest

pytest.importorskip("pyspark")
