"""The soundness fuzzer (issue 14, Deliver 7): a small run in CI, its own checks, and its CLI."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

import sweeplab
from sweeplab import InconsistentPositionError, Observation
from sweeplab.testing.fuzz import count_probabilities, fuzz, fuzz_parts, main


def test_small_fuzz_run_finds_nothing():
    # The fuzzer's truth is the package's own enumerate (checked here by hand, below, and in
    # test_soundness against an independent SAT oracle): this run catches the other methods.
    n_calls, failures = fuzz(40, seed=2026)
    assert n_calls > 40 * 2 * 12
    assert not failures, "\n".join(map(str, failures))


def test_fuzz_parts_cover_the_same_positions():
    assert fuzz(6, seed=3)[0] == fuzz(3, seed=3)[0] + fuzz(3, seed=3, start=3)[0]


def test_fuzz_on_two_workers_checks_the_same_calls():
    # a planted disagreement would have to surface the same way: compare the call counts and failures
    assert fuzz_parts(8, seed=4, workers=2, part=3) == fuzz(8, seed=4)


def test_count_probabilities_by_hand():
    p = count_probabilities(Observation.from_text("?1\n??", mines=1))
    np.testing.assert_allclose(p[[0, 1, 1], [0, 0, 1]], [1 / 3] * 3)
    assert np.isnan(p[0, 1])
    under = count_probabilities(Observation.from_text("?1\n??", mines=2, noise="under"))
    np.testing.assert_allclose(under[[0, 1, 1], [0, 0, 1]], [2 / 3] * 3)
    with pytest.raises(InconsistentPositionError):
        count_probabilities(Observation.from_text("??0", mines=2))
    over = count_probabilities(Observation.from_text("?1?\n???", noise="over"), use_total=False)
    # "over": at most one mine around the 1, among 5 cells: 1 empty layout + 5 with one mine
    np.testing.assert_allclose(over[[0, 0, 1, 1, 1], [0, 2, 0, 1, 2]], [1 / 6] * 5)
    assert count_probabilities(Observation.from_text("?" * 15)) is None  # past MAX_COUNTED


def test_cli_prints_the_rate(capsys):
    assert main(["--positions", "5", "--seed", "1", "--no-progress"]) == 0
    assert "positions/s" in capsys.readouterr().out


def test_the_fuzzer_checks_a_plugins_methods_alone(capsys):
    """A researcher's review: the fuzzer had no --plugin (only SWEEPLAB_PLUGINS) and no --methods."""
    from sweeplab.methods import plugin_names

    keep = os.environ.get(sweeplab.methods.PLUGINS_ENV)
    try:
        argv = ["--positions", "20", "--seed", "2", "--no-progress", "--plugin", "sweeplab.example_plugin"]
        assert main([*argv, "--methods", "rref-reversed"]) == 0
        assert "sweeplab.example_plugin" in plugin_names()
        one = capsys.readouterr().out
        assert main(argv) == 0  # every sound method, the plugin's included
        every = capsys.readouterr().out
        calls = [int(re.search(r"(\d+) calls, 0 failures", out).group(1)) for out in (one, every)]
        assert 0 < 5 * calls[0] < calls[1]
    finally:
        if keep is None:
            os.environ.pop(sweeplab.methods.PLUGINS_ENV, None)
        else:
            os.environ[sweeplab.methods.PLUGINS_ENV] = keep
    for methods, said in [("lstsq", "'lstsq' is not registered sound"), ("rrefs", "did you mean 'rref'"),
                          (",", "--methods names no method")]:
        with pytest.raises(SystemExit):
            main(["--positions", "1", "--methods", methods])
        assert said in capsys.readouterr().err


def test_a_part_sees_exactly_the_positions_of_the_whole_run():
    from sweeplab.testing import random_positions

    def key(o):
        return o.grid.tobytes(), o.shape, o.mines, o.noise

    whole = [key(o) for o in random_positions(12, seed=5)]
    assert [key(o) for o in random_positions(5, seed=5, start=7)] == whole[7:]
    assert len(set(whole)) > 10  # distinct positions, not one repeated
    with pytest.raises(ValueError, match="start"):
        random_positions(1, start=-1)


def test_a_starved_process_does_not_stop_the_run(starved):
    """Every budgeted call out of time (as under a loaded machine): the methods refuse, the truth answers."""
    n_calls, failures = fuzz(4, seed=3)
    assert n_calls == fuzz(4, seed=3)[0] and not failures
