"""``sweeplab report``: rebuild every figure and table behind the notebooks."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="rebuild the figures and tables into reports/",
                       description="Run the experiments behind every figure and write reports/.")
    p.add_argument("--full", action="store_true", help="publication sizes instead of the quick preset")
    p.add_argument("--out", default="reports", help="output folder (default: reports)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..methods import METHODS

    print("Installed deduction methods:")
    for info in METHODS.values():
        flags = ("sound" if info.sound else "UNSOUND") + (", complete" if info.complete else "")
        print(f"  {info.name:16s} {flags:18s} {info.summary}")
    print("\nno experiments yet: the figure and table rebuild arrives with the sweeps and notebooks.")
    return 0
