"""The soundness fuzzer (issue 14, Deliver 7): a small run in CI, its own checks, and its CLI."""

from __future__ import annotations

import numpy as np
import pytest

from sweeplab import InconsistentPositionError, Observation
from sweeplab.testing.fuzz import count_probabilities, fuzz, main


def test_small_fuzz_run_finds_nothing():
    n_calls, failures = fuzz(40, seed=2026)
    assert n_calls > 40 * 2 * 12
    assert not failures, "\n".join(map(str, failures))


def test_fuzz_parts_cover_the_same_positions():
    assert fuzz(6, seed=3)[0] == fuzz(3, seed=3)[0] + fuzz(3, seed=3, start=3)[0]


def test_count_probabilities_by_hand():
    p = count_probabilities(Observation.from_text("?1\n??", mines=1))
    np.testing.assert_allclose(p[[0, 1, 1], [0, 0, 1]], [1 / 3] * 3)
    assert np.isnan(p[0, 1])
    under = count_probabilities(Observation.from_text("?1\n??", mines=2, noise="under"))
    np.testing.assert_allclose(under[[0, 1, 1], [0, 0, 1]], [2 / 3] * 3)
    with pytest.raises(InconsistentPositionError):
        count_probabilities(Observation.from_text("??0", mines=2))


def test_cli_prints_the_rate(capsys):
    assert main(["--positions", "5", "--seed", "1", "--no-progress"]) == 0
    assert "positions/s" in capsys.readouterr().out
