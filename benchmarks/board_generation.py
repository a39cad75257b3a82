"""Board generation speed: boards per second per level and method (issue 11 item 5).

For each level and each method of the cascade, ``sweeplab.generate_board`` makes
boards that the method solves from a zero opening without a guess (with the
total), one core, seeds 0, 1, ...; printed: boards per second, mean layouts
tried per board (fresh draws and repairs), mean seconds, the slowest board, and
the grades of the boards made, after one untimed beginner board per method.  A case that gives no board within
``--max-tries`` layouts prints ``not found`` (expert boards for the weak
methods are rare).  Nothing is asserted: figures are printed, as in every
benchmark (``make bench``).

Run ``python benchmarks/board_generation.py [--count N] [--levels ...] [--methods ...]``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from sweeplab.boards import BoardNotFound, generate_board
from sweeplab.noguess import CASCADE

LEVELS = ("beginner", "intermediate", "expert")


def measure(level: str, method: str, count: int, max_tries: int) -> str:
    times, tries, grades = [], [], Counter()
    start = time.perf_counter()
    for seed in range(count):
        t0 = time.perf_counter()
        try:
            board = generate_board(level, solvable_by=method, seed=seed, max_tries=max_tries)
        except BoardNotFound:
            return f"{level:13s} {method:10s} not found within {max_tries} layouts (seed {seed})"
        times.append(time.perf_counter() - t0)
        tries.append(board.tries)
        grades[board.grade] += 1
    total = time.perf_counter() - start
    made = ", ".join(f"{g} {n}" for g, n in grades.items())
    return (f"{level:13s} {method:10s} {count / total:10.2f} {sum(tries) / count:10.1f} "
            f"{total / count:9.3f} {max(times):9.3f}   {made}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10, help="boards per case (default 10)")
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=LEVELS)
    parser.add_argument("--methods", nargs="+", default=list(CASCADE), choices=CASCADE)
    parser.add_argument("--max-tries", type=int, default=20_000, help="layouts per board before giving up")
    args = parser.parse_args(argv)
    header = f"{'level':13s} {'method':10s} {'boards/s':>10s} {'layouts':>10s} {'s/board':>9s} {'max s':>9s}"
    print(header + "   grades", flush=True)
    for method in args.methods:  # one untimed board each: first calls (compiling, imports) would count
        try:
            generate_board("beginner", solvable_by=method, seed=10**6, max_tries=args.max_tries)
        except BoardNotFound:
            pass
    for level in args.levels:
        for method in args.methods:
            print(measure(level, method, args.count, args.max_tries), flush=True)


if __name__ == "__main__":
    main()
