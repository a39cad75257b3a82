"""Seconds to prove every claim of each sound method on large mid-game positions (SPEC §6).

Positions: one per size, with the total: safe cells opened at random (each with its flood) until
``--reveal`` of them are open, so that clues stand in many islands and most covered cells near
them are forced (``--kind scattered``, thousands of claims on 300x300); or a perfect player's
mid-game (``--kind player``, :func:`sweeplab.corpus.midgame_positions`).  For each method,
``deduce(obs, method, proofs=True)`` runs once with its default time budget (20 s): the line
shows the seconds, the claims, how many got a checked proof and how many are over budget.  No
assertions.

    .venv/bin/python benchmarks/proofs_speed.py [--sizes 50 100 300] [--density 0.2] [--seed 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import sweeplab
from sweeplab import Game
from sweeplab.corpus import midgame_positions

SOUND = ("trivial", "subset", "rref", "gf2", "gfp", "bounded", "lp", "enumerate", "milp")


def scattered_position(n: int, density: float, reveal: float, seed: int) -> sweeplab.Observation:
    """Safe cells of an ``n`` x ``n`` board opened at random until ``reveal`` of them are open."""
    rng = np.random.default_rng(seed)
    layout = rng.random((n, n)) < density
    game = Game.from_layout(layout)
    safe = np.argwhere(~layout)
    for r, c in safe[rng.permutation(len(safe))]:
        if game.observation.grid[r, c] == sweeplab.COVERED:
            game.reveal(int(r), int(c))
        if np.count_nonzero(game.observation.grid >= 0) >= reveal * len(safe):
            break
    return game.observation


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 300])
    parser.add_argument("--kind", choices=("scattered", "player"), default="scattered")
    parser.add_argument("--density", type=float, default=0.2)
    parser.add_argument("--reveal", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--methods", nargs="+", default=list(SOUND))
    args = parser.parse_args()
    sweeplab.deduce("?1\n11", "enumerate", proofs=True)  # imports and compiled code, once
    print(f"{'board':>9} {'method':>10} {'seconds':>8} {'claims':>7} {'proved':>7} {'over':>6}")
    for n in args.sizes:
        if args.kind == "scattered":
            obs = scattered_position(n, args.density, args.reveal, args.seed)
        else:
            obs = midgame_positions(shape=(n, n), density=args.density, n=1, reveal=args.reveal,
                                    seed=args.seed)[0]
        for method in args.methods:
            start = time.perf_counter()
            try:
                d = sweeplab.deduce(obs, method, proofs=True)
            except sweeplab.MethodRefused as err:
                print(f"{n}x{n:<5} {method:>10} refused: {err}")
                continue
            seconds = time.perf_counter() - start
            assert d.proofs is not None and d.over_budget is not None  # asked for
            print(f"{n}x{n:<5} {method:>10} {seconds:8.1f} {len(d.cells):7d} {len(d.proofs):7d} "
                  f"{len(d.over_budget):6d}", flush=True)


if __name__ == "__main__":
    main()
