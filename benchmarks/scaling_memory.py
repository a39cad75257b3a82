"""Seconds and peak memory of every method on huge and dense positions, each call in a fresh process.

Positions (issue 14 items 6 and 8): square boards at density 0.15 with half
their safe cells open, clicked at random (zeros cascade), from 100 x 100 to
1000 x 1000 -- a frontier of up to ~280,000 cells, whose dense ``[A | b]``
would take hundreds of GB -- and dense 30 x 30 and 36 x 36 boards at density
0.4, half open, for ``probabilities``.  Every method of ``sweeplab.METHODS`` and
``sweeplab.probabilities`` runs with its default budget (``time_limit`` 20 s,
``max_bytes``) in a child process of its own, started fresh (imports and numba
caches loaded, nothing else); the parent reads the child's own peak resident
memory from ``os.wait4`` and kills it after ``--cap`` seconds.  A cell of the
table reads ``seconds / peak MB``, with ``R`` for a refusal
(:class:`~sweeplab.MethodRefused`: the budget was reached), ``E`` for any other
error and ``K`` for a child killed at the cap.  No assertions.

Heavy: run it alone on an idle machine (one child at a time)::

    .venv/bin/python benchmarks/scaling_memory.py [--sizes 100 300 1000] [--methods rref lp]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

#: (label, size, density) of the positions.
BOARDS = [(f"{n}x{n} half", n, 0.15) for n in (100, 200, 300, 1000)] + [
    (f"{n}x{n} d=0.4", n, 0.4) for n in (30, 36)
]


def child(method: str, path: str) -> None:
    """Run one method on one position (the text file ``path``) and print one JSON line."""
    import sweeplab
    from sweeplab import MethodRefused, Observation, deduce

    total, text = Path(path).read_text().split("\n", 1)
    obs = Observation.from_text(text, mines=int(total))
    start = time.perf_counter()
    try:
        if method == "probabilities":
            sweeplab.probabilities(obs)
            status, found, note = "ok", -1, ""
        else:
            found, status, note = len(deduce(obs, method, check_consistency=False)), "ok", ""
    except MethodRefused as exc:
        status, found, note = "refused", -1, str(exc)
    except Exception as exc:  # noqa: BLE001 - reported
        status, found, note = "error", -1, f"{type(exc).__name__}: {exc}"
    print(json.dumps({"status": status, "seconds": time.perf_counter() - start, "found": found,
                      "note": note[:160]}))


def run(method: str, path: Path, cap: float) -> dict:
    """One child: its JSON line, wall seconds and peak RSS (MB, from ``wait4``)."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "--child", method, str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    timer = threading.Timer(cap, proc.kill)
    timer.start()
    out = proc.stdout.read()  # until the child exits (or is killed at the cap)
    killed = not timer.is_alive()
    timer.cancel()
    _, status, usage = os.wait4(proc.pid, 0)  # reaped here, with the child's own peak memory
    proc.returncode = os.waitstatus_to_exitcode(status)
    if killed:
        result = {"status": "killed", "seconds": float("nan"), "found": -1, "note": f"over the {cap} s cap"}
    elif out.strip():
        result = json.loads(out.strip().splitlines()[-1])
    else:
        result = {"status": "error", "seconds": float("nan"), "found": -1, "note": f"exit {proc.returncode}"}
    result["wall"] = time.perf_counter() - start
    result["peak_mb"] = usage.ru_maxrss / 1024
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", nargs=2, metavar=("METHOD", "POSITION"), help=argparse.SUPPRESS)
    ap.add_argument("--sizes", nargs="*", type=int, help="board sizes to keep (default: all)")
    ap.add_argument("--methods", nargs="*", help="methods to run (default: all, and probabilities)")
    ap.add_argument("--cap", type=float, default=120.0, help="seconds before a child is killed")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    import sweeplab
    from sweeplab import METHODS, clue_system
    from sweeplab.testing import half_revealed

    methods = args.methods or [*METHODS, "probabilities"]
    boards = [b for b in BOARDS if not args.sizes or b[1] in args.sizes]
    print(f"sweeplab {sweeplab.__version__}, python {sys.version.split()[0]}, {os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for label, size, density in boards:
            obs = half_revealed(size, density=density, seed=args.seed)
            system = clue_system(obs)
            largest = max((cols.size for _, cols in system.merged().blocks()), default=0)
            print(f"{label}: frontier {system.n_frontier:,} cells, {system.n_equations:,} equations, "
                  f"largest block {largest:,} cells; dense [A|b] would be "
                  f"{system.n_equations * (system.n_frontier + 1) / 2**30:,.1f} GiB as int8")
            paths[label] = Path(tmp) / f"{size}_{density}.txt"
            paths[label].write_text(f"{obs.mines}\n{obs.to_text()}")
        width = max(len(label) for label, _, _ in boards) + 2
        print(f"\n{'method':16s}" + "".join(f"{label:>{width + 6}s}" for label, _, _ in boards))
        notes = []
        for method in methods:
            cells = []
            for label, _, _ in boards:
                r = run(method, paths[label], args.cap)
                mark = {"ok": "", "refused": " R", "error": " E", "killed": " K"}[r["status"]]
                seconds = r["seconds"] if r["status"] in ("ok", "refused") else r["wall"]
                cells.append(f"{seconds:6.1f}s/{r['peak_mb']:5.0f}MB{mark:2s}")
                if r["status"] != "ok":
                    notes.append(f"{method} on {label}: {r['status']}: {r['note']}")
            print(f"{method:16s}" + "".join(f"{c:>{width + 6}s}" for c in cells), flush=True)
        print("\n" + "\n".join(notes))


if __name__ == "__main__":
    main()
