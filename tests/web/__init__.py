"""Tests of the administrator-only page (the ``web`` extra; CI installs every extra)."""

import pytest

pytest.importorskip("starlette")
