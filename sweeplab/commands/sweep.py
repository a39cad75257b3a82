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

A list sweeps over its values, except a single shape (``shape = [9, 9]``),
noise (``noise = ["lost", 0.1]``), first-move cell or chain of methods
(``methods = ["trivial", "rref"]``; ``[["trivial"], ["trivial", "rref"]]``
sweeps two chains); a repeated value is an error.  ``false`` is "none"
for level, shape, mines, density, noise and first_move, and false for
agent options (``use_total = false``; a plugin option's None is JSON's
``null`` or ``--option name=none``).  Agent options
(``--option use_total=no``) read true/false/yes/no/on/off in any case as
booleans, none/null as None, numbers as numbers, JSON lists.

Running the same command again on the same ``--out`` resumes where it stopped;
while a sweep runs, its ``--out`` is locked against other sweeps.
"""

from __future__ import annotations

import argparse
import json
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import close_names
from . import add_plugin_argument, plain_text

#: Parameters a grid may vary, with the parser of one command-line value.
GRID_FLAGS = ("agent", "level", "shape", "mines", "density", "first_click", "mode", "noise", "first_move")


def parse_noise(text: str):
    """``none`` or ``kind:p`` -> ``None`` or ``[kind, p]``."""
    if text.lower() in ("none", "off", "false", ""):
        return None
    kind, sep, p = text.partition(":")
    if not sep:
        raise ValueError(f"noise must be 'none' or 'kind:p' (for example lost:0.1), got {text!r}")
    return [kind, _parse_float(p)]


def parse_shape(text: str) -> list[int]:
    """``16x30`` -> ``[16, 30]``."""
    try:
        h, w = text.lower().split("x")
        return [int(h), int(w)]
    except ValueError:
        raise ValueError(f"a shape is HEIGHTxWIDTH such as 16x30 (a comma separates shapes to sweep), "
                         f"got {text!r}") from None


def parse_first_moves(text: str) -> list:
    """``corner,centre`` -> ``["corner", "centre"]``; ``3,4`` -> ``[[3, 4]]``; ``corner,3,4`` both."""
    tokens = [t.strip() for t in text.split(",")]
    out: list = []
    i = 0
    if any(t.startswith("-") and t[1:].isdigit() for t in tokens):
        raise ValueError(f"a first-move cell's row and column count from 0 (0,0 is the top left corner), "
                         f"got {text!r}")
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


#: Words read as booleans or None in option values, in any case.
WORDS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False,
         "none": None, "null": None}


def parse_value(text: str) -> Any:
    """One option value: a boolean or None word, an int, a float, JSON for a list or object, else a string.

    Examples
    --------
    >>> [parse_value(t) for t in ("False", "YES", "null", "3", "0.5", '["rref", "milp"]', "rref")]
    [False, True, None, 3, 0.5, ['rref', 'milp'], 'rref']
    """
    text = text.strip()
    if text.lower() in WORDS:
        return WORDS[text.lower()]
    for number in (int, float):
        try:
            return number(text)
        except ValueError:
            pass
    if text[:1] in ("[", "{", '"'):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{text!r} is not valid JSON ({exc})") from None
    return text


def parse_option(text: str, *, where: str | None = None, flags: tuple[str, ...] = ()) -> tuple[str, Any]:
    """``key=value`` -> ``(key, value)``, the value read by :func:`parse_value`.

    ``where`` names the option in errors (default ``--option 'text'``); keys of
    :data:`GRID_FLAGS` are refused (they have their own flags) except ``flags``.

    Examples
    --------
    >>> parse_option("use_total=False")
    ('use_total', False)
    """
    where = where or f"--option {text!r}"
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or not key.isidentifier():
        raise ValueError(f"{where}: options look like key=value, for example use_total=false")
    if key in GRID_FLAGS and key not in flags:
        raise ValueError(f"{where}: {key} has its own flag, --{key.replace('_', '-')}")
    try:
        return key, parse_value(value)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def parse_agent(text: str) -> tuple[str, dict[str, Any]]:
    """``"best endgame_cells=48"`` -> ``("best", {"endgame_cells": 48})``.

    Examples
    --------
    >>> parse_agent("best lookahead=10 use_total=no")
    ('best', {'lookahead': 10, 'use_total': False})
    >>> parse_agent("best first_move=[3,3]")
    ('best', {'first_move': [3, 3]})
    """
    if not text.split():
        raise ValueError(f"agent {text!r} is empty: give an agent's name, for example 'best'")
    name, *options = text.split()
    if "=" in name:
        raise ValueError(f"agent {text!r}: start with the agent's name, then options KEY=VALUE, "
                         f"for example 'best lookahead=10'")
    pairs = (parse_option(o, where=f"agent {text!r}", flags=("first_move",)) for o in options)
    return name, once_each(pairs, flag=f"agent {text!r}: option")


def once_each(pairs: Iterable[tuple[str, Any]], *, flag: str) -> dict[str, Any]:
    """``(key, value)`` pairs of a repeatable flag as a dict; ``ValueError`` when a key comes twice (it
    kept the last value silently, where ``--agent "best lookahead=3 lookahead=4"`` was refused).

    Examples
    --------
    >>> once_each([("p", 3), ("p", 5)], flag="--option")
    Traceback (most recent call last):
    ...
    ValueError: --option p is given twice (3, then 5): give each once
    """
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"{flag} {key} is given twice ({out[key]!r}, then {value!r}): give each once")
        out[key] = value
    return out


def refuse_run_keys(options: Iterable[str], agent: str) -> None:
    """Refuse agent options that say how the games run (``workers=2``): they belong to flags.

    Examples
    --------
    >>> refuse_run_keys(["lookahead"], "best")
    >>> refuse_run_keys(["workers"], "best")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: workers is not an agent option but how the games run: give --workers (...)
    """
    from ..sweeps import RUN_KEYS, run_key_flag

    run_level = sorted(set(options) & set(RUN_KEYS))
    if run_level:
        key = run_level[0]
        raise ValueError(f"{key} is not an agent option but how the games run: give {run_key_flag(key)} (the "
                         f"agent's options: sweeplab agents {agent})")


def _parse_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"expected a whole number, got {text!r}") from None


def _parse_float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"expected a number, got {text!r}") from None


_PARSERS = {"shape": parse_shape, "mines": _parse_int, "density": _parse_float, "noise": parse_noise}


def add_board_arguments(p: argparse.ArgumentParser, *, lists: bool, agent: bool = True) -> None:
    """The game and agent flags of ``play`` and ``sweep``; ``compare`` takes them without the agent's."""
    many = " (comma-separated values sweep over each)" if lists else ""
    if agent:
        p.add_argument("--agent", help=f"agent name, see sweeplab.AGENTS{many}" if lists else
                       "agent name, see sweeplab.AGENTS, and options KEY=VALUE in the same quoted argument "
                       "if you like (for example 'best lookahead=10')")
    p.add_argument("--level", help=f"beginner, intermediate or expert{many}")
    p.add_argument("--shape", help=f"custom board HEIGHTxWIDTH, with --mines or --density{many}")
    p.add_argument("--mines", help=f"number of mines on a custom board{many}")
    p.add_argument("--density", help=f"mine density on a custom board{many}")
    p.add_argument("--first-click", dest="first_click", help=f"none, safe or zero (default safe){many}")
    p.add_argument("--mode", help=f"classic or score (default classic){many}")
    p.add_argument("--noise", help=f"clue noise: none or kind:p, kind lost/under/over{many}")
    p.add_argument("--first-move", dest="first_move",
                   help=f"corner, centre, random or ROW,COL (default: the agent's){many}")
    if agent:
        p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help="agent option, repeatable (for example use_total=false; values: true/false/"
                            "yes/no/on/off in any case, none, numbers, JSON lists, else text)")


