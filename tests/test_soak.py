"""The soak against the independent oracle (``tests/soak.py``): a short run, and that it catches faults."""

from __future__ import annotations

import pytest
import soak

import sweeplab


def test_a_short_soak_finds_nothing():
    run = soak.soak(2026, positions_=12)
    assert not run.failures, "\n".join(run.failures)
    assert run.positions == 12 and run.calls == 12 * 2 * len(soak.settings())
    assert run.claims > 0 and run.proofs > 0 and run.mutations >= run.proofs and run.probabilities > 0


def test_the_positions_of_a_seed_are_fixed():
    first = [o.to_text() for o, _ in zip(soak.positions(7), range(30), strict=False)]
    again = [o.to_text() for o, _ in zip(soak.positions(7), range(30), strict=False)]
    other = [o.to_text() for o, _ in zip(soak.positions(8), range(30), strict=False)]
    assert first == again and first != other


def test_budget_settings_reach_every_sound_method_that_takes_them():
    calls = soak.settings(options=True)
    for name in ("rref", "bounded", "lp", "milp", "enumerate", "subset"):
        assert (name, {"time_limit": 1e-9}) in calls
    assert ("lstsq", {"time_limit": 1e-9}) not in calls  # not sound: nothing to check
    assert len(calls) > len(soak.settings())


def test_the_soak_catches_a_wrong_claim_and_a_missed_cell():
    def everything_safe(obs, *, use_total=True):
        covered = {(r, c) for r in range(obs.shape[0]) for c in range(obs.shape[1]) if obs.grid[r, c] == -1}
        return covered, set()

    def nothing(obs, *, use_total=True):
        return set(), set()

    sweeplab.register_method("soak-wrong", everything_safe, sound=True, complete=False)
    sweeplab.register_method("soak-lazy", nothing, sound=True, complete=True)
    try:
        run = soak.soak(5, positions_=8)
    finally:
        sweeplab.unregister_method("soak-wrong")
        sweeplab.unregister_method("soak-lazy")
    assert all(" soak-wrong " in f or " soak-lazy " in f for f in run.failures)
    assert any(f.startswith("WRONG CLAIM") and " soak-wrong " in f for f in run.failures)
    assert any(f.startswith("a complete method missed") and " soak-lazy " in f for f in run.failures)
    assert any(f.startswith("a complete method answered") and " soak-lazy " in f for f in run.failures)


def test_the_soak_catches_wrong_probabilities(monkeypatch):
    exact = sweeplab.probabilities
    monkeypatch.setattr(sweeplab, "probabilities", lambda obs, **kw: exact(obs, **kw) * 0.999)
    run = soak.soak(5, positions_=4)
    assert run.failures and all(f.startswith("probabilities off by") for f in run.failures)


def test_the_command_line_needs_a_stop(capsys):
    with pytest.raises(SystemExit) as exit_:
        soak.main(["--seed", "1"])
    assert exit_.value.code == 2 and "--positions or --minutes" in capsys.readouterr().err
    assert soak.main(["--seed", "1", "--positions", "2"]) == 0
    assert "2 positions" in capsys.readouterr().out
