"""``sweeplab bench``: deductive power and speed of every method against enumeration (issue 5)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..run_directory import check_manifest_writer
from . import add_plugin_argument, output_directory

DEFAULT_CORPUS = "data/corpus/corpus-small.jsonl.gz"


def default_corpus() -> str:
    """The committed corpus: under the current directory, else the one sweeplab ships or runs from.

    So ``sweeplab bench`` works from any directory of a clone, as from its top, and from an installed wheel.
    """
    from ..corpus import committed_corpus

    shipped = committed_corpus("small")
    return str(shipped) if not Path(DEFAULT_CORPUS).exists() and shipped is not None else DEFAULT_CORPUS


#: The scaling study's flags and their defaults (``--scaling``; refused without it).
SCALING_DEFAULTS = {"areas": "81,256,480,900,2500,10000,99856,1000000", "densities": "0.1,0.15,0.2",
                    "positions": 3, "cap": 20.0, "seed": 0}


def register(sub: argparse._SubParsersAction) -> None:
    from ..corpus import PRESETS

    p = sub.add_parser(
        "bench", help="recall, wrong claims and speed of each method on a labelled corpus",
        description="Run deduction methods on a labelled position corpus and score them against "
        "exhaustive enumeration: recall, wrong claims, progress share, median/p90 ms and speed "
        "relative to enumerate, per method and slice. Writes bench.csv, bench_positions.csv and "
        "manifest.json to OUT. With --scaling, times methods against board area and density "
        "instead (scaling.csv). With --peer, also times ms-toollib on the same positions. Exits 1 "
        "when a method raised an exception or a method registered sound claimed a wrong cell (bugs).")
    p.add_argument("--corpus", help=f"corpus file, or a preset ({', '.join(PRESETS)}: committed, "
                   f"else generated from seed 0) (default: {DEFAULT_CORPUS}, of the current directory or "
                   "else the one sweeplab ships)")
    p.add_argument("--methods", help="comma-separated methods (default: every method of sweeplab.METHODS)")
    p.add_argument("--slices", help="comma-separated corpus slices (default: all)")
    p.add_argument("--total", choices=("with", "without", "both"),
                   help="bench with the total mines, without, or both (default)")
    p.add_argument("--budget", type=float, default=None,
                   help="seconds per method and slice; later positions are counted as skipped")
    p.add_argument("--out", default="reports/bench", help="output folder (default: reports/bench)")
    p.add_argument("--peer", action="store_true", help="also time ms-toollib (if installed)")
    p.add_argument("--proofs", action="store_true",
                   help="also prove every claim (SPEC §6) and report proof sizes (combining steps, distinct "
                   "rows), the share needing case analysis and the claims over the prover's budget")
    p.add_argument("--scaling", action="store_true", help="run the scaling study instead of the corpus bench")
    p.add_argument("--areas", help=f"scaling: board areas (square boards except 480 = expert's 16x30; "
                   f"default {SCALING_DEFAULTS['areas']})")
    p.add_argument("--densities", help=f"scaling: mine densities (default {SCALING_DEFAULTS['densities']})")
    p.add_argument("--positions", type=int, help="scaling: positions per board (default 3)")
    p.add_argument("--cap", type=float,
                   help="scaling: seconds per method and board before it is stopped (default 20)")
    p.add_argument("--seed", type=int, help="scaling: seed of the positions (default 0)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_plugin_argument(p)
    p.set_defaults(func=run)


def _split(text: str | None, option: str) -> list[str] | None:
    """Comma-separated names (``None`` when the option is not given); an empty entry (``a,,b``) or
    an empty value is an error, not skipped."""
    if text is None:
        return None
    names = [t.strip() for t in text.split(",")]
    if not all(names):
        raise ValueError(f"{option}: {text!r} has an empty entry; separate the values by single commas")
    return names


def _shape(area: int) -> tuple[int, int]:
    if area == 480:
        return (16, 30)
    side = round(area ** 0.5) if area > 0 else 0
    if area <= 0 or side * side != area:
        raise ValueError(f"--areas: {area} is not a positive square (or 480): give square areas such as "
                         f"900 or 10000")
    return (side, side)


def _numbers(text: str, flag: str, kind: type, lo: float, hi: float | None = None, *, example: str) -> list:
    """A comma-separated list of numbers within ``[lo, hi]`` for ``flag``, or a ``ValueError`` naming it."""
    values = []
    for item in _split(text, flag) or []:
        try:
            value = kind(item)
        except ValueError:
            raise ValueError(f"{flag}: {item!r} is not {'an integer' if kind is int else 'a number'}; "
                             f"give a comma-separated list such as {flag} {example}") from None
        if not (lo <= value and (hi is None or value <= hi)):  # also refuses nan
            raise ValueError(f"{flag}: {item} is outside [{lo}, {'inf' if hi is None else hi}]")
        values.append(value)
    if not values:
        raise ValueError(f"{flag}: no values in {text!r}; give a list such as {flag} {example}")
    return values


def _check_run_arguments(args: argparse.Namespace) -> None:
    """Refuse bad flag values, and flags of the other mode, before any work is done (each error names its
    flag); then fill in the defaults of the mode run."""
    scaling = {f"--{k}": getattr(args, k) for k in SCALING_DEFAULTS}
    corpus = {"--corpus": args.corpus, "--slices": args.slices, "--total": args.total,
              "--budget": args.budget, "--proofs": args.proofs or None, "--peer": args.peer or None}
    other = [flag for flag, value in (corpus if args.scaling else scaling).items() if value is not None]
    if other:
        mode = "the corpus bench (without --scaling)" if args.scaling else "the scaling study (--scaling)"
        raise ValueError(f"{', '.join(other)} {'is an option' if len(other) == 1 else 'are options'} of "
                         f"{mode}, which this run is not: drop {'it' if len(other) == 1 else 'them'}")
    for key, default in SCALING_DEFAULTS.items():
        if getattr(args, key) is None:
            setattr(args, key, default)
    if args.total is None:
        args.total = "both"
    for flag, value, lo in (("--positions", args.positions, 1), ("--seed", args.seed, 0)):
        if value < lo:
            raise ValueError(f"{flag} must be at least {lo}, got {value}")
    for flag, value in (("--cap", args.cap), ("--budget", args.budget)):
        if value is not None and not value > 0:  # also refuses nan
            raise ValueError(f"{flag} must be a positive number of seconds, got {value}")
    out = output_directory(args.out)
    if not args.scaling:  # its own files (scaling*.csv, scaling_manifest.json) replace no manifest.json
        check_manifest_writer(out, "bench")  # before the work, as write_bench will


def run(args: argparse.Namespace) -> int:
    from .. import bench

    _check_run_arguments(args)
    out = Path(args.out)
    methods = _split(args.methods, "--methods")
    if args.scaling:
        shapes = [_shape(a) for a in _numbers(args.areas, "--areas", int, 1, example="81,900")]
        densities = _numbers(args.densities, "--densities", float, 0.0, 1.0, example="0.1,0.2")
        table = bench.scaling_study(shapes=shapes, densities=densities, methods=methods,
                                    positions=args.positions, seed=args.seed, cap_seconds=args.cap,
                                    progress=not args.no_progress)
        out.mkdir(parents=True, exist_ok=True)
        table.to_csv(out / "scaling.csv", index=False)
        meta = bench.manifest(corpus_path=None, methods=sorted(set(table.method)), kind="scaling",
                              areas=[h * w for h, w in shapes], densities=densities, cap_seconds=args.cap,
                              positions=args.positions, seed=args.seed)
        (out / "scaling_manifest.json").write_text(json.dumps(meta, indent=1) + "\n")
        print(bench.format_scaling(table))
        reach = bench.scaling_reach(table)
        reach.to_csv(out / "scaling_reach.csv", index=False)
        print("\nlargest board area answered within 1 s per position (median), by density")
        print(reach.pivot_table(index=["method", "use_total"], columns="density", values="reach_area",
                                sort=False).to_string())
        print(f"\nwrote {out / 'scaling.csv'}")
        return 0

    from ..corpus import PRESETS, committed_corpus, corpus_positions, load_corpus

    if args.corpus is None:
        args.corpus = default_corpus()
    slices = _split(args.slices, "--slices")
    preset = args.corpus in PRESETS and not Path(args.corpus).exists()
    # the manifest names the file read (hashed), or the preset generated
    source = committed_corpus(args.corpus) if preset else args.corpus
    generated = {"corpus_preset": args.corpus, "corpus_seed": 0} if preset and source is None else {}
    try:
        if preset:  # committed, else generated from seed 0
            every = corpus_positions(args.corpus)
        elif not Path(args.corpus).exists() and not Path(args.corpus).suffix:  # a preset's name misspelt?
            raise ValueError(f"--corpus {args.corpus!r} is neither a file nor a preset; the presets: "
                             f"{', '.join(PRESETS)}; or a corpus file (sweeplab corpus writes one)")
        else:
            every = load_corpus(args.corpus)
        corpus = every if slices is None else [p for p in every if str(p.slice) in slices]
    except ValueError as exc:  # name the file when the reader did not
        message = str(exc)
        raise ValueError(message if args.corpus in message else f"corpus {args.corpus}: {message}") from None
    except (AttributeError, KeyError, TypeError) as exc:  # a JSON line that is not a corpus record
        raise ValueError(
            f"corpus {args.corpus}: not a sweeplab corpus ({type(exc).__name__}: {exc})"
        ) from None
    if not corpus:
        if not args.slices:
            raise ValueError(f"no positions in {args.corpus}")
        have = sorted({str(p.slice) for p in every})
        raise ValueError(f"no positions of the slices {args.slices} in {args.corpus}; its slices are: "
                         f"{', '.join(have) or 'none'}")
    totals = {"with": [True], "without": [False], "both": [True, False]}[args.total]
    rows = bench.run_bench(corpus, methods=methods, totals=totals, budget_seconds=args.budget,
                           progress=not args.no_progress, proofs=args.proofs)
    summary = bench.summarize(rows)
    meta = bench.manifest(corpus_path=source, methods=list(dict.fromkeys(rows.method)),
                          totals=totals, positions=len(corpus), budget_seconds=args.budget,
                          proofs=args.proofs, **generated)
    print(bench.format_table(summary))
    paths = bench.write_bench(out, rows=rows, summary=summary, meta=meta)
    if args.peer:
        try:
            table = bench.peer_compare(corpus)
        except ModuleNotFoundError:
            print("\nms-toollib is not installed: no peer comparison")
        else:
            table.to_csv(out / "peer.csv", index=False)
            paths.append(out / "peer.csv")
            print("\n" + bench.format_peer(table))
    print("\nwrote " + ", ".join(str(p) for p in paths))
    overall = summary[summary.slice == "all"]
    failed = overall.groupby("method", sort=False).errors.sum()
    failed = failed[failed > 0]
    if len(failed):
        counts = ", ".join(f"{m!r} in {n} calls" for m, n in failed.items())
        print(f"sweeplab bench: error: methods raised exceptions (bugs, status 'error' in bench.csv): "
              f"{counts}", file=sys.stderr)
    # a method registered sound that claims a wrong cell is a bug too (SPEC §4), not a score
    wrong = overall[overall.sound.eq(True)].groupby("method", sort=False).wrong.sum()
    wrong = wrong[wrong > 0]
    if len(wrong):
        counts = ", ".join(f"{m!r} {n}" for m, n in wrong.items())
        print(f"sweeplab bench: error: methods registered sound claimed wrong cells (bugs; the 'wrong' "
              f"column, per position in bench_positions.csv): {counts}", file=sys.stderr)
    return 1 if len(failed) or len(wrong) else 0
