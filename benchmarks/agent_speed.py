"""Agent speed: games per second on one core (a benchmark, not a test).

Targets: ``trivial`` >= 1,000 intermediate games/s per core (agents issue),
``best`` >= 30 expert games/s per core (issue 13).  Run::

    .venv/bin/python benchmarks/agent_speed.py            # quick
    .venv/bin/python benchmarks/agent_speed.py --repeat 5 --agents trivial,best
    .venv/bin/python benchmarks/agent_speed.py --games 500 --profile best
    .venv/bin/python benchmarks/agent_speed.py --profile trivial --level intermediate --games 500
    .venv/bin/python benchmarks/agent_speed.py --agents best --first-click zero   # zero-start credit
    .venv/bin/python benchmarks/agent_speed.py --agents best --option sampled_endgame=1000
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import sweeplab
from sweeplab.agents import make_agent
from sweeplab.commands.sweep import parse_option
from sweeplab.simulate import options_text

CASES = [
    ("random", "intermediate", 2000),
    ("trivial", "intermediate", 1000),
    ("rref", "intermediate", 100),
    ("lstsq", "intermediate", 200),
    ("csp", "intermediate", 100),
    ("reductio", "intermediate", 100),
    ("probability", "intermediate", 100),
    ("best", "intermediate", 100),
    ("best", "expert", 50),
    ("best-v1", "intermediate", 100),  # the best agent before issue 13 (what `best` was)
    ("best-v1", "expert", 50),
]


def measure(agent: str, level: str, games: int, repeat: int = 3,
            first_click: str = "safe", **options) -> tuple[float, float, float]:
    """Games per wall-clock second, games per CPU second of this process (one core, less
    sensitive to a busy shared machine) and win rate.  A few warm-up games first (imports,
    compiled kernels loaded from numba's cache); then the same games ``repeat`` times, and
    the fastest round counts (as ``timeit`` does: slower rounds measure the machine's
    other work, not the code)."""
    sweeplab.play(agent, level=level, games=2, seed=1, first_click=first_click, **options)
    wall = cpu = float("inf")
    for _ in range(repeat):
        start, cpu_start = time.perf_counter(), time.process_time()
        df = sweeplab.play(agent, level=level, games=games, seed=0, first_click=first_click, **options)
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - cpu_start)
    return games / wall, games / cpu, float(df["won"].mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=None, help="games per case (default: per-case preset)")
    parser.add_argument("--agents", default=None, help="comma-separated agents to measure (default: all)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds per case (fastest counts)")
    parser.add_argument("--profile", metavar="AGENT", help="profile one agent instead (on --level)")
    parser.add_argument("--level", default="expert", help="level for --profile (default: expert)")
    parser.add_argument("--first-click", default="safe", choices=("safe", "zero"),
                        help="first-click rule of every case (default: safe, as the published rates)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="an option of every measured agent (repeatable), e.g. sampled_endgame=1000")
    args = parser.parse_args()
    try:
        options = dict(parse_option(text) for text in args.option)
    except ValueError as exc:
        parser.error(str(exc))
    if args.profile is not None and args.profile not in sweeplab.AGENTS:
        parser.error(f"--profile: unknown agent {args.profile!r}; choose from {', '.join(sweeplab.AGENTS)}")
    if args.profile:
        prof = cProfile.Profile()
        rules = {"level": args.level, "first_click": args.first_click}
        sweeplab.play(args.profile, games=2, seed=1, **rules, **options)  # imports and compiled kernels
        prof.runcall(sweeplab.play, args.profile, games=args.games or 20, seed=0, **rules, **options)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return
    wanted = None if args.agents is None else set(args.agents.split(","))
    measured = {agent for agent, _, _ in CASES}
    if wanted is not None and wanted - measured:
        parser.error(f"--agents: no case for {', '.join(sorted(wanted - measured))}; choose from "
                     f"{', '.join(sorted(measured))}")
    for agent in sorted(measured if wanted is None else wanted):
        if agent in sweeplab.AGENTS:  # a revision without the agent shows it as skipped below
            try:
                make_agent(agent, **options)
            except ValueError as exc:
                parser.error(f"--option: {exc}")
    print(f"first click {args.first_click}; options {options_text(options) or 'none'}; "
          f"fastest of {args.repeat} rounds")
    print(f"{'agent':12s} {'level':13s} {'games':>6s} {'games/s':>9s} {'per CPU s':>9s} {'win %':>7s}")
    for agent, level, games in CASES:
        if wanted is not None and agent not in wanted:
            continue
        n = args.games or games
        try:
            rate, cpu_rate, won = measure(agent, level, n, args.repeat, args.first_click, **options)
        except (ImportError, ValueError) as exc:  # an agent the library measured does not have
            print(f"{agent:12s} {level:13s} {'-':>6s} skipped: {exc}")
            continue
        print(f"{agent:12s} {level:13s} {n:6d} {rate:9.1f} {cpu_rate:9.1f} {100 * won:7.1f}")


if __name__ == "__main__":
    main()
