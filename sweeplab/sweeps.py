"""Parameter sweeps: a grid of parameters x games, run on any executor, resumable.

A sweep is a list of *points* (keyword arguments of :func:`sweeplab.play`:
agent, level or shape and mines, first_click, mode, noise, first_move, agent
options), a number of games per point, a root seed and a chunk size.  Game ``i``
of every point is seeded from ``(seed, i)`` only, so results never depend on
the executor, the worker count or the order in which chunks finish.

On disk (``out`` directory)::

    manifest.json            points, games, seed, chunk size, package version, git commit
    chunks/p0003-g000001200.parquet   games 1200.. of point 3, written atomically

A chunk file appears only complete (written to a temporary name, then renamed),
so a sweep stopped in any way (SIGKILL included) and started again with the
same ``out`` runs exactly the missing chunks: no game lost, none counted twice.

Executors: ``workers=1`` runs in this process; otherwise a local process pool
(every core by default); ``scheduler="tcp://host:8786"`` (or a
``distributed.Client``) runs the chunks on a Dask cluster.  Workers return
results; only this process writes files.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import time
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pandas as pd

from .simulate import RESULT_COLUMNS, play

__all__ = ["Chunk", "expand_grid", "plan_chunks", "run_sweep", "load_results", "MANIFEST"]

MANIFEST = "manifest.json"
#: Keys a point may hold besides agent options.
PLAY_KEYS = ("agent", "level", "shape", "mines", "density", "first_click", "mode", "noise", "first_move")


@dataclass(frozen=True)
class Chunk:
    """Games ``start .. start + games - 1`` of point ``point``."""

    point: int
    start: int
    games: int

    @property
    def filename(self) -> str:
        return f"p{self.point:04d}-g{self.start:09d}.parquet"


def _normalise(point: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-friendly copy of a point: tuples as lists, keys sorted."""
    out = {}
    for key in sorted(point):
        value = point[key]
        if isinstance(value, tuple):
            value = list(value)
        out[key] = value
    if "agent" not in out:
        raise ValueError(f"every sweep point needs an 'agent', got {dict(point)!r}")
    return out