def add_run_arguments(p: argparse.ArgumentParser, *, games: int | None, per: str = "per grid point") -> None:
    """Games (``per`` says of what), seed, output and executor flags."""
    default = f"default {games}" if games else "or games in the config"
    p.add_argument("--games", type=int, default=games, help=f"games {per} ({default})")
    p.add_argument("--seed", type=int, default=None,
                   help="root seed (default 0: every run plays the same games; give another seed for new "
                   "games, never pool two runs of one seed)")
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
        flag = f"--{key.replace('_', '-')}"
        try:
            if key == "first_move":
                values = parse_first_moves(text)
            elif key == "agent" and not lists:  # one agent, options and all: "best first_move=[2,2]"
                values = [text.strip()]
            else:
                parse = _PARSERS.get(key, str)
                values = [parse(v.strip()) for v in text.split(",")]
        except ValueError as exc:
            raise ValueError(f"{flag} {text!r}: {exc}") from None
        if not lists and len(values) != 1:
            raise ValueError(f"{flag} {text!r}: give one value here (sweeplab sweep takes lists)")
        grid[key] = values if lists else values[0]
    if not lists and "shape" in grid and "level" in grid:
        raise ValueError("give --level or --shape, not both (a level is a shape and its mines)")
    if not lists and "shape" in grid and ("mines" in grid) == ("density" in grid):
        raise ValueError("--shape takes exactly one of --mines or --density "
                         "(for example --shape 5x5 --mines 3)")
    for key, value in once_each(map(parse_option, getattr(args, "option", ())), flag="--option").items():
        grid[key] = [value] if lists and isinstance(value, list) else value  # one value, not a list to sweep
    return grid


