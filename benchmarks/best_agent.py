"""The ``best`` agent against ``best-v1`` on the same games: loss causes, win rates, speed (issue 13).

Seeds.  This script plays root seed 2026 by default (games from ``--start``),
the games of notebook 11's loss tables.  Which seeds tuned ``best`` and which
evaluated it is listed once, at the end of :mod:`sweeplab.agents.best`'s
docstring ("Seeds").  Both agents play the same games (same board and agent
seeds), so the difference is measured in one run; ``+n/-m`` counts the games
only the new agent won / only the old one won, with the paired interval and
McNemar's test of :func:`sweeplab.stats.paired_difference` (``sweeplab
compare`` does the same from the shell, on every core).

Run::

    .venv/bin/python benchmarks/best_agent.py                       # 2,000 expert games, safe corner
    .venv/bin/python benchmarks/best_agent.py --games 5000 --first-click zero
    .venv/bin/python benchmarks/best_agent.py --level intermediate --no-losses

Prints, per agent: the loss causes (:mod:`sweeplab.losses`) as counts and
shares of the lost games and per 100 games, the win rate with its Wilson 95%
interval, and games per CPU second (this process, one core).
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

import sweeplab
from sweeplab.losses import loss_table, play_losses
from sweeplab.stats import paired_difference, rate_text

#: Root seed of the games played by default (notebook 11's loss tables; which seeds tuned ``best``:
#: "Seeds" in :mod:`sweeplab.agents.best`).
DEFAULT_SEED = 2026


def win_line(name: str, won: pd.Series) -> str:
    """``name: 41.23% [40.1, 42.3] (k/n)`` with the Wilson 95% interval."""
    return f"{name:8s} {rate_text(int(won.sum()), len(won))}"


def speed(agent: str, level: str, games: int, seed: int, first_click: str) -> float:
    """Games per CPU second of ``sweeplab.play`` in this process (after two warm-up games)."""
    sweeplab.play(agent, level=level, games=2, seed=1, first_click=first_click)
    cpu = time.process_time()
    sweeplab.play(agent, level=level, games=games, seed=seed, first_click=first_click)
    return games / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", default="best-v1,best",
                        help="comma-separated agents (default: best-v1,best)")
    parser.add_argument("--level", default="expert")
    parser.add_argument("--first-click", default="safe", choices=("safe", "zero", "none"))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--start", type=int, default=0, help="index of the first game")
    parser.add_argument("--speed-games", type=int, default=200, help="games timed for games per CPU second")
    parser.add_argument("--no-losses", action="store_true", help="win rates only (sweeplab.play)")
    args = parser.parse_args()
    agents = args.agents.split(",")
    print(f"{args.level}, first click {args.first_click}, seed {args.seed}, games "
          f"{args.start}..{args.start + args.games - 1}")
    results = {}
    for agent in agents:
        if args.no_losses:
            results[agent] = sweeplab.play(agent, level=args.level, games=args.games, seed=args.seed,
                                           start=args.start, first_click=args.first_click)
        else:
            results[agent] = play_losses(agent, level=args.level, games=args.games, seed=args.seed,
                                         start=args.start, first_click=args.first_click)
    if not args.no_losses:
        for by in ("cause", "place"):
            table = pd.concat({a: loss_table(df, by=by) for a, df in results.items()}, axis=1).fillna(0)
            print(f"\nlost games by {by}:")
            print(table.to_string())
    print("\nwin rate, Wilson 95%:")
    first = results[agents[0]]["won"]
    for agent, df in results.items():
        print(win_line(agent, df["won"]))
    for agent in agents[1:]:
        print(f"{agent} - {agents[0]}: {paired_difference(first, results[agent]['won'])}")
    if args.speed_games:
        print("\ngames per CPU second:")
        for agent in agents:
            rate = speed(agent, args.level, args.speed_games, 0, args.first_click)
            print(f"{agent:8s} {rate:7.1f}  ({args.speed_games} games, seed 0)")


if __name__ == "__main__":
    main()
