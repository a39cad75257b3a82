"""``sweeplab sweep``: a grid of parameters x games, resumable, on every core or a Dask cluster.

Give the grid as flags (comma-separated values) or a TOML/JSON config file::

    games = 1000
    seed = 0
    out = "sweeps/first-click"
    [grid]
    agent = ["trivial", "csp", "best"]
    level = "intermediate"
    first_click = ["none", "safe", "zero"]
    noise = [false, ["lost", 0.1]]      # false: no noise

Running the same command again on the same ``--out`` resumes where it stopped.
"""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path
from typing import Any

#: Parameters a grid may vary, with the parser of one command-line value.
GRID_FLAGS = ("agent", "level", "shape", "mines", "density", "first_click", "mode", "noise", "first_move")


def parse_noise(text: str):
    """``none`` or ``kind:p`` -> ``None`` or ``[kind, p]``."""
    if text.lower() in ("none", "off", "false", ""):
        return None
    kind, sep, p = text.partition(":")
    if not sep:
        raise ValueError(f"noise must be 'none' or 'kind:p' (for example lost:0.1), got {text!r}")
    return [kind, float(p)]


def parse_shape(text: str) -> list[int]:
    """``16x30`` -> ``[16, 30]``."""
    try:
        h, w = text.lower().split("x")
        return [int(h), int(w)]
    except ValueError:
        raise ValueError(f"shape must look like 16x30, got {text!r}") from None


def parse_first_moves(text: str) -> list:
    """``corner,centre`` -> ``["corner", "centre"]``; ``3,4`` -> ``[[3, 4]]``; ``corner,3,4`` both."""
    tokens = [t.strip() for t in text.split(",")]
    out: list = []
    i = 0
    while i < len(tokens):
        if tokens[i].isdigit():
            if i + 1 >= len(tokens) or not tokens[i + 1].isdigit():
                raise ValueError(f"a first-move cell is ROW,COL, got {text!r}")
            out.append([int(tokens[i]), int(tokens[i + 1])])
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value``, the value read as JSON when it parses (``use_total=false``, ``methods=["rref"]``)."""
    key, sep, value = text.partition("=")
    if not sep:
        raise ValueError(f"agent options look like key=value, got {text!r}")
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value


_PARSERS = {"shape": parse_shape, "mines": int, "density": float, "noise": parse_noise}


def add_board_arguments(p: argparse.ArgumentParser, *, lists: bool) -> None:
    """The game and agent flags shared by ``play`` and ``sweep``."""
    many = " (comma-separated values sweep over each)" if lists else ""
    p.add_argument("--agent", help=f"agent name, see sweeplab.AGENTS{many}")
    p.add_argument("--level", help=f"beginner, intermediate or expert{many}")
    p.add_argument("--shape", help=f"custom board HEIGHTxWIDTH, with --mines or --density{many}")
    p.add_argument("--mines", help=f"number of mines on a custom board{many}")
    p.add_argument("--density", help=f"mine density on a custom board{many}")
    p.add_argument("--first-click", dest="first_click", help=f"none, safe or zero (default safe){many}")
    p.add_argument("--mode", help=f"classic or score (default classic){many}")
    p.add_argument("--noise", help=f"clue noise: none or kind:p, kind lost/under/over{many}")
    p.add_argument("--first-move", dest="first_move",
                   help=f"corner, centre, random or ROW,COL (default: the agent's){many}")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="agent option, repeatable (for example use_total=false)")


def add_run_arguments(p: argparse.ArgumentParser, *, games: int | None) -> None:
    """Games, seed, output and executor flags."""
    default = f"default {games}" if games else "or games in the config"
    p.add_argument("--games", type=int, default=games, help=f"games per grid point ({default})")
    p.add_argument("--seed", type=int, default=None, help="root seed (default 0)")
    p.add_argument("--workers", type=int, default=None, help="local processes (default: every core)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on a Dask distributed scheduler, for example tcp://10.0.0.1:8786")
    p.add_argument("--chunk-size", dest="chunk_size", type=int, default=None, help="games per result chunk")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="hide the progress bar")


def grid_from_args(args: argparse.Namespace, *, lists: bool) -> dict[str, Any]:
    """The parameter grid the flags describe."""
    grid: dict[str, Any] = {}
    for key in GRID_FLAGS:
        text = getattr(args, key, None)
        if text is None:
            continue
        if key == "first_move":
            values = parse_first_moves(text)
        else:
            parse = _PARSERS.get(key, str)
            values = [parse(v.strip()) for v in text.split(",")]
        grid[key] = values if lists else values[0]
    for text in args.option:
        key, value = parse_option(text)
        grid[key] = value
    return grid


def load_config(path: str) -> dict[str, Any]:
    """A sweep config from TOML or JSON (``false`` stands for "none" in value lists)."""
    file = Path(path)
    text = file.read_text()
    config = tomllib.loads(text) if file.suffix.lower() == ".toml" else json.loads(text)
    grid = config.get("grid")
    if not isinstance(grid, dict):
        raise ValueError(f"{path}: a sweep config needs a [grid] table of parameters")
    for key, value in grid.items():
        if isinstance(value, list):
            grid[key] = [None if v is False else v for v in value]
        elif value is False:
            grid[key] = None
    return config


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sweep", help="play agents over a grid of parameters, resumable, locally or on Dask",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("config", nargs="?", help="TOML or JSON file with games, seed, out and a [grid] table")
    p.add_argument("--config", dest="config_flag", metavar="CONFIG", help="the same, as a flag")
    p.add_argument("--out", help="output directory (manifest.json + Parquet chunks); rerun to resume")
    add_board_arguments(p, lists=True)
    add_run_arguments(p, games=None)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..stats import format_summary, summarize
    from ..sweeps import expand_grid, run_sweep

    path = args.config or args.config_flag
    config = load_config(path) if path else {"grid": {}}
    grid = {**config["grid"], **grid_from_args(args, lists=True)}
    if "agent" not in grid:
        raise ValueError("give --agent (or an agent in the config's [grid])")
    if "level" not in grid and "shape" not in grid:
        raise ValueError("give --level or --shape (or one in the config's [grid])")
    games = args.games or config.get("games")
    out = args.out or config.get("out")
    if not games:
        raise ValueError("give --games (or games in the config)")
    if not out:
        raise ValueError("give --out (or out in the config): the directory results are written to")
    seed = args.seed if args.seed is not None else int(config.get("seed", 0))
    results = run_sweep(expand_grid(grid), games=int(games), seed=seed, out=out,
                        chunk_size=args.chunk_size or config.get("chunk_size"), workers=args.workers,
                        scheduler=args.scheduler, progress=args.progress)
    print(format_summary(summarize(results)))
    print(f"\n{len(results)} games in {out}")
    return 0
