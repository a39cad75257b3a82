"""Game-engine speed: games generated and fully opened per second.

"Generated" is ``new_game(..., first_click="none")`` (the layout, its numbers
and the noise draw are made at construction).  "Opened" generates a game, then
reveals every safe cell in a random order; "opened+obs" also reads
``game.observation`` once per move, as an agent does, and skips the cells it
shows revealed.  "system ms" is one ``clue_system(obs).components()`` on a
position with a third of its safe cells open, the work a deducing agent starts
every move with.

Run ``python benchmarks/game_speed.py`` (or ``make bench``); ``--profile`` adds
a cProfile listing of the opening loop on the expert preset.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np

from sweeplab import COVERED, clue_system, new_game

#: (label, new_game keywords, games to generate, games to open)
BOARDS = [
    ("beginner", {"level": "beginner"}, 2000, 1000),
    ("intermediate", {"level": "intermediate"}, 2000, 500),
    ("expert", {"level": "expert"}, 2000, 300),
    ("100x100 d=0.15", {"shape": (100, 100), "density": 0.15}, 200, 10),
    ("1000x1000 d=0.15", {"shape": (1000, 1000), "density": 0.15}, 5, 1),
]


def generate(kwargs: dict, n: int, seed: int) -> float:
    """Seconds to generate ``n`` games."""
    start = time.perf_counter()
    for i in range(n):
        new_game(**kwargs, first_click="none", seed=(seed, i))
    return time.perf_counter() - start


def open_fully(kwargs: dict, n: int, seed: int, *, observe: bool) -> float:
    """Seconds to generate and fully open ``n`` games.

    With ``observe``, ``game.observation`` is read after every move and cells it
    shows revealed are skipped; without, every safe cell is revealed in turn until the
    game is won (``reveal`` returns 0 at once on a revealed cell).
    """
    start = time.perf_counter()
    for i in range(n):
        game = new_game(**kwargs, first_click="none", mode="score", seed=(seed, i))
        order = np.random.default_rng((seed, i, 1)).permutation(np.flatnonzero(~game.layout.ravel()))
        w = game.shape[1]
        if observe:
            grid = game.observation.grid.ravel()
            for j in order.tolist():
                if grid[j] == COVERED:
                    game.reveal(j // w, j % w)
                    grid = game.observation.grid.ravel()
        else:
            for j in order.tolist():
                if game.status != "playing":
                    break
                game.reveal(j // w, j % w)
        assert game.status == "won"
    return time.perf_counter() - start


def system_seconds(kwargs: dict, seed: int) -> float:
    """Seconds for ``clue_system`` plus ``components()`` on a position a third opened."""
    game = new_game(**kwargs, first_click="zero", mode="score", seed=seed)
    h, w = game.shape
    game.reveal(h // 2, w // 2)
    safe = np.random.default_rng(seed).permutation(np.flatnonzero(~game.layout.ravel()))
    for j in safe[: safe.size // 3].tolist():
        if game.status == "playing" and game.observation.grid[j // w, j % w] == COVERED:
            game.reveal(j // w, j % w)
    obs = game.observation
    reps, start = 0, time.perf_counter()
    while reps == 0 or time.perf_counter() - start < 0.5:
        clue_system(obs).components()
        reps += 1
    return (time.perf_counter() - start) / reps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the game counts (default 1)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of opening expert games")
    args = parser.parse_args(argv)
    print(f"{'board':18s} {'generated/s':>12s} {'opened/s':>10s} {'opened+obs/s':>13s} {'system ms':>10s}",
          flush=True)
    for label, kwargs, n_gen, n_open in BOARDS:
        n_gen, n_open = max(1, round(n_gen * args.scale)), max(1, round(n_open * args.scale))
        t_gen = generate(kwargs, n_gen, seed=1)
        t_open = open_fully(kwargs, n_open, seed=2, observe=False)
        t_obs = open_fully(kwargs, n_open, seed=2, observe=True)
        t_sys = system_seconds(kwargs, seed=3)
        print(f"{label:18s} {n_gen / t_gen:12.1f} {n_open / t_open:10.2f} {n_open / t_obs:13.2f} "
              f"{1e3 * t_sys:10.2f}", flush=True)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        open_fully({"level": "expert"}, 200, seed=3, observe=True)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
