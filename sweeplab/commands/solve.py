"""``sweeplab solve``: what each deduction method proves on a position, and the exact probabilities.

Reads a position in the text form of SPEC §1 (or a ``sweeplab.position`` JSON
document) from a file or standard input, and prints, for the chosen methods,
the grid with ``S`` on every cell the method proves safe and ``M`` on every
cell it proves a mine, with counts and milliseconds; ``--probabilities`` adds
the exact mine probability of every covered cell (:func:`sweeplab.probabilities`);
``--win-rates N`` plays each move on N layouts drawn from the position
(:func:`sweeplab.rollouts.move_win_rates`).

Example::

    $ printf '???\\n121\\n' | sweeplab solve - --all --mines 2 --probabilities
    $ printf '??\\n11\\n..\\n' | sweeplab solve - --mines 1 --win-rates 200 --move 0,0 --move 0,1
    $ printf '???\\n121\\n' | sweeplab solve - --method gfp --option p=3
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import re
import sys
from typing import TYPE_CHECKING, Any

import numpy as np

from ..positions import COVERED, NOISE_KINDS, Observation
from . import add_plugin_argument

if TYPE_CHECKING:
    from ..agents.base import Agent

#: A tiny position each method runs on once before it is timed (imports, compiled kernels).
_WARM_UP = Observation.from_text("??\n11", mines=1)

__all__ = ["register", "run", "read_position", "overlay", "probability_grid", "solve_report",
           "win_rate_report"]


#: Method options ``sweeplab solve`` takes by a flag of their own, not ``--option``.
OWN_FLAGS = {"time_limit": "--time-limit SECONDS", "use_total": "--no-total", "proofs": "--explain",
             "probabilities": "--probabilities"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "solve",
        help="analyse a position: each method's deductions and the exact probabilities",
        description="Print the cells each deduction method proves safe (S) or mined (M) on a position, "
        "with timings, and optionally the exact mine probabilities. Exits 1 when no layout fits the "
        "position or a method showed a bug (an exception, or a registered sound method's claim that a "
        "complete method in the same run refutes; the output says which), 2 on bad input.",
    )
    p.add_argument("file", metavar="FILE|-",
                   help="text position (SPEC §1) or sweeplab.position JSON; - for stdin")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--method", "-m", default="enumerate", help="deduction method (default: enumerate)")
    group.add_argument("--all", action="store_true", help="run every method of sweeplab.METHODS")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of --method (repeatable), e.g. --method gfp --option p=3; "
                   "sweeplab methods NAME lists them")
    p.add_argument("--mines", type=int, default=None,
                   help="total number of mines on the board (replaces a JSON position's own)")
    p.add_argument("--no-total", action="store_true", help="ignore the total number of mines")
    p.add_argument("--noise", choices=NOISE_KINDS, default=None,
                   help="clue-noise model of the numbers (under: lower bounds, over: upper bounds; "
                   "replaces a JSON position's own)")
    p.add_argument("--probabilities", "-p", action="store_true", help="print the exact mine probabilities")
    p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                   help="time budget per method (methods that take time_limit refuse past it), for the "
                        "probabilities of -p, and, with --explain, for its proof search (claims not proved "
                        "by then say so)")
    p.add_argument("--explain", "-e", action="store_true",
                   help="print a checkable proof of every deduced cell, in words (SPEC §6)")
    p.add_argument("--win-rates", type=int, default=None, metavar="LAYOUTS",
                   help="play each move (--move, default: the safest cells) on this many layouts drawn "
                   "exactly from the position, an agent finishing (sweeplab.rollouts.move_win_rates); "
                   "needs --mines")
    p.add_argument("--move", action="append", default=None, metavar="ROW,COL",
                   help="a move for --win-rates (repeat for several)")
    p.add_argument("--agent", default=None,
                   help="the agent that finishes the games of --win-rates, with options as play takes it "
                   "('best lookahead=10'; default best)")
    p.add_argument("--seed", type=int, default=None, help="seed of --win-rates (default 0)")
    p.add_argument("--workers", type=int, default=None,
                   help="processes for --win-rates (the same table for any number; default 1)")
    add_plugin_argument(p)
    p.set_defaults(func=run)


def read_position(source: str, *, mines: int | None = None, noise: str | None = None) -> Observation:
    """A position from a path (or ``"-"`` for stdin): JSON if it starts with ``{``, else the text form.

    A UTF-8 byte-order mark is accepted.

    Raises
    ------
    OSError
        A missing or unreadable file (a directory, no permission), naming it.
    ValueError
        Text that is not UTF-8, not a position, or a bad ``mines``/``noise``; the
        message starts with the file name.
    """
    from ..files import parse_json, position_from_dict, read_text

    where = "<stdin>" if source == "-" else str(source)
    if source == "-":
        try:
            text = sys.stdin.read()
        except UnicodeDecodeError as exc:
            raise ValueError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    else:
        text = read_text(source)
    text = text.removeprefix("\ufeff")
    try:
        if text.lstrip().startswith("{"):
            obs = position_from_dict(parse_json(text, where))
            if noise is not None:
                obs = Observation(obs.grid, mines=obs.mines, noise=noise)
        else:
            obs = Observation.from_text(text, noise=noise)
        return obs if mines is None else obs.with_mines(mines)
    except ValueError as exc:
        message = str(exc)
        raise ValueError(message if message.startswith(f"{where}: ") else f"{where}: {message}") from None


def overlay(obs: Observation, safe, mines) -> str:
    """The text grid with ``S`` on proved-safe and ``M`` on proved-mine cells.

    Examples
    --------
    >>> print(overlay(Observation.from_text("???\\n121"), {(0, 1)}, {(0, 0), (0, 2)}))
    MSM
    121
    """
    rows = [list(line) for line in obs.to_text().splitlines()]
    for r, c in safe:
        rows[r][c] = "S"
    for r, c in mines:
        rows[r][c] = "M"
    return "\n".join("".join(row) for row in rows)


def probability_grid(obs: Observation, probs: np.ndarray) -> str:
    """Mine probabilities of covered cells (``S``/``M`` when forced), the other cells as in the text form.

    Examples
    --------
    >>> obs = Observation.from_text("??\\n11\\n..", mines=1)
    >>> print(probability_grid(obs, np.array([[0.5, 0.5], [np.nan] * 2, [np.nan] * 2])))
    0.500 0.500
        1     1
        .     .
    >>> print(probability_grid(obs, np.array([[2e-7, 1 - 2e-7], [np.nan] * 2, [np.nan] * 2])).splitlines()[0])
    <.001 >.999
    """
    text = obs.to_text().splitlines()
    lines = []
    for r, row in enumerate(text):
        cells = []
        for c, ch in enumerate(row):
            if obs.grid[r, c] == COVERED:
                p = float(probs[r, c])
                ch = ("S" if p == 0.0 else "M" if p == 1.0 else "<.001" if p < 0.0005
                      else ">.999" if p >= 0.9995 else f"{p:.3f}")  # a risk never prints as 0.000 or 1.000
            cells.append(f"{ch:>5}")
        lines.append(" ".join(cells))
    return "\n".join(lines)


def solve_report(obs: Observation, methods: list[str], *, use_total: bool = True,
                 probabilities: bool = False, explain: bool = False, time_limit: float | None = None,
                 options: dict[str, Any] | None = None) -> str:
    """The text ``sweeplab solve`` prints.

    Each method first runs once, untimed, on a tiny position (``_WARM_UP``),
    so first-call costs (imports, compilation caches) do not show in the
    milliseconds of the timed run on ``obs``.  ``options`` go to every method (give them
    with one method).

    Examples
    --------
    >>> print(solve_report(Observation.from_text("???\\n121"), ["enumerate"]), end="")
    position 2x3: 3 covered cells, 0 known mines, total unknown
    <BLANKLINE>
    == enumerate (sound, complete): 1 safe, 2 mines, ... ms
    MSM
    121
    """
    return _report(obs, methods, use_total=use_total, probabilities=probabilities, explain=explain,
                   time_limit=time_limit, options=options)[0]


def _report(
    obs: Observation, methods: list[str], *, use_total: bool, probabilities: bool, explain: bool = False,
    time_limit: float | None = None, options: dict[str, Any] | None = None,
) -> tuple[str, bool, list[str]]:
    """The text, whether the position is consistent, and the methods that showed a bug (an exception, a
    claim or an inconsistency a complete method refutes)."""
    from .. import METHODS, deduce
    from ..errors import InconsistentPositionError, MethodBugError, MethodRefused, count_text, mines_text
    from ..methods import method_use_total, required_options
    from ..probability import probabilities as exact_probabilities

    covered = int(np.count_nonzero(obs.grid == COVERED))
    total = "unknown" if obs.mines is None else str(obs.mines)
    known = mines_text(obs.known_mines).replace("mine", "known mine")  # "1 known mine", "2 known mines"
    cells = count_text(covered, "covered cell")
    head = (f"position {obs.shape[0]}x{obs.shape[1]}: {cells}, {known}, total {total}"
            + ("" if use_total else " (ignored)") + (f", noise {obs.noise}" if obs.noise else ""))
    out = [head, ""]
    summary = []
    consistent = True
    failed: list[str] = []
    claims: dict[str, Any] = {}
    for name in methods:
        info = METHODS[name]
        tag = ("sound" if info.sound else "UNSOUND") + (", complete" if info.complete else "")
        timed = time_limit is not None and "time_limit" in info.options
        needs = [o for o in required_options(info.function) if o not in {*(options or {}), "use_total"}]
        if needs:  # only with --all: one --method is checked before the position is read
            out += [f"== {name} ({tag}): skipped: it needs the option {needs[0]!r} (it has no default): "
                    f"sweeplab solve --method {name} --option {needs[0]}=VALUE", ""]
            summary.append(f"{name:16s} {'skipped':>12s}")
            continue
        budget: dict[str, Any] = {**(options or {}), **({"time_limit": time_limit} if timed else {})}
        with contextlib.suppress(Exception):  # imports and compiled kernels, outside the timed call
            deduce(_WARM_UP, name, use_total=use_total, **budget)
        try:
            d = deduce(obs, name, use_total=use_total, proofs=explain, proof_time_limit=time_limit, **budget)
        except InconsistentPositionError as exc:
            if not info.builtin and _fits_after_all(obs, method_use_total(name, use_total)):
                failed.append(name)  # a researcher's method said so: enumeration checks it
                out += [f"== {name} ({tag}): ERROR (a bug in the method): it says no layout fits ({exc}), "
                        f"but exact enumeration finds one", ""]
                summary.append(f"{name:16s} {'error':>12s}")
                continue
            consistent = False
            out += [f"== {name} ({tag}): inconsistent position: {exc}", ""]
            summary.append(f"{name:16s} {'inconsistent':>12s}")
            continue
        except MethodRefused as exc:
            out += [f"== {name} ({tag}): refused: {_on_the_command_line(str(exc), name)}", ""]
            summary.append(f"{name:16s} {'refused':>12s}")
            continue
        except Exception as exc:  # noqa: BLE001 - a bug in the method: shown, the others still run
            failed.append(name)
            said = (f"ERROR: {exc}" if isinstance(exc, MethodBugError)  # it says "a bug in the method"
                    else f"ERROR (a bug in the method): {type(exc).__name__}: {exc}")
            out += [f"== {name} ({tag}): {said}", ""]
            summary.append(f"{name:16s} {'error':>12s}")
            continue
        ms = d.seconds * 1000
        claims[name] = d
        out += [f"== {name} ({tag}): {len(d.safe)} safe, {mines_text(len(d.mines))}, {ms:.2f} ms",
                overlay(obs, d.safe, d.mines), ""]
        if explain:
            out += _explanations(obs, d)
        summary.append(f"{name:16s} {len(d.safe):5d} {len(d.mines):6d} {ms:10.2f}")
    out += _unforced_claims(claims, failed, use_total=use_total)
    if len(methods) > 1:
        out += [f"{'method':16s} {'safe':>5s} {'mines':>6s} {'ms':>10s}", *summary, ""]
    if probabilities:
        try:
            limit: dict[str, Any] = {} if time_limit is None else {"time_limit": time_limit}
            probs = exact_probabilities(obs, use_total=use_total, **limit)
        except InconsistentPositionError as exc:
            consistent = False
            out += [f"probabilities: inconsistent position: {exc}"]
        except MethodRefused as exc:  # too large to count: said as a method's refusal, the report kept
            out += [f"probabilities: refused: {_on_the_command_line(str(exc), None)}"]
        else:
            out += ["exact mine probabilities (S/M: forced):", probability_grid(obs, probs)]
    return "\n".join(out).rstrip() + "\n", consistent, failed


def _unforced_claims(claims: dict[str, Any], failed: list[str], *, use_total: bool) -> list[str]:
    """Lines naming each method registered sound whose claims a built-in complete method among ``claims``
    (the same position and total) shows are not forced: a bug in it (SPEC §4), added to ``failed``.  A
    method that fixes ``use_total=True`` (a partial) is left out of a run without the total: the total
    forces more (one that fixes ``False`` is held to the run's: what no total forces, the total does)."""
    from ..dominance import unforced_claims
    from ..methods import method_use_total

    # one that used the total where this run does not: more is forced for it
    held = {name: (d.safe, d.mines) for name, d in claims.items()
            if use_total or not method_use_total(name, use_total)}
    exact, unforced = unforced_claims(held)
    lines = []
    for name, wrong in unforced.items():
        failed.append(name)
        lines += [f"== {name}: WRONG: it is registered sound, but {exact} shows that {wrong} "
                  f"{'is' if len(wrong) == 1 else 'are'} not forced as claimed: a bug in the method", ""]
    return lines


def _fits_after_all(obs: Observation, use_total: bool) -> bool:
    """Whether exact enumeration finds a layout of ``obs`` (within its node and memory budgets)."""
    from ..errors import InconsistentPositionError
    from ..methods._consistency import has_layout

    try:
        return has_layout(obs, use_total=use_total, time_limit=None) is True
    except InconsistentPositionError:
        return False


def _on_the_command_line(message: str, method: str | None) -> str:
    """A refusal's advice to raise an option, with the flags that set it here (``method=None``: the
    probabilities of ``--probabilities``, whose budget no flag sets).

    >>> _on_the_command_line("... raise the option time_limit (seconds, or None for no limit)", "lp")
    '... raise the option time_limit (seconds, or None for no limit; here --time-limit SECONDS)'
    >>> _on_the_command_line("... raise the option max_bytes (bytes, or None)", "rref")
    '... raise the option max_bytes (bytes, or None; here --method rref --option max_bytes=BYTES)'
    """
    flags = {"time_limit": "--time-limit SECONDS",
             "max_bytes": f"--method {method} --option max_bytes=BYTES" if method else
             "from Python only, sweeplab.probabilities(obs, max_bytes=BYTES)"}
    for option, flag in flags.items():
        message = re.sub(rf"(raise the option {option} \([^)]*)\)", rf"\1; here {flag})", message)
    return message


def _explanations(obs: Observation, d) -> list[str]:
    """Each claimed cell's proof in words (SPEC §6), or why there is none."""
    lines = []
    for cell in sorted(d.cells):
        proof = d.proofs.get(cell)
        if proof is None:
            lines += [f"({cell[0]},{cell[1]}): no proof: {d.unproved_reason(cell, obs)}", ""]
            continue
        size = proof.size
        lines += [f"-- proof {size.steps} step(s), {size.rows} row(s):", proof.explain(obs), ""]
    return lines


def run(args: argparse.Namespace) -> int:
    from .. import METHODS, deduce
    from ..errors import InconsistentPositionError, MethodBugError, MethodRefused, unknown_choice
    from .sweep import GRID_FLAGS, once_each, parse_option

    if not args.all and args.method not in METHODS:
        raise ValueError(unknown_choice("method", args.method, METHODS))
    pairs = (parse_option(text, where=f"--option {text!r}", flags=GRID_FLAGS) for text in args.option)
    options = once_each(pairs, flag="--option")
    if options and args.all:
        raise ValueError("--option goes with one --method (methods take different options), not --all")
    taken = sorted(OWN_FLAGS.keys() & options.keys())
    if taken:
        raise ValueError(f"{taken[0]} has its own flag, {OWN_FLAGS[taken[0]]}")
    # deduce's own arguments (obs, method, check_consistency) are no method's options; the rest
    # deduce checks itself, in the call below
    theirs = sorted(options.keys() & set(inspect.signature(deduce).parameters))
    if theirs:
        raise ValueError(f"method {args.method!r} has no option {theirs[0]!r}; its options: "
                         f"{list(METHODS[args.method].options)} (sweeplab methods {args.method})")
    if not args.all:  # a misspelt, missing or bad option is said before the position is read
        try:
            deduce(_WARM_UP, args.method, **options)
        except (MethodRefused, InconsistentPositionError, MethodBugError):
            pass  # declining the tiny position, or a bug of the method's: said with the position, below
        except ValueError:
            raise
        except Exception:  # noqa: BLE001, S110 - a bug of the method's: said with the position, below
            pass
    obs = read_position(args.file, mines=args.mines, noise=args.noise)
    methods = list(METHODS) if args.all else [args.method]
    if args.time_limit is not None and not args.time_limit > 0:
        raise ValueError(f"--time-limit must be a positive number of seconds, got {args.time_limit}")
    moves = None if args.move is None else [_cell(text) for text in args.move]
    from ..rollouts import MAX_LAYOUTS

    if args.win_rates is None:
        given = [f"--{n}" for n in ("move", "agent", "seed", "workers") if getattr(args, n) is not None]
        if given:
            raise ValueError(f"{', '.join(given)} {'needs' if len(given) == 1 else 'need'} --win-rates "
                             f"LAYOUTS (how many layouts to play each move on)")
    elif not 1 <= args.win_rates <= MAX_LAYOUTS:
        raise ValueError(f"--win-rates takes a number of layouts from 1 to {MAX_LAYOUTS:,}, "
                         f"got {args.win_rates}")
    if args.win_rates is not None:
        _finisher(args.agent or "best")  # refused before any method runs
    if args.win_rates is not None and (obs.mines is None or args.no_total):
        raise ValueError("--win-rates draws layouts with the total number of mines: give --mines N "
                         "(and no --no-total)")
    if moves is not None:  # before any method runs
        from ..positions import COVERED
        from ..rollouts import covered_move

        moves = [covered_move(m, obs.grid == COVERED) for m in moves]
        if len(set(moves)) < len(moves):
            raise ValueError(f"every --move once: {moves} repeats a cell")
    text, consistent, failed = _report(obs, methods, use_total=not args.no_total, options=options,
                                       probabilities=args.probabilities, explain=args.explain,
                                       time_limit=args.time_limit)
    if args.win_rates is not None and consistent:  # before printing anything: bad moves fail first
        from ..errors import MethodRefused

        try:
            text += win_rate_report(obs, moves, samples=args.win_rates, agent=args.agent or "best",
                                    seed=0 if args.seed is None else args.seed,
                                    workers=1 if args.workers is None else args.workers,
                                    progress=sys.stderr.isatty())
        except MethodRefused as exc:  # the position's probabilities are too large to count
            text += f"\nwin rates: refused: {_on_the_command_line(str(exc), None)}\n"
    sys.stdout.write(text)
    if failed:
        print(f"sweeplab solve: error: a bug in {', '.join(map(repr, failed))} (an exception, or a claim "
              f"or an inconsistency a complete method refutes; shown above)", file=sys.stderr)
    return 0 if consistent and not failed else 1


def _cell(text: str) -> tuple[int, int]:
    """``"R,C"`` as a cell, or a ValueError naming the bad text."""
    try:
        r, c = (int(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"--move takes ROW,COL (two integers), got {text!r}") from None
    return r, c


def _finisher(text: str) -> Agent:
    """``--agent``'s text, ``"best"`` or with options as play and compare take it (``"best lookahead=2"``),
    as an agent; ``ValueError`` naming what is wrong."""
    from ..agents import make_agent
    from .sweep import parse_agent, refuse_run_keys

    name, options = parse_agent(text)
    refuse_run_keys(options, name)
    return make_agent(name, **options)


def win_rate_report(obs: Observation, moves: list[tuple[int, int]] | None, *, samples: int,
                    agent: str = "best", seed: int = 0, workers: int | None = 1,
                    progress: bool = False) -> str:
    """The win-rate table ``sweeplab solve --win-rates`` prints (:func:`sweeplab.rollouts.move_win_rates`).

    Examples
    --------
    >>> print(win_rate_report(Observation.from_text("??\\n11\\n..", mines=1), None, samples=20), end="")
    <BLANKLINE>
    win rates, 20 layouts drawn from the position, best finishing (seed 0):
      move  mine probability  wins  win rate          95% CI
    (0, 0)             0.500    12     60.0%    [38.7, 78.1]
    (0, 1)             0.500     8     40.0%    [21.9, 61.3]
    """
    from ..rollouts import move_win_rates

    table = move_win_rates(obs, moves, agent=_finisher(agent), samples=samples, seed=seed, workers=workers,
                           progress=progress)
    lines = ["", f"win rates, {samples} layouts drawn from the position, {agent} finishing (seed {seed}):",
             f"{'move':>6s}  {'mine probability':>16s}  {'wins':>4s}  {'win rate':>8s}  {'95% CI':>14s}"]
    for row in table.itertuples():
        ci = f"[{100 * row.win_low:.1f}, {100 * row.win_high:.1f}]"
        lines.append(f"{str(row.cell):>6s}  {row.mine_probability:16.3f}  {row.wins:4d}  "
                     f"{100 * row.win_rate:7.1f}%  {ci:>14s}")
    return "\n".join(lines) + "\n"
