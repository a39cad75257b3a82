"""Seconds for exact probabilities and ``enumerate``'s forced cells on huge boards in mid-game.

Positions: seeded square boards (side ``--sides``, ``--density`` mines) with a
zero first click in the centre, then a share of the safe cells opened at random
(``--opened``; the layout is peeked at only to make positions), so the frontier
falls into thousands of independent blocks.  Prints, for each board, the blocks
(and those whose mine count varies), the steps the chains of prefix and suffix
products would take and the tree's (``sweeplab.methods.enumerate``), and the
fastest of ``--repeat`` timings of ``sweeplab.probabilities`` and of
``deduce(obs, "enumerate")`` after a warm-up; no assertions.

    .venv/bin/python benchmarks/huge_boards.py [--sides 100,300,1000] [--density 0.18] [--opened 0.03]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import sweeplab
from sweeplab.clue_system import clue_system
from sweeplab.methods import enumerate as en
from sweeplab.methods._common import Budget


def midgame(side: int, density: float, opened: float, seed: int) -> sweeplab.Observation:
    mines = int(density * side * side)
    game = sweeplab.Game((side, side), mines, first_click="zero", mode="score", seed=seed)
    game.reveal(side // 2, side // 2)
    safe = np.argwhere(~game.layout)
    rng = np.random.default_rng(seed)
    for r, c in safe[rng.choice(len(safe), int(opened * len(safe)), replace=False)]:
        game.reveal(int(r), int(c))
    return game.observation


def fastest(call, obs: sweeplab.Observation, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call(obs)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sides", default="100,300,1000")
    ap.add_argument("--density", type=float, default=0.18)
    ap.add_argument("--opened", type=float, default=0.03, help="share of the safe cells opened at random")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sweeplab.probabilities(midgame(30, args.density, args.opened, args.seed))  # compiled kernels
    print(f"{'side':>5s} {'blocks':>7s} {'varying':>8s} {'chain steps':>12s} {'tree steps':>11s} "
          f"{'probabilities s':>16s} {'enumerate s':>12s}")
    for side in map(int, args.sides.split(",")):
        obs = midgame(side, args.density, args.opened, args.seed)
        p = clue_system(obs, use_total=True).grouped()
        _, counts, coff, *_ = en._block_counts(p, en.MAX_NODES, Budget("enumerate", time_limit=None))
        _, klen = en._mine_count_spans(counts, coff)
        varying = int(np.count_nonzero(klen > 1))
        chain = en._combine_steps(counts, coff)
        tree = en._tree_work(klen, varying)[1]
        probs = fastest(lambda o: sweeplab.probabilities(o, time_limit=None), obs, args.repeat)
        forced = fastest(lambda o: sweeplab.deduce(o, "enumerate", time_limit=None), obs, args.repeat)
        print(f"{side:5d} {coff.size - 1:7d} {varying:8d} {chain:12.3g} {tree:11.3g} {probs:16.3f} "
              f"{forced:12.3f}")


if __name__ == "__main__":
    main()
