"""``sweeplab play``: play one agent on one kind of board and print its win rate.

Example: ``sweeplab play --agent best --level expert --games 1000 --first-click safe``; agent
options go in ``--option KEY=VALUE`` or after the name (``--agent "best lookahead=10"``).
Uses every core (``--workers``), or a Dask cluster (``--scheduler``); with
``--out`` the games are kept as a resumable sweep directory.
"""

from __future__ import annotations

import argparse

from ..errors import count_text
from . import add_plugin_argument, plain_text
from .sweep import (
    GRID_FLAGS,
    add_board_arguments,
    add_run_arguments,
    grid_from_args,
    parse_agent,
    refuse_run_keys,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play an agent and print its win rate with a Wilson 95%% interval",
                       description=plain_text(__doc__))
    add_board_arguments(p, lists=False)
    add_run_arguments(p, games=1000, per="to play")
    p.add_argument("--out", help="also keep the games in this directory (resumable)")
    add_plugin_argument(p)
    p.set_defaults(func=run, agent="best")


def rules_text(row) -> str:
    """The board and rules a row of games was played by, which the table leaves out when they are fixed.

    Examples
    --------
    >>> rules_text({"level": None, "height": 5, "width": 6, "mines": 7, "first_click": "zero",
    ...             "mode": "score", "noise": "under", "noise_p": 0.3})
    '5x6, 7 mines; first click zero; score mode; clue noise under, p = 0.3'
    >>> rules_text({"level": None, "height": 5, "width": 5, "mines": 1, "first_click": "safe",
    ...             "mode": "classic", "noise": None, "noise_p": 0.0}).split(";")[0]
    '5x5, 1 mine'
    """
    level = row["level"]
    board = (level if isinstance(level, str)
             else f"{row['height']}x{row['width']}, {count_text(int(row['mines']), 'mine')}")
    noise = row["noise"]
    said = f"clue noise {noise}, p = {row['noise_p']:g}" if isinstance(noise, str) else "no clue noise"
    return f"{board}; first click {row['first_click']}; {row['mode']} mode; {said}"


def run(args: argparse.Namespace) -> int:
    from ..stats import format_summary, summarize
    from ..sweeps import run_sweep

    point = grid_from_args(args, lists=False)
    name, options = parse_agent(point["agent"])  # "best lookahead=10", as sweeplab compare takes it
    refuse_run_keys(set(options) | set(point), name)  # --option workers=2 too
    twice = sorted(options.keys() & point.keys())
    if twice:
        flags = sorted({f"--{k.replace('_', '-')}" if k in GRID_FLAGS else "--option" for k in twice})
        raise ValueError(f"--agent {point['agent']!r} and {' and '.join(flags)} both give "
                         f"{', '.join(twice)}: give each once")
    point = {**point, **options, "agent": name}
    if "level" not in point and "shape" not in point:
        raise ValueError("give --level or --shape")
    results = run_sweep([point], games=args.games, seed=args.seed or 0, out=args.out,
                        chunk_size=args.chunk_size, workers=args.workers, scheduler=args.scheduler,
                        progress=args.progress)
    from ..provenance import made_by_text

    print(format_summary(summarize(results)))
    games = f"seed {args.seed or 0}, games 0..{args.games - 1}"
    print(f"{rules_text(results.iloc[0])}; {games}; {made_by_text()}")
    return 0