def expand_grid(grid: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every combination of the listed values (scalars are held fixed).

    Examples
    --------
    >>> expand_grid({"agent": ["trivial", "csp"], "level": "beginner", "first_click": ["safe", "zero"]})[1]
    {'agent': 'trivial', 'first_click': 'zero', 'level': 'beginner'}
    >>> len(expand_grid({"agent": "best", "noise": [None, ["lost", 0.1]]}))
    2
    """
    keys = list(grid)
    values = [v if isinstance(v, list) else [v] for v in grid.values()]
    return [_normalise(dict(zip(keys, combo, strict=True))) for combo in itertools.product(*values)]


def plan_chunks(n_points: int, games: int, chunk_size: int) -> list[Chunk]:
    """The fixed partition of every point's games into chunks.

    Examples
    --------
    >>> [(c.point, c.start, c.games) for c in plan_chunks(2, 5, 2)][:4]
    [(0, 0, 2), (0, 2, 2), (0, 4, 1), (1, 0, 2)]
    """
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, got {chunk_size!r}")
    starts = range(0, games, chunk_size)
    return [Chunk(p, s, min(chunk_size, games - s)) for p in range(n_points) for s in starts]


def default_chunk_size(games: int) -> int:
    """About 20 chunks per point, between 1 and 200 games each."""
    return max(1, min(200, -(-games // 20)))


def _play_kwargs(point: Mapping[str, Any]) -> dict[str, Any]:
    kwargs = dict(point)
    if kwargs.get("shape") is not None:
        kwargs["shape"] = tuple(kwargs["shape"])
    if kwargs.get("noise") is not None:
        kind, p = kwargs["noise"]
        kwargs["noise"] = (str(kind), float(p))
    if isinstance(kwargs.get("first_move"), list):
        kwargs["first_move"] = tuple(kwargs["first_move"])
    for key, value in kwargs.items():
        if key not in PLAY_KEYS and isinstance(value, list):  # agent options such as methods
            kwargs[key] = tuple(value)
    return kwargs


def run_chunk(point: Mapping[str, Any], chunk: Chunk, seed: int) -> pd.DataFrame:
    """Play one chunk (what a worker runs)."""
    df = play(**_play_kwargs(point), games=chunk.games, seed=seed, start=chunk.start)
    df.insert(0, "point", chunk.point)
    return df


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).resolve().parent)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def _manifest(points, games, seed, chunk_size) -> dict[str, Any]:
    from . import __version__

    return {"points": points, "games": games, "seed": seed, "chunk_size": chunk_size,
            "version": __version__, "git_commit": _git_commit(),
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def _open_output(out: Path, points, games, seed, chunk_size) -> dict[str, Any]:
    """Create ``out`` with its manifest, or check that it holds this very sweep."""
    path = out / MANIFEST
    (out / "chunks").mkdir(parents=True, exist_ok=True)
    if path.exists():
        manifest = json.loads(path.read_text())
        mine = {"points": points, "games": games, "seed": seed}
        theirs = {k: manifest.get(k) for k in mine}
        if theirs != mine:
            raise ValueError(
                f"{out} holds another sweep (its points, games or seed differ); "
                f"choose a new output directory or delete it"
            )
        return manifest
    manifest = _manifest(points, games, seed, chunk_size)
    tmp = out / f".{MANIFEST}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2))
    os.replace(tmp, path)
    return manifest


def _write_chunk(out: Path, chunk: Chunk, df: pd.DataFrame) -> None:
    final = out / "chunks" / chunk.filename
    tmp = final.with_name(f".{chunk.filename}.{os.getpid()}.tmp")
    df.to_parquet(tmp, index=False)
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, final)


def _local_results(executor, tasks, seed) -> Iterator[tuple[Chunk, pd.DataFrame]]:
    futures = {executor.submit(run_chunk, point, chunk, seed): chunk for point, chunk in tasks}
    for fut in as_completed(futures):
        yield futures[fut], fut.result()


def _dask_results(scheduler, tasks, seed) -> Iterator[tuple[Chunk, pd.DataFrame]]:
    from distributed import Client
    from distributed import as_completed as dask_completed

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    try:
        futures = [client.submit(run_chunk, point, chunk, seed, pure=False) for point, chunk in tasks]
        chunk_of = {fut.key: chunk for fut, (_, chunk) in zip(futures, tasks, strict=True)}
        for fut in dask_completed(futures):
            yield chunk_of[fut.key], fut.result()
    finally:
        if client is not scheduler:
            client.close()


def run_sweep(
    points: Iterable[Mapping[str, Any]],
    *,
    games: int,
    seed: int = 0,
    out: str | os.PathLike | None = None,
    chunk_size: int | None = None,
    workers: int | None = None,
    scheduler: Any = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Run (or resume) a sweep and return every game's row.

    Parameters
    ----------
    points : iterable of dict
        Keyword arguments of :func:`sweeplab.play` (see :func:`expand_grid`).
    games : int
        Games per point.
    seed : int
        Root seed.
    out : path, optional
        Directory for the manifest and Parquet chunks; an existing one resumes.
        Without it nothing is written (and nothing can be resumed).
    chunk_size : int, optional
        Games per chunk (kept in the manifest, so a resumed sweep reuses it).
    workers : int, optional
        Local processes (default: every core); 1 runs in this process.
    scheduler : str or distributed.Client, optional
        A Dask scheduler address (or client): run there instead.
    progress : bool
        Show a tqdm bar over games.

    Returns
    -------
    pandas.DataFrame
        One row per game, with a ``point`` column, sorted by point and game.

    Examples
    --------
    >>> point = {"agent": "random", "level": "beginner"}
    >>> run_sweep([point], games=4, workers=1, progress=False)["game"].tolist()
    [0, 1, 2, 3]
    """
    points = [_normalise(p) for p in points]
    if not points:
        raise ValueError("a sweep needs at least one point")
    if isinstance(games, bool) or int(games) != games or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    for p in points:  # fail early, here, on bad parameters
        run_chunk(p, Chunk(0, 0, 0), seed)
    chunk_size = chunk_size or default_chunk_size(games)
    done: dict[Chunk, pd.DataFrame] = {}
    outdir = None if out is None else Path(out)
    if outdir is not None:
        manifest = _open_output(outdir, points, games, seed, chunk_size)
        chunk_size = manifest["chunk_size"]
        for tmp in (outdir / "chunks").glob(".*.tmp"):
            tmp.unlink(missing_ok=True)
    chunks = plan_chunks(len(points), games, chunk_size)
    todo = [c for c in chunks if outdir is None or not (outdir / "chunks" / c.filename).exists()]
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(points) * games, initial=len(points) * games - sum(c.games for c in todo),
                   unit="game", desc="sweep", smoothing=0.05)
    tasks = [(points[c.point], c) for c in todo]
    n_workers = min(workers or os.cpu_count() or 1, max(len(tasks), 1))
    executor = None
    try:
        if not tasks:
            results: Iterable = ()
        elif scheduler is not None:
            results = _dask_results(scheduler, tasks, seed)
        elif n_workers == 1:
            results = ((c, run_chunk(p, c, seed)) for p, c in tasks)
        else:
            ctx = get_context("forkserver")
            ctx.set_forkserver_preload(["sweeplab.simulate"])
            executor = ProcessPoolExecutor(max_workers=n_workers, mp_context=ctx)
            results = _local_results(executor, tasks, seed)
        for chunk, df in results:
            if outdir is not None:
                _write_chunk(outdir, chunk, df)
            else:
                done[chunk] = df
            if bar is not None:
                bar.update(chunk.games)
    finally:
        if bar is not None:
            bar.close()
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
    if outdir is not None:
        return load_results(outdir)
    frames = [done[c] for c in chunks]
    if not frames:
        return pd.DataFrame(columns=["point", *RESULT_COLUMNS])
    return pd.concat(frames, ignore_index=True)


def load_results(out: str | os.PathLike) -> pd.DataFrame:
    """Every finished game of a sweep directory, sorted by point and game.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     point = {"agent": "random", "level": "beginner"}
    ...     _ = run_sweep([point], games=3, out=d, workers=1, progress=False)
    ...     len(load_results(d))
    3
    """
    outdir = Path(out)
    if not (outdir / MANIFEST).exists():
        raise FileNotFoundError(f"{outdir} has no {MANIFEST}: not a sweep directory")
    files = sorted((outdir / "chunks").glob("p*-g*.parquet"))
    if not files:
        return pd.DataFrame(columns=["point", *RESULT_COLUMNS])
    df = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    return df.sort_values(["point", "game"], kind="stable").reset_index(drop=True)
