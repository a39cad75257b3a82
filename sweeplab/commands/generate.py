"""``sweeplab generate``: boards a named method solves without a guess, graded (issue 11 item 5).

Example: ``sweeplab generate --level expert --solvable-by rref --count 10 --seed 1 --out boards/``.
Each board is written as ``sweeplab.game`` JSON with no moves yet (``sweeplab.load_game``
reads it) plus ``opening`` (the first click, which opens a zero), ``grade`` (the first
method of the cascade that solves it), ``solvable_by`` and ``generator`` (``seed``, ``index``,
``exact_grade``, ``max_tries``, ``--opening`` as given, the layouts tried and ``made_by``, the
version, commit and code fingerprint that made it, :func:`sweeplab.provenance.made_by`, with a plugin
method's fingerprint in ``methods``).  Board ``i``
depends only on these options and ``i``, never on ``--count`` or ``--workers``.  Files are named
``<level or HxW-mines>-<method>[-exact]-s<seed>-<i>.json``; a file there already made with other
options is not overwritten, and one made with the same options by the same code is kept rather than
made again (the same board), so a stopped run resumes where it stopped; one graded by other code is
refused, naming it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ..errors import count_text
from ..provenance import made_by, method_fingerprints
from . import add_plugin_argument, output_directory, plain_text


def register(sub: argparse._SubParsersAction) -> None:
    from ..game import LEVELS

    p = sub.add_parser("generate", help="write boards a method solves without a guess, graded by method",
                       description=plain_text(__doc__), formatter_class=argparse.RawDescriptionHelpFormatter)
    board = p.add_mutually_exclusive_group(required=True)
    board.add_argument("--level", choices=sorted(LEVELS), help="board preset")
    board.add_argument("--shape", nargs="+", metavar="HEIGHTxWIDTH",
                       help="custom board, 16x30 as for play (or HEIGHT WIDTH), with --mines")
    p.add_argument("--mines", type=int, help="mines on a custom board")
    p.add_argument("--solvable-by", default="rref", metavar="METHOD",
                   help="sound method that must solve the board from the opening, with the total "
                        "(default: rref)")
    p.add_argument("--exact-grade", action="store_true",
                   help="also require that no weaker method of the cascade solves it")
    p.add_argument("--count", type=int, default=1, help="boards to write (default: 1)")
    p.add_argument("--seed", type=int, default=0, help="root seed (default: 0)")
    p.add_argument("--start", type=int, default=0, help="index of the first board (default: 0)")
    p.add_argument("--opening", nargs=2, type=int, metavar=("ROW", "COL"),
                   help="the first click, which must open a zero (default: any cell that does)")
    p.add_argument("--max-tries", type=int, default=None,
                   help="cap on the layouts tried per board (default: 20000)")
    p.add_argument("--workers", type=int, default=1, help="local processes (default: 1)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (boards found and, with one worker, layouts tried)")
    p.add_argument("--out", required=True, help="output directory (created if missing)")
    add_plugin_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from tqdm.auto import tqdm

    from ..boards import MAX_TRIES, _request, _sound, generate_boards
    from ..files import _dump

    shape = None if args.shape is None else _shape(args.shape)
    if shape is not None and args.mines is None:
        raise ValueError("--shape needs --mines")
    if args.level is not None and args.mines is not None:
        raise ValueError(f"--mines {args.mines} goes with --shape, not with --level {args.level}")
    checks = (("--count", args.count, 1), ("--seed", args.seed, 0), ("--start", args.start, 0),
              ("--workers", args.workers, 1), ("--max-tries", args.max_tries, 1))
    for flag, value, least in checks:
        if value is not None and value < least:
            raise ValueError(f"{flag} must be an integer >= {least}, got {value}")
    out = output_directory(args.out)
    max_tries = MAX_TRIES if args.max_tries is None else args.max_tries
    opening = None if args.opening is None else tuple(args.opening)
    name = args.level if shape is None else f"{shape[0]}x{shape[1]}-{args.mines}"
    options = {"seed": args.seed, "exact_grade": args.exact_grade, "max_tries": max_tries,
               "opening": args.opening}

    def path_of(i: int, solvable_by: str) -> Path:
        return out / f"{name}-{solvable_by}{'-exact' * args.exact_grade}-s{args.seed}-{i:05d}.json"

    # every option checked (ValueError naming the value) before any file is looked at; the flags first
    _sound(args.solvable_by, what="--solvable-by")
    method = _request(args.level, shape, args.mines, args.solvable_by, opening, args.exact_grade,
                      max_tries)[0]
    # a board's grade depends on the methods' code: sweeplab's, and a plugin's own
    made = {**made_by(), "methods": method_fingerprints([method])}
    todo = [i for i in range(args.start, args.start + args.count)
            if not _same_options_there(path_of(i, method), {**options, "index": i}, made)]
    if len(todo) < args.count:
        print(f"kept {args.count - len(todo)} of the {args.count} boards, in {out} already (the same options "
              f"give the same board)", flush=True)

    def boards_todo():  # each contiguous run of missing indices
        for first, last in _runs(todo):
            yield from generate_boards(last - first + 1, level=args.level, shape=shape, mines=args.mines,
                                       solvable_by=args.solvable_by, seed=args.seed, start=first,
                                       opening=opening, exact_grade=args.exact_grade, max_tries=max_tries,
                                       workers=args.workers, progress=not args.no_progress)

    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    grades: dict[str, int] = {}
    n = 0
    for i, board in boards_todo():
        path = path_of(i, board.solvable_by)
        _dump(board.to_dict(generator={**options, "index": i, "tries": board.tries, "made_by": made}), path)
        grades[board.grade] = grades.get(board.grade, 0) + 1
        n += 1
        tqdm.write(f"{path}  grade {board.grade:9s} opening {board.opening}  {board.tries} layouts tried, "
                   f"{board.seconds:.2f} s")  # above the progress bar
    seconds = time.perf_counter() - start
    if n:
        summary = ", ".join(f"{g} {k}" for g, k in grades.items())
        print(f"wrote {count_text(n, 'board')} in {seconds:.1f} s ({n / seconds:.2f} boards/s on "
              f"{count_text(args.workers, 'worker')}); grades: {summary}")
    return 0


def _runs(indices: list[int]) -> list[tuple[int, int]]:
    """Sorted indices as ``(first, last)`` runs of consecutive ones: ``[1, 2, 5]`` -> ``[(1, 2), (5, 5)]``."""
    runs: list[tuple[int, int]] = []
    for i in indices:
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


def _shape(tokens: list[str]) -> tuple[int, int]:
    """``["16x30"]`` or ``["16", "30"]`` -> ``(16, 30)``."""
    from .sweep import parse_shape

    try:
        h, w = parse_shape(tokens[0]) if len(tokens) == 1 else (int(t) for t in tokens)
    except ValueError:
        raise ValueError(f"--shape must look like 16x30 (or 16 30), got {' '.join(tokens)!r}") from None
    return h, w


def _same_options_there(path: Path, options: dict, made: dict) -> bool:
    """Whether ``path`` holds the board these options make with this code (kept as it is); ``ValueError``
    when it holds one made with other options or by other code (sweeplab's fingerprint ``code``, or a
    plugin method's in ``methods``; never overwritten, as a sweep refuses to resume under other code);
    ``False`` when there is none, or no board at all (a file cut off mid-write: made again)."""
    from ..files import game_from_dict

    if not path.exists():
        return False
    try:  # read once: the board must load, and its generator options are compared
        document = json.loads(path.read_text(encoding="utf-8"))
        game_from_dict(document)
        theirs = document.get("generator", {})
    except (OSError, ValueError, AttributeError, TypeError, KeyError):
        print(f"{path} holds no board: made again", flush=True)
        return False
    if not isinstance(theirs, dict):
        theirs = {}
    theirs = {"opening": None, **theirs}  # recorded since --opening exists; before, every board had none
    differ = [k for k, v in options.items() if theirs.get(k, "not recorded") != v]
    if differ:
        detail = ", ".join(f"{k} {theirs.get(k, 'not recorded')!r} there, {options[k]!r} here"
                           for k in differ)
        raise ValueError(f"{path} holds a board generated with other options ({detail}); choose another "
                         f"--out, or delete it to replace it")
    theirs_made = theirs.get("made_by")
    theirs_made = theirs_made if isinstance(theirs_made, dict) else {}
    other = [k for k in ("code", "methods") if theirs_made.get(k, "not recorded") != made[k]]
    if other:
        raise ValueError(f"{path} holds a board graded by other code (its {' and '.join(other)} fingerprint "
                         f"{'is not recorded' if not theirs_made else 'differs'}: made before a change to "
                         f"sweeplab or to the method); its grade may not hold for this code: choose another "
                         f"--out, or delete it to make it again")
    return True
