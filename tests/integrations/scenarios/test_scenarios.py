"""The agent-policy scenario suite, through every framework's real agent loop with hintline's
wiring: what the model saw, how often each tool ran, the delays, whether and why it stopped."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agent.fakes import FakeClock
from tests.integrations.scenarios.drivers import DRIVERS
from tests.integrations.scenarios.harness import (
    FRAMEWORK_LIMITS,
    SCENARIOS,
    Scenario,
    guard_for,
    toolbox,
)


def play(framework: str, scenario: Scenario, root: Path, hinted: bool = True):  # type: ignore[no-untyped-def]
    clock = FakeClock()
    with toolbox(root, scenario) as box:
        guard = guard_for(clock, **scenario.policy) if hinted else None
        driver = DRIVERS[framework](box.tools(), guard, clock, box)
        obs = driver.run(scenario.script)
        if scenario.second is not None:
            obs = driver.run(scenario.second)
    return obs


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
@pytest.mark.parametrize("framework", list(DRIVERS))
def test_scenario(framework: str, scenario: Scenario, tmp_path: Path) -> None:
    obs = play(framework, scenario, tmp_path)
    assert scenario.check is not None
    limit = FRAMEWORK_LIMITS.get((framework, scenario.name))
    if limit is not None:
        with pytest.raises(AssertionError):
            scenario.check(obs, framework)
        return
    scenario.check(obs, framework)
