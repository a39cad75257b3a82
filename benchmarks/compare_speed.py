"""Speed of this checkout against another revision, measured in one sitting (a benchmark, not a test).

Runs ``agent_speed.py`` and ``methods_speed.py`` (this checkout's scripts) on
the library of both revisions, alternately, for several rounds, and prints the
best figure of each side with their ratio.  Alternating rounds of separate
processes matter on a shared or virtual machine: the same code measured twice
in a row can differ by a quarter, from one process to the next.

    .venv/bin/python benchmarks/compare_speed.py --base dc0b885            # 3 rounds
    .venv/bin/python benchmarks/compare_speed.py --base HEAD~1 --rounds 5 --only agents --agents trivial,csp
    .venv/bin/python benchmarks/compare_speed.py --base dc0b885 --same best-v1=best   # a renamed agent

The base revision is checked out in a temporary git worktree (removed at the
end); an agent or method the base does not have is shown as ``-``.  Ratios are
``this / base`` for games per CPU second and ``base / this`` for milliseconds,
so above 1 is faster either way.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def run(script: str, library: Path, args: list[str]) -> str:
    """Output of ``script`` (from this checkout) importing ``sweeplab`` from ``library``."""
    env = {**os.environ, "PYTHONPATH": str(library)}
    out = subprocess.run([sys.executable, str(HERE / script), *args], cwd=library, env=env,
                         capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"{script} failed on {library}:\n{out.stderr[-2000:]}")
    return out.stdout


def agent_rows(text: str) -> dict[str, float]:
    """``agent level`` -> games per CPU second, from agent_speed.py's table."""
    rows = {}
    for line in text.splitlines()[1:]:
        parts = line.split()
        if len(parts) == 6 and parts[2].isdigit():
            rows[f"{parts[0]} {parts[1]}"] = float(parts[4])
    return rows


def method_rows(text: str) -> dict[str, float]:
    """method -> median milliseconds, from methods_speed.py's table."""
    rows = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[-1].isdigit():
            try:
                rows[" ".join(parts[:-4])] = float(parts[-4])
            except ValueError:  # a method every position refused ("-")
                continue
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the git revision to compare with")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds per side (default 3)")
    ap.add_argument("--only", choices=("agents", "methods"), help="one benchmark only")
    ap.add_argument("--positions", default="100", help="positions for methods_speed.py (default 100)")
    ap.add_argument("--agents", help="comma-separated agents for agent_speed.py (default: all)")
    ap.add_argument("--same", action="append", default=[], metavar="THIS=BASE",
                    help="compare this checkout's agent THIS with the base's agent BASE (a renamed agent)")
    args = ap.parse_args()
    renamed = dict(pair.split("=", 1) for pair in args.same)  # this name -> base name
    base_name = {b: t for t, b in renamed.items()}
    agents = [] if args.agents is None else ["--agents", ",".join(
        dict.fromkeys([*args.agents.split(","), *(renamed.get(a, a) for a in args.agents.split(","))]))]
    benchmarks = [("agents", "agent_speed.py", agents, agent_rows, max),
                  ("methods", "methods_speed.py", ["--positions", args.positions], method_rows, min)]
    benchmarks = [b for b in benchmarks if args.only in (None, b[0])]
    with tempfile.TemporaryDirectory(prefix="sweeplab-base-") as tmp:
        base_dir = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base_dir), args.base], cwd=ROOT,
                       check=True)
        try:
            for title, script, extra, parse, best in benchmarks:
                seen: dict[str, dict[str, list[float]]] = {"base": {}, "this": {}}
                for k in range(args.rounds):
                    for side, library in (("base", base_dir), ("this", ROOT)):
                        print(f"{title}: round {k + 1}/{args.rounds}, {side}", file=sys.stderr, flush=True)
                        for name, value in parse(run(script, library, extra)).items():
                            if side == "base" and title == "agents":
                                agent, level = name.split(" ", 1)
                                if agent in renamed:  # the base's row of an agent renamed here
                                    continue
                                name = f"{base_name.get(agent, agent)} {level}"
                            seen[side].setdefault(name, []).append(value)
                unit = "games per CPU s" if title == "agents" else "median ms"
                print(f"\n{title} ({unit}, best of {args.rounds} rounds; ratio > 1: this is faster)")
                print(f"{'':28s} {'base':>10s} {'this':>10s} {'ratio':>7s}")
                for name in dict.fromkeys([*seen["base"], *seen["this"]]):
                    b, t = (best(seen[s][name]) if name in seen[s] else None for s in ("base", "this"))
                    ratio = "-" if b is None or t is None else (
                        f"{t / b:.2f}" if title == "agents" else f"{b / t:.2f}")
                    cells = [f"{v:10.3f}" if v is not None else f"{'-':>10s}" for v in (b, t)]
                    print(f"{name:28s} {cells[0]} {cells[1]} {ratio:>7s}")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_dir)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
