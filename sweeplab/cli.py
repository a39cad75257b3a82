"""The ``sweeplab`` command line.

Each sub-command lives in a module of :mod:`sweeplab.commands` that defines
``register(subparsers)``; that function adds its parser and sets ``func``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__

#: Sub-command modules in :mod:`sweeplab.commands`, in ``--help`` order.
COMMANDS = ("report", "solve", "play", "sweep", "bench", "corpus")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sweeplab",
        description="How far linear algebra gets in deducing Minesweeper: "
        "deduction methods, games, sweeps and the reports' figures.",
    )
    parser.add_argument("--version", action="version", version=f"sweeplab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"sweeplab.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"sweeplab.commands.{name}":
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except (ValueError, FileNotFoundError) as exc:
        print(f"sweeplab {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
