"""The compiled fast paths give exactly what the plain rules give (the speed work changes no result).

* ``trivial`` (a numba worklist) against a naive whole-board reading of the
  single-clue rule (report 000 §2.2) and the total (report 001), noise rules
  of report 004 included, on random positions, consistent or not;
* ``sweeplab.play`` outcome totals pinned to the figures measured before the
  speed work (same seeds), so a faster simulator cannot drift.
"""

from __future__ import annotations

import numpy as np
import pytest

import sweeplab
from sweeplab import Observation
from sweeplab.methods.subset import forced_cells as subset_cells
from sweeplab.methods.trivial import forced_cells
from sweeplab.positions import COVERED, FLAG, MINE, InconsistentPositionError, neighbour_counts


def naive_single_clue(obs: Observation, use_total: bool):
    """Whole-board passes of the single-clue and total rules until nothing changes."""
    grid = obs.grid
    h, w = grid.shape
    state = {(r, c): int(grid[r, c]) for r in range(h) for c in range(w)}
    mine = {cell for cell, v in state.items() if v in (FLAG, MINE)}
    unknown = {cell for cell, v in state.items() if v == COVERED}
    total = obs.mines - len(mine) if use_total and obs.mines is not None else None
    safe_found, mine_found = set(), set()

    def around(r, c):
        return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < h and 0 <= c + dc < w]

    while True:
        new_safe, new_mine = set(), set()
        for (r, c), v in state.items():
            if v < 0:
                continue
            nb = around(r, c)
            unk = [x for x in nb if x in unknown]
            need = v - sum(x in mine for x in nb)
            if (obs.noise != "under" and need < 0) or (obs.noise != "over" and need > len(unk)):
                raise InconsistentPositionError("clue")
            if unk and obs.noise != "under" and need == 0:
                new_safe |= set(unk)
            elif unk and obs.noise != "over" and need == len(unk):
                new_mine |= set(unk)
        if new_safe & new_mine:
            raise InconsistentPositionError("both")
        if total is not None and not (new_safe or new_mine):
            if not 0 <= total <= len(unknown):
                raise InconsistentPositionError("total")
            if unknown and total in (0, len(unknown)):
                (new_mine if total else new_safe).update(unknown)
        if not (new_safe or new_mine):
            return safe_found, mine_found
        unknown -= new_safe | new_mine
        mine |= new_mine
        total = None if total is None else total - len(new_mine)
        safe_found |= new_safe
        mine_found |= new_mine


def random_position(rng: np.random.Generator) -> Observation:
    h, w = (int(v) for v in rng.integers(1, 10, size=2))
    layout = rng.random((h, w)) < rng.uniform(0.05, 0.4)
    counts = neighbour_counts(layout).astype(int)
    if rng.random() < 0.3:  # some wrong numbers: inconsistent positions too
        counts = np.clip(counts + rng.integers(-1, 2, size=counts.shape), 0, 8)
    grid = np.full((h, w), COVERED)
    shown = (rng.random((h, w)) < rng.uniform(0.2, 0.9)) & ~layout
    grid[shown] = counts[shown]
    grid[(rng.random((h, w)) < 0.2) & (grid == COVERED) & (layout | (rng.random((h, w)) < 0.1))] = FLAG
    grid[(rng.random((h, w)) < 0.05) & shown] = -4
    known = int((grid == FLAG).sum())
    total = int(layout.sum()) + (int(rng.integers(-1, 2)) if rng.random() < 0.3 else 0)
    mines = None if rng.random() < 0.2 else min(max(total, known), h * w)
    return Observation(grid, mines=mines, noise=[None, "lost", "under", "over"][int(rng.integers(4))])


def outcome(method, obs: Observation, use_total: bool):
    try:
        return method(obs, use_total=use_total)
    except InconsistentPositionError:
        return "inconsistent"


def test_trivial_matches_the_naive_rule_on_random_positions():
    rng = np.random.default_rng(2026)
    kinds = set()
    for _ in range(400):
        obs = random_position(rng)
        for use_total in (True, False):
            got = outcome(forced_cells, obs, use_total)
            assert got == outcome(naive_single_clue, obs, use_total)
            kinds.add(got == "inconsistent")
    assert kinds == {True, False}


def test_subset_after_the_single_clue_rule_still_finds_the_difference():
    # report 001: A+B+C = 1, A+C+D = 2 (the single-clue rule alone finds nothing)
    obs = Observation.from_text("????\n-12-")
    assert forced_cells(obs) == (set(), set())
    assert subset_cells(obs) == ({(0, 0)}, {(0, 3)})


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        # (won, moves, guesses, certain, reveals), measured before the speed work
        (dict(level="intermediate", games=150, seed=3), (47, 10007, 495, 9362, 6879)),
        (dict(level="beginner", games=100, seed=7, first_click="zero", mode="score"),
         (83, 2797, 98, 2599, 1943)),
        (dict(level="intermediate", games=60, seed=8, noise=("under", 0.2)), (0, 735, 305, 370, 365)),
        (dict(level="intermediate", games=60, seed=9, noise=("lost", 0.2), use_total=True),
         (2, 2791, 311, 2420, 1902)),
    ],
)
def test_trivial_agent_outcomes_are_unchanged(options, expected):
    df = sweeplab.play("trivial", **options)
    got = tuple(int(df[col].sum()) for col in ("won", "moves", "guesses", "certain", "reveals"))
    assert got == expected
