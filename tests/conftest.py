"""Shared test settings: hypothesis profiles.

``default`` keeps property tests quick for ``make test``; ``ci`` runs more
examples.  Pick one with ``HYPOTHESIS_PROFILE=ci`` (or pytest's
``--hypothesis-profile ci``).
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def starved(monkeypatch):
    """Every wall-clock budget spent at once, as on a starved or suspended machine.

    A method called with a time limit refuses at its first check (or its
    solver gets no time); calls without one are untouched.
    """
    from sweeplab.methods._common import Budget

    def out_of_time(self, doing):
        if self.time_limit is not None:
            raise self.out_of_time(doing)

    monkeypatch.setattr(Budget, "check", out_of_time)
    monkeypatch.setattr(Budget, "solver_seconds", lambda self: None if self.time_limit is None else 1e-9)


@pytest.fixture
def clean_registry():
    """Methods and agents a test registers are unregistered after it."""
    from sweeplab import AGENTS, METHODS, unregister_agent, unregister_method

    methods, agents = set(METHODS), set(AGENTS)
    yield
    for name in set(METHODS) - methods:
        unregister_method(name)
    for name in set(AGENTS) - agents:
        unregister_agent(name)
