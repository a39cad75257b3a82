"""``sweeplab corpus``: generate the labelled position corpus (issue 5)."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from . import check_writable


def register(sub: argparse._SubParsersAction) -> None:
    from ..corpus import PRESETS

    p = sub.add_parser(
        "corpus", help="play seeded games and save labelled mid-game positions",
        description="Play seeded games with several agents, keep mid-game positions, label them with "
        "exhaustive enumeration (with and without the total) and write JSON Lines "
        "(gzip-compressed when OUT ends in .gz). The same seed and preset give the same file.")
    p.add_argument("--seed", type=int, required=True, help="corpus seed")
    p.add_argument("--out", required=True, help="output file, e.g. data/generated/corpus.jsonl.gz")
    p.add_argument("--preset", default="small", choices=sorted(PRESETS),
                   help="slices and games (default: small, the committed corpus)")
    p.add_argument("--slices", help="comma-separated slice names of the preset to keep (default: all)")
    p.add_argument("--no-examples", action="store_true", help="leave out the hand-made examples")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _check_out(out: str) -> None:
    """Refuse an ``--out`` that cannot be written, before hours of generation."""
    path = Path(out)
    if path.is_symlink():  # the file is written where the link points (atomic_write), made there if new
        try:
            path = path.resolve()
        except (OSError, RuntimeError) as exc:
            raise ValueError(f"--out {out}: the link cannot be followed ({exc}); give another path") from None
    if path.is_dir():
        raise ValueError(f"--out {out} is a directory; give a file name such as {path / 'corpus.jsonl.gz'}")
    check_writable(path, flag="--out")  # a file where a folder should be, or a folder it may not write in
    from ..corpus import holds_a_corpus

    if path.is_file() and path.stat().st_size and not holds_a_corpus(path):
        raise ValueError(f"--out {out} holds something other than a corpus; choose another file name, "
                         f"or delete it to replace it")


def run(args: argparse.Namespace) -> int:
    from ..corpus import PRESETS, generate_corpus, save_corpus

    if args.seed < 0:
        raise ValueError(f"--seed must be a non-negative integer, got {args.seed}")
    _check_out(args.out)
    slices = PRESETS[args.preset]
    if args.slices:
        wanted = [s.strip() for s in args.slices.split(",") if s.strip()]
        names = [s.name for s in slices]
        if not wanted:
            raise ValueError(f"--slices: no slice names in {args.slices!r}; choose from {names}")
        unknown = set(wanted) - set(names)
        if unknown:
            raise ValueError(f"unknown slice(s) {sorted(unknown)} in preset {args.preset!r}; "
                             f"choose from {[s.name for s in slices]}")
        slices = tuple(s for s in slices if s.name in wanted)
    corpus = generate_corpus(seed=args.seed, slices=slices, examples=not args.no_examples,
                             progress=not args.no_progress)
    path = save_corpus(corpus, args.out)
    counts = Counter(p.slice for p in corpus)
    print(f"{len(corpus)} positions -> {path} ({path.stat().st_size / 1e6:.2f} MB)")
    for name, n in counts.items():
        print(f"  {name:14s} {n}")
    return 0