#: Top-level keys of a sweep config file.
CONFIG_KEYS = ("games", "seed", "out", "chunk_size", "grid")


#: Grid keys for which a config's ``false`` means None (TOML has no null); an agent option's stays False.
NONE_AS_FALSE = ("level", "shape", "mines", "density", "noise", "first_move")


def _config_value(key: str, value: Any) -> Any:
    """A config grid value: ``false`` read as None for :data:`NONE_AS_FALSE`, strings of shapes and
    noise parsed."""
    if value is False and key in NONE_AS_FALSE:
        return None
    if key in ("shape", "noise") and isinstance(value, str):
        return _PARSERS[key](value)
    return value


def load_config(path: str) -> dict[str, Any]:
    """A sweep config from TOML or JSON (``false`` stands for "none" of :data:`NONE_AS_FALSE`).

    Raises ``OSError`` for a file that cannot be read and ``ValueError``,
    naming the file and key, for malformed content.
    """
    file = Path(path)
    if file.is_dir():
        raise ValueError(f"config {path}: is a directory; give a TOML or JSON file")
    try:
        text = file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"config {path}: not UTF-8 text ({exc.reason})") from None
    try:
        config = tomllib.loads(text) if file.suffix.lower() == ".toml" else json.loads(text)
    except ValueError as exc:  # tomllib.TOMLDecodeError and json.JSONDecodeError
        kind = "TOML" if file.suffix.lower() == ".toml" else "JSON (or give a .toml file)"
        raise ValueError(f"config {path}: not valid {kind}: {exc}") from None
    if not isinstance(config, dict):
        raise ValueError(f"config {path}: a sweep config is a table of {', '.join(CONFIG_KEYS)}")
    unknown = sorted(set(config) - set(CONFIG_KEYS))
    if unknown:
        close = close_names(unknown, CONFIG_KEYS)
        meant = f" (did you mean {', '.join(map(repr, close))}?)" if close else ""
        raise ValueError(f"config {path}: unknown key(s) {', '.join(map(repr, unknown))}{meant}; a sweep "
                         f"config holds {', '.join(CONFIG_KEYS)}, and the swept parameters (agent, level, "
                         f"...) go in its [grid] table")
    grid = config.get("grid")
    if not isinstance(grid, dict):
        raise ValueError(f"config {path}: a sweep config needs a [grid] table of parameters")
    from ..sweeps import RUN_KEYS  # the config's own top-level keys, and the run's command-line flags

    run_level = sorted(set(grid) & set(RUN_KEYS))
    if run_level:
        raise ValueError(f"config {path}: [grid] holds {', '.join(map(repr, run_level))}, which belong to "
                         f"the whole run: put them at the top level (games, seed, out, chunk_size) or give "
                         f"them on the command line (--workers, --scheduler, --no-progress)")
    for key in ("games", "chunk_size"):
        value = config.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(f"config {path}: {key} must be a positive integer, got {value!r}")
    seed = config.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(f"config {path}: seed must be a non-negative integer, got {seed!r}")
    if config.get("out") is not None and not isinstance(config["out"], str):
        raise ValueError(f"config {path}: out must be a directory name (a string), got {config['out']!r}")
    from ..sweeps import is_single_value

    try:
        for key, value in grid.items():
            if isinstance(value, list) and not is_single_value(key, value):
                grid[key] = [_config_value(key, v) for v in value]
            else:
                grid[key] = _config_value(key, value)
    except ValueError as exc:
        raise ValueError(f"config {path}: [grid] {key}: {exc}") from None
    return config


