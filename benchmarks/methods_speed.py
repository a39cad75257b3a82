"""Milliseconds per mid-game position for every deduction method, with ms-toollib beside them.

Positions: seeded expert games (16x30, 99 mines) played by revealing safe cells
next to the opening and flagging some true mines (the layout is peeked at only
to make positions), snapshot when 20-80 % of the safe cells are open.  Every
method of ``sweeplab.METHODS`` is warmed up once, then timed on each position
(with the total, default budgets); ``sweeplab.probabilities`` too.  When ``ms_toollib`` is
importable, its ``cal_probability_onboard`` (probabilities with the total) and
``solve_enumerate`` (forced cells from the clues) run on the same positions
(they are consistent: ms-toollib aborts the interpreter on contradictory
boards).  Prints median and 90th percentile milliseconds, and the largest
probability difference from ms-toollib on the same positions with the flags
unset (ms-toollib does not read a flag as a known mine the way SPEC §1 does:
with flags the two disagree); no assertions.

    .venv/bin/python benchmarks/methods_speed.py [--positions 100] [--seed 0] [--level expert] [--repeat 3]

Each position is timed ``--repeat`` times and its fastest time counts (as
``timeit`` does), so the figures measure the code rather than the machine's
other work.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import sweeplab
from sweeplab import COVERED, FLAG, METHODS, MINE, new_game
from sweeplab.positions import neighbour_counts


def midgame_positions(level: str, n: int, seed: int) -> list[sweeplab.Observation]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        g = new_game(level, seed=int(rng.integers(2**31)))
        h, w = g.shape
        g.reveal(int(rng.integers(h)), int(rng.integers(w)))
        target = rng.uniform(0.2, 0.8)
        while g.status == "playing" and g.revealed_fraction < target:
            grid = g.observation.grid
            covered = grid == COVERED
            near = neighbour_counts(~covered & (grid != FLAG)) > 0
            pool = np.argwhere(covered & ~g.layout & near)
            if len(pool) == 0:
                pool = np.argwhere(covered & ~g.layout)
            r, c = pool[rng.integers(len(pool))]
            g.reveal(int(r), int(c))
            if g.status == "playing" and rng.random() < 0.2:
                cand = np.argwhere((g.observation.grid == COVERED) & g.layout & near)
                if len(cand):
                    r, c = cand[rng.integers(len(cand))]
                    g.flag(int(r), int(c))
        if g.status == "playing":
            out.append(g.observation)
    return out


#: What a refusal raises (versions before ``MethodRefused`` raised ``ValueError``: compare_speed.py
#: runs this script on older revisions too).
REFUSED = getattr(sweeplab, "MethodRefused", ValueError)


def timed(fn, obs, repeat: int = 1) -> tuple[float, bool]:
    """Fastest of ``repeat`` calls in milliseconds, and whether the method answered."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            fn(obs)
            ok = True
        except REFUSED:  # a refusal (brute beyond its size limit, a budget reached)
            ok = False
        best = min(best, time.perf_counter() - start)
    return best * 1e3, ok


def toollib_board(obs) -> list[list[int]]:
    g = obs.grid.astype(int)
    board = np.where(g == COVERED, 10, g)
    return np.where((g == FLAG) | (g == MINE), 11, board).tolist()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--level", default="expert")
    ap.add_argument("--methods", nargs="*", default=list(METHODS))
    ap.add_argument("--repeat", type=int, default=3, help="calls per position (fastest counts)")
    args = ap.parse_args()
    positions = midgame_positions(args.level, args.positions, args.seed)
    frontier = [int(sweeplab.clue_system(o, use_total=False).n_frontier) for o in positions]
    print(f"{len(positions)} {args.level} mid-game positions (seed {args.seed}); "
          f"frontier cells: median {np.median(frontier):.0f}, max {max(frontier)}")
    runners = {name: (lambda o, f=METHODS[name].function: f(o, use_total=True)) for name in args.methods}
    runners["probabilities"] = sweeplab.probabilities
    try:
        import ms_toollib
    except ImportError:
        ms_toollib = None
    if ms_toollib is not None:
        runners["ms_toollib probability"] = lambda o: ms_toollib.cal_probability_onboard(
            toollib_board(o), float(o.mines))
        runners["ms_toollib solve_enumerate"] = lambda o: ms_toollib.solve_enumerate(toollib_board(o))
        runners["enumerate (no total)"] = lambda o: METHODS["enumerate"].function(o, use_total=False)
    print(f"{'method':28s} {'median ms':>10s} {'p90 ms':>10s} {'max ms':>10s} {'refused':>8s}")
    for name, fn in runners.items():
        timed(fn, positions[0])  # warm-up: imports, numba cache, HiGHS
        times, refused = [], 0
        for obs in positions:
            ms, ok = timed(fn, obs, args.repeat)
            if ok:
                times.append(ms)
            else:
                refused += 1
        if times:
            t = np.array(times)
            p50, p90 = np.median(t), np.percentile(t, 90)
            print(f"{name:28s} {p50:10.3f} {p90:10.3f} {t.max():10.1f} {refused:8d}")
        else:
            print(f"{name:28s} {'-':>10s} {'-':>10s} {'-':>10s} {refused:8d}")
    if ms_toollib is not None:
        # ms-toollib reads flags (11) differently from SPEC's "known mine"; compare with flags unset.
        diff = 0.0
        for obs in positions:
            bare = sweeplab.Observation(np.where(obs.grid == FLAG, COVERED, obs.grid), mines=obs.mines)
            theirs, _ = ms_toollib.cal_probability_onboard(toollib_board(bare), float(bare.mines))
            covered = bare.grid == COVERED
            ours = sweeplab.probabilities(bare)
            diff = max(diff, float(np.abs(np.asarray(theirs)[covered] - ours[covered]).max()))
        print(f"max |probability difference| with ms_toollib (flags unset): {diff:.2e}")


if __name__ == "__main__":
    main()
