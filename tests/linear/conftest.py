"""The hostile tier switches the rule engine and RE2 per function under test: put both back
after every test, so that a later test (in any directory) meets the process's own defaults."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _restore_engines() -> Iterator[None]:
    from hintline import _linear
    from hintline.cleaner import match as _engine

    engine, re2 = _engine._forced, _linear._re2_forced
    yield
    if _engine._forced != engine:
        _engine.set_engine(engine)
    if _linear._re2_forced != re2:
        _linear.set_re2(re2)
