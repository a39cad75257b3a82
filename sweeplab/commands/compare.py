"""``sweeplab compare``: two agents on the same games, game by game.

Examples::

    sweeplab compare best-v1 best --level expert --games 2000
    sweeplab compare best "best endgame_cells=48 endgame_layouts=1000" --level expert --games 4000 --seed 7

Each agent is a name of ``sweeplab.AGENTS``, optionally followed by options
``KEY=VALUE`` in the same (quoted) argument, values read as by ``sweeplab
sweep --option`` (no spaces inside a value); ``first_move=[3,3]`` (or
``corner``, ``centre``) gives that agent its own first cell::

    sweeplab compare "best first_move=[2,2]" "best first_move=[3,3]" --level expert --first-click zero

Game ``i`` of both is seeded from ``(--seed, i)``: the same boards when both
open at the same cell, so most games end alike and the others measure the
difference.  Under a safe or zero first click, agents opening at different cells
play boards that differ where a first click moved a mine; the first line says so
(the pairing is then looser, the test still valid).  Prints each agent's win rate
with its Wilson 95% interval, then the games only one of them won, the
difference of the second minus the first with Newcombe's paired 95%
interval, and McNemar's exact p-value (``sweeplab.stats.paired_difference``).
"""

from __future__ import annotations

import argparse
import json
import shlex
from pathlib import Path

from ..errors import count_text
from . import add_plugin_argument, plain_text
from .sweep import add_board_arguments, add_run_arguments, grid_from_args, parse_agent, refuse_run_keys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compare", help="two agents on the same games: paired difference and McNemar test",
                       description=plain_text(__doc__), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("first", metavar="A", help="the agent compared against, e.g. best-v1")
    p.add_argument("second", metavar="B", help='the challenger, e.g. best or "best lookahead=10"')
    add_board_arguments(p, lists=False, agent=False)
    add_run_arguments(p, games=1000, per="per agent, the same for both")
    p.add_argument("--out", help="also keep the games in this directory (resumable)")
    add_plugin_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..stats import paired_difference, rate_text
    from ..sweeps import run_sweep, same_games

    specs = (args.first, args.second)
    agents = [parse_agent(text) for text in specs]
    for name, options in agents:
        refuse_run_keys(options, name)
    if agents[0] == agents[1]:
        raise ValueError(f"both agents are {args.first!r}: compare two different agents or option sets")
    board = grid_from_args(args, lists=False)
    if "level" not in board and "shape" not in board:
        raise ValueError("give --level or --shape")
    points = [{**board, **options, "agent": name} for name, options in agents]
    if same_games(*points):
        raise ValueError(f"{args.first!r} and {args.second!r} are the same agent (an option given its "
                         f"default value?): compare two different agents or option sets")
    try:
        results = run_sweep(points, games=args.games, seed=args.seed or 0, out=args.out,
                            chunk_size=args.chunk_size, workers=args.workers, scheduler=args.scheduler,
                            progress=args.progress)
    except ValueError as exc:
        if args.out is not None and _swapped(Path(args.out) / "manifest.json", points):
            raise ValueError(f"{args.out} holds this comparison with A and B swapped: run `sweeplab compare "
                             f"{shlex.quote(args.second)} {shlex.quote(args.first)} ...` to resume it, or "
                             f"choose another --out") from exc
        raise
    games = [results[results["point"] == i].sort_values("game") for i in (0, 1)]
    d = paired_difference(*(g["won"].to_numpy() for g in games))  # both sorted by game: the same games
    # the first click as played (play's default when not given)
    rules = {"first_click": results["first_click"].iloc[0], **board}
    where = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in rules.items())
    firsts = [g["first_move"].to_numpy() for g in games]  # one label per cell opened ("corner" is (0, 0))
    if rules["first_click"] == "none" or (firsts[0] == firsts[1]).all():
        print(f"{where}; the same {d.games} games for both (seed {args.seed or 0})")
    else:  # a safe or zero first click moves the mines under it: elsewhere on one board than the other
        cells = " and ".join(f"({f[0]})" if len(set(f)) == 1 else "(varying)" for f in firsts)
        print(f"{where}; the same {d.games} seeds for both (seed {args.seed or 0}); the first clicks "
              f"differ, {cells}, so the boards differ where a first click moved a mine")
    width = max(map(len, specs))
    for label, text, wins, g in zip("AB", specs, (d.wins_a, d.wins_b), games, strict=True):
        wrong = int(g["wrong_claims"].sum())  # an unsound method's claims that were mines or safe cells
        hit = int((g["wrong_claims"] > 0).sum())
        said = f"; {count_text(wrong, 'wrong claim')} in {count_text(hit, 'game')}" if wrong else ""
        stuck = int((g["status"] == "stuck").sum())  # left with no move: an agent that gives up, or a bug
        said += f"; {count_text(stuck, 'game')} stuck (the agent gave no move)" if stuck else ""
        print(f"{label}  {text:{width}s}  {rate_text(wins, d.games)}{said}")
    print(f"B - A: {d}")
    return 0



def _swapped(manifest: Path, points: list[dict]) -> bool:
    """Whether ``manifest`` records these two points in the other order."""
    try:
        theirs = json.loads(manifest.read_text(encoding="utf-8"))["points"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return isinstance(theirs, list) and theirs == points[::-1]