def _grid_keys(grid: dict, wanted: list[str]) -> str:
    """What the [grid] has instead, for a message: its keys, and those that look like a misspelling."""
    if not grid:
        return ""
    typos = [k for k in sorted(grid) if close_names([k], wanted, cutoff=0.6)]
    meant = f": is {' or '.join(map(repr, typos))} a misspelling?" if typos else ""
    return f"; it has {', '.join(sorted(grid))}{meant}"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sweep", help="play agents over a grid of parameters, resumable, locally or on Dask",
        description=plain_text(__doc__), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("config", nargs="?", help="TOML or JSON file with games, seed, out and a [grid] table")
    p.add_argument("--config", dest="config_flag", metavar="CONFIG", help="the same, as a flag")
    p.add_argument("--out", help="output directory (manifest.json + Parquet chunks); rerun to resume")
    add_board_arguments(p, lists=True)
    add_run_arguments(p, games=None)
    add_plugin_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..stats import format_summary, summarize
    from ..sweeps import expand_grid, run_sweep

    path = args.config or args.config_flag
    if args.config and args.config_flag:
        raise ValueError(f"give the config once, as CONFIG or --config, not both ({args.config}, "
                         f"{args.config_flag})")
    config = load_config(path) if path else {"grid": {}}
    grid = {**config["grid"], **grid_from_args(args, lists=True)}
    if "agent" not in grid:
        raise ValueError(f"give --agent (or an agent in the config's [grid]{_grid_keys(grid, ['agent'])})")
    if "level" not in grid and "shape" not in grid:
        raise ValueError(f"give --level or --shape (or one in the config's [grid]"
                         f"{_grid_keys(grid, ['level', 'shape'])})")
    games = args.games if args.games is not None else config.get("games")
    out = args.out or config.get("out")
    if games is None:
        raise ValueError("give --games (or games in the config)")
    if not out:
        raise ValueError("give --out (or out in the config): the directory results are written to")
    args.out = out  # where a stopped sweep's chunks are kept, for the message on Ctrl-C
    seed = args.seed if args.seed is not None else config.get("seed", 0)
    chunk_size = args.chunk_size if args.chunk_size is not None else config.get("chunk_size")
    results = run_sweep(expand_grid(grid), games=games, seed=seed, out=out, chunk_size=chunk_size,
                        workers=args.workers, scheduler=args.scheduler, progress=args.progress)
    print(format_summary(summarize(results)))
    print(f"\n{len(results)} games in {out}")
    return 0
