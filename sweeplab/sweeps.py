"""Parameter sweeps: a grid of parameters x games, run on any executor, resumable.

A sweep is a list of *points* (keyword arguments of :func:`sweeplab.play`:
agent, level or shape and mines, first_click, mode, noise, first_move, agent
options), a number of games per point, a root seed and a chunk size.  Game ``i``
of every point is seeded from ``(seed, i)`` only, so results never depend on
the executor, the worker count or the order in which chunks finish.

On disk (``out`` directory)::

    .lock                    held (flock) by the one sweep writing here
    manifest.json            points, games, seed, chunk size, package version, git commit,
                             code fingerprint (a resume under other code is refused)
    chunks/p0003-g000001200.parquet   games 1200.. of point 3, written atomically

One sweep at a time writes a directory: it holds an exclusive ``flock`` on
``.lock`` (the kernel releases it when the process dies, so the lock of a
killed sweep is taken over by the next one), and a second sweep started
meanwhile is refused, naming the holder.  The manifest is written atomically
before any chunk; a directory holding another sweep is refused, naming the keys
that differ.

A chunk file appears only complete (written to a temporary name unique to its
writer, then renamed) and carries its identity in its Parquet metadata: point
index and parameters, first game, number of games and root seed.  A sweep
stopped in any way (SIGKILL included) and started again with the same ``out``
checks every chunk it finds and runs exactly the missing ones; a chunk that is
unreadable, truncated or belongs elsewhere is logged and recomputed, never
counted: no game lost, none counted twice.

Executors (:mod:`sweeplab.executor`): ``workers=1`` runs in this process;
otherwise a local process pool (every core by default);
``scheduler="tcp://host:8786"`` (or a ``distributed.Client``) runs the chunks on
a Dask cluster.  Workers return results; only this process writes files.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import json
import logging
import os
import secrets
import socket
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .executor import check_count, check_positive, connect, default_chunk_size, run_tasks
from .provenance import check_same_code, code_fingerprint, method_fingerprints, source_commit
from .simulate import RESULT_COLUMNS, concat_results, is_method_column, play

__all__ = ["Chunk", "expand_grid", "plan_chunks", "run_sweep", "load_results", "MANIFEST", "LOCK"]

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
LOCK = ".lock"
#: Parquet metadata key of a chunk's identity.
CHUNK_KEY = b"sweeplab.chunk"
#: Keys a point may hold besides agent options.
PLAY_KEYS = ("agent", "level", "shape", "mines", "density", "first_click", "mode", "noise", "first_move")
#: Manifest keys that define a sweep.
SWEEP_KEYS = ("points", "games", "seed")


@dataclass(frozen=True)
class Chunk:
    """Games ``start .. start + games - 1`` of point ``point``."""

    point: int
    start: int
    games: int

    @property
    def filename(self) -> str:
        return f"p{self.point:04d}-g{self.start:09d}.parquet"


def _json(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def _normalise(point: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-friendly copy of a point: tuples as lists, keys sorted."""
    if not isinstance(point, Mapping):
        raise ValueError(f"a sweep point is a dict of sweeplab.play arguments, got {point!r}")
    if "agent" not in point:
        raise ValueError(f"every sweep point needs an 'agent', got {dict(point)!r}")
    try:
        return {key: _json(point[key]) for key in sorted(point)}
    except (TypeError, ValueError):
        raise ValueError(f"a sweep point holds names, numbers and lists only (it is kept as JSON), "
                         f"got {dict(point)!r}") from None


def is_single_value(key: str, value: list) -> bool:
    """Whether a list given for ``key`` is one value (a shape, noise or cell), not a list to sweep."""
    def number(v):
        return isinstance(v, int | float) and not isinstance(v, bool)

    if key in ("shape", "first_move"):
        return len(value) == 2 and all(number(v) for v in value)
    if key == "noise":
        return len(value) == 2 and isinstance(value[0], str) and number(value[1])
    return False


def expand_grid(grid: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every combination of the listed values (scalars are held fixed).

    A list is swept over (a tuple is one value), except a single ``shape``
    (``[9, 9]``), ``noise`` (``["lost", 0.1]``) or ``first_move`` cell
    (``[3, 4]``), which is one value.
    A value repeated in a list is refused: it would play the same games twice.

    Examples
    --------
    >>> expand_grid({"agent": ["trivial", "csp"], "level": "beginner", "first_click": ["safe", "zero"]})[1]
    {'agent': 'trivial', 'first_click': 'zero', 'level': 'beginner'}
    >>> len(expand_grid({"agent": "best", "noise": [None, ["lost", 0.1]]}))
    2
    >>> expand_grid({"agent": "trivial", "shape": [9, 9], "mines": 10})
    [{'agent': 'trivial', 'mines': 10, 'shape': [9, 9]}]
    """
    keys = list(grid)
    values = []
    for key, value in grid.items():
        if not isinstance(value, list) or is_single_value(key, value):
            values.append([value])
            continue
        if not value:
            raise ValueError(f"grid key {key!r} has an empty list of values")
        seen = set()
        for v in value:
            text = json.dumps(v, sort_keys=True, default=repr)
            if text in seen:
                raise ValueError(f"grid key {key!r} repeats the value {v!r} (in {value!r}): "
                                 f"each value is played with the same seeded games, give it once")
            seen.add(text)
        values.append(value)
    return [_normalise(dict(zip(keys, combo, strict=True))) for combo in itertools.product(*values)]


def plan_chunks(n_points: int, games: int, chunk_size: int) -> list[Chunk]:
    """The fixed partition of every point's games into chunks.

    Examples
    --------
    >>> [(c.point, c.start, c.games) for c in plan_chunks(2, 5, 2)][:4]
    [(0, 0, 2), (0, 2, 2), (0, 4, 1), (1, 0, 2)]
    """
    check_positive("chunk_size", chunk_size)
    starts = range(0, games, chunk_size)
    return [Chunk(p, s, min(chunk_size, games - s)) for p in range(n_points) for s in starts]


def _play_kwargs(point: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments of :func:`sweeplab.play` from a JSON point (lists back to tuples)."""
    def whole(v):
        return isinstance(v, int) and not isinstance(v, bool)

    kwargs = dict(point)
    shape = kwargs.get("shape")
    if shape is not None:
        if not isinstance(shape, list | tuple) or len(shape) != 2 or not all(whole(v) for v in shape):
            raise ValueError(f"shape must be [height, width] (two whole numbers), got {shape!r}")
        kwargs["shape"] = tuple(shape)
    noise = kwargs.get("noise")
    if noise is not None:
        if (not isinstance(noise, list | tuple) or len(noise) != 2 or not isinstance(noise[0], str)
                or isinstance(noise[1], bool) or not isinstance(noise[1], int | float)):
            raise ValueError(f"noise must be None or [kind, p] such as ['lost', 0.1], got {noise!r}")
        kwargs["noise"] = (noise[0], float(noise[1]))
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


def _atomic_write(path: Path, write) -> None:
    """Call ``write(tmp)`` on a temporary file unique to this writer, then rename it to ``path``."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(6)}.tmp")
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))  # honours the umask
    try:
        write(tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _read_manifest(path: Path) -> dict[str, Any]:
    """A sweep directory's manifest, or ``ValueError`` naming the file."""
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a readable sweep manifest ({exc}); delete the directory or choose "
                         f"another output directory") from None
    if not isinstance(manifest, dict):
        raise ValueError(f"{path}: a sweep manifest is a JSON object, got {type(manifest).__name__}")
    for key in ("points", "games", "seed", "chunk_size"):
        if key not in manifest:
            raise ValueError(f"{path}: sweep manifest has no {key!r}")
    ok = (isinstance(manifest["points"], list) and all(isinstance(p, dict) for p in manifest["points"])
          and all(isinstance(manifest[k], int) and not isinstance(manifest[k], bool)
                  for k in ("games", "seed", "chunk_size"))
          and manifest["games"] >= 1 and manifest["chunk_size"] >= 1)
    if not ok:
        raise ValueError(f"{path}: sweep manifest has malformed points, games, seed or chunk_size")
    return manifest


#: Descriptors of the directory locks this process holds.
_HELD_LOCKS: set[int] = set()


def _drop_held_locks() -> None:
    """In a forked worker: close the inherited lock descriptors, so that the lock lives and dies with
    the sweep that took it (a worker outliving a killed sweep must not keep its directory locked)."""
    for fd in _HELD_LOCKS:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD_LOCKS.clear()


os.register_at_fork(after_in_child=_drop_held_locks)


class _DirectoryLock:
    """An exclusive ``flock`` on ``out/.lock``, naming its holder inside the file."""

    def __init__(self, out: Path):
        self.path = out / LOCK
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = self._holder() or "holder unknown"
            os.close(self.fd)
            raise ValueError(f"{out} is in use by another running sweep ({holder}); wait for it to finish "
                             f"or choose another output directory") from None
        except BaseException:
            os.close(self.fd)
            raise
        stale = self._holder()
        if stale:  # a holder that did not release: it was killed, and the kernel dropped its lock
            log.info("%s: taking over the lock of a stopped sweep (%s)", out, stale)
        os.ftruncate(self.fd, 0)
        start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        os.pwrite(self.fd, f"pid {os.getpid()} on {socket.gethostname()} since {start}\n".encode(), 0)
        _HELD_LOCKS.add(self.fd)

    def _holder(self) -> str:
        return os.pread(self.fd, 4096, 0).decode("utf-8", "replace").strip()

    def release(self) -> None:
        _HELD_LOCKS.discard(self.fd)
        with contextlib.suppress(OSError):
            os.ftruncate(self.fd, 0)
        os.close(self.fd)


def _prepare_output(out: Path) -> _DirectoryLock:
    """Create ``out`` (and ``chunks``), lock it and check that it is writable."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"out={str(out)!r} is a file; give a directory (new, or one a sweep wrote)")
    try:
        (out / "chunks").mkdir(parents=True, exist_ok=True)
        lock = _DirectoryLock(out)
    except OSError as exc:
        raise ValueError(f"cannot write to the sweep directory {str(out)!r} ({exc.strerror or exc}); "
                         f"give a writable directory") from None
    try:
        for tmp in (out / "chunks").glob(".*.tmp"):  # left by a killed sweep: we hold the lock now
            tmp.unlink(missing_ok=True)
        for tmp in out.glob(f".{MANIFEST}.*.tmp"):
            tmp.unlink(missing_ok=True)
        fd, probe = tempfile.mkstemp(dir=out / "chunks", prefix=".probe.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        lock.release()
        raise ValueError(f"cannot write to the sweep directory {str(out)!r} ({exc.strerror or exc}); "
                         f"give a writable directory") from None
    return lock


def _difference(key: str, theirs: Any, mine: Any) -> str:
    """How a manifest value differs from the requested one, in a few words."""
    if key != "points":
        return f"{key} {theirs!r} there, {mine!r} here"
    if len(theirs) != len(mine):
        return f"{len(theirs)} points there, {len(mine)} here"
    i = next(i for i, (a, b) in enumerate(zip(theirs, mine, strict=True)) if a != b)
    return f"point {i} is {theirs[i]!r} there, {mine[i]!r} here"


def _open_manifest(out: Path, points, games, seed, chunk_size) -> dict[str, Any]:
    """The manifest of ``out`` after checking it holds this sweep, or a new one written atomically."""
    path = out / MANIFEST
    if path.exists():
        manifest = _read_manifest(path)
        mine = {"points": points, "games": games, "seed": seed}
        if chunk_size is not None:
            mine["chunk_size"] = chunk_size
        differ = [k for k in mine if _json(manifest[k]) != _json(mine[k])]
        if differ:
            detail = "; ".join(_difference(k, manifest[k], mine[k]) for k in differ)
            raise ValueError(f"{path} holds another sweep: its {', '.join(differ)} differ ({detail}); "
                             f"run the same sweep to resume it, or choose another output directory")
        check_same_code(manifest, out)
        return manifest
    from . import __version__

    manifest = {"points": points, "games": games, "seed": seed,
                "chunk_size": chunk_size or default_chunk_size(games),
                "version": __version__, "git_commit": source_commit()[0], "code": code_fingerprint(),
                "methods": method_fingerprints(points),
                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    _atomic_write(path, lambda tmp: Path(tmp).write_text(json.dumps(manifest, indent=2), encoding="utf-8"))
    return manifest


def _identity(points: list[dict[str, Any]], chunk: Chunk, seed: int) -> dict[str, Any]:
    return {"point": chunk.point, "params": points[chunk.point], "start": chunk.start, "games": chunk.games,
            "seed": seed}


def _write_chunk(out: Path, chunk: Chunk, df: pd.DataFrame, identity: Mapping[str, Any]) -> None:
    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           CHUNK_KEY: json.dumps(identity).encode()})
    _atomic_write(out / "chunks" / chunk.filename, lambda tmp: pq.write_table(table, tmp))


def _read_chunk(path: Path, identity: Mapping[str, Any]) -> pd.DataFrame:
    """A chunk's rows after checking they are the games ``identity`` names; ``ValueError`` why not."""
    try:
        table = pq.read_table(path)
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise ValueError(f"unreadable or truncated ({type(exc).__name__})") from None
    stored = (table.schema.metadata or {}).get(CHUNK_KEY)
    if stored is None:
        raise ValueError("it carries no chunk identity")
    try:
        theirs = json.loads(stored)
    except ValueError:
        raise ValueError("its chunk identity is corrupt") from None
    if not isinstance(theirs, dict) or theirs != identity:
        differ = sorted(k for k in identity if not isinstance(theirs, dict) or theirs.get(k) != identity[k])
        raise ValueError(f"it belongs to another chunk or sweep (its {', '.join(differ)} differ)")
    df = table.to_pandas()
    games = list(range(identity["start"], identity["start"] + identity["games"]))
    standard = len(RESULT_COLUMNS) + 1
    if (list(df.columns[:standard]) != ["point", *RESULT_COLUMNS]
            or not all(is_method_column(c) for c in df.columns[standard:]) or df["game"].tolist() != games
            or (df["point"] != identity["point"]).any() or (df["seed"] != identity["seed"]).any()):
        raise ValueError("its rows are not the games its identity names")
    return df


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
        Keyword arguments of :func:`sweeplab.play` (see :func:`expand_grid`);
        no two alike.
    games : int
        Games per point.
    seed : int
        Root seed.
    out : path, optional
        Directory for the manifest and Parquet chunks; an existing one resumes.
        Without it nothing is written (and nothing can be resumed).
    chunk_size : int, optional
        Games per chunk (kept in the manifest: a resumed sweep reuses it).
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

    Raises
    ------
    ValueError
        Bad parameters, a duplicated point, an ``out`` that is a file, not
        writable, held by another running sweep or holding another sweep.

    Examples
    --------
    >>> point = {"agent": "random", "level": "beginner"}
    >>> run_sweep([point], games=4, workers=1, progress=False)["game"].tolist()
    [0, 1, 2, 3]
    """
    if isinstance(points, Mapping):
        raise ValueError("points is a list of dicts (see expand_grid), got a single dict")
    points = [_normalise(p) for p in points]
    if not points:
        raise ValueError("a sweep needs at least one point")
    first: dict[str, int] = {}
    for i, p in enumerate(points):
        text = json.dumps(p, sort_keys=True)
        if text in first:
            raise ValueError(f"sweep point {i} repeats point {first[text]} ({p!r}): it would play the same "
                             f"seeded games twice; give each point once")
        first[text] = i
    games = int(check_positive("games", games))  # type: ignore[arg-type]  # never None without none=
    seed = check_count("seed", seed)
    chunk_size = check_positive("chunk_size", chunk_size, none="about 20 chunks per point")
    check_positive("workers", workers, none="every core")
    for i, p in enumerate(points):  # fail early, here, on bad parameters
        try:
            run_chunk(p, Chunk(0, 0, 0), seed)
        except TypeError as exc:  # a value of the wrong type, deep in play
            raise ValueError(f"sweep point {i} {p!r}: a parameter has the wrong type ({exc})") from None
    client, owned = connect(scheduler) if scheduler is not None else (None, False)  # fail before writing
    outdir = None if out is None else Path(out)
    try:
        lock = None if outdir is None else _prepare_output(outdir)
    except BaseException:
        if owned and client is not None:
            client.close()
        raise
    done: dict[Chunk, pd.DataFrame] = {}
    try:
        if outdir is not None:
            chunk_size = _open_manifest(outdir, points, games, seed, chunk_size)["chunk_size"]
        chunks = plan_chunks(len(points), games, chunk_size or default_chunk_size(games))
        todo = chunks if outdir is None else [c for c in chunks if not _chunk_ok(outdir, points, c, seed)]
        _run(points, chunks, todo, seed, outdir, workers, client, progress, done)
        if outdir is not None:
            return load_results(outdir)
    finally:
        if lock is not None:
            lock.release()
        if owned and client is not None:
            client.close()
    return concat_results([done[c] for c in chunks])


def _chunk_ok(out: Path, points, chunk: Chunk, seed: int) -> bool:
    """Whether ``chunk`` is on disk and sound; a bad one is logged and removed."""
    path = out / "chunks" / chunk.filename
    if not path.exists():
        return False
    try:
        _read_chunk(path, _identity(points, chunk, seed))
    except ValueError as exc:
        log.warning("%s: %s; recomputing it", path, exc)
        path.unlink(missing_ok=True)
        return False
    return True


def _run(points, chunks, todo, seed, outdir, workers, scheduler, progress, done) -> None:
    """Play the chunks ``todo``: write each to ``outdir``, or keep it in ``done``."""
    bar = None
    if progress:
        from tqdm.auto import tqdm

        total = sum(c.games for c in chunks)
        bar = tqdm(total=total, initial=total - sum(c.games for c in todo), unit="game", desc="sweep",
                   smoothing=0.05)
    tasks = [{"point": points[c.point], "chunk": c, "seed": seed} for c in todo]
    try:
        with contextlib.closing(run_tasks(run_chunk, tasks, workers=workers, scheduler=scheduler)) as results:
            for i, df in results:
                chunk = todo[i]
                if outdir is not None:
                    _write_chunk(outdir, chunk, df, _identity(points, chunk, seed))
                else:
                    done[chunk] = df
                if bar is not None:
                    bar.update(chunk.games)
    finally:
        if bar is not None:
            bar.close()


def load_results(out: str | os.PathLike) -> pd.DataFrame:
    """Every finished game of a sweep directory, sorted by point and game.

    Only the chunks the manifest plans are read, and each is checked against
    its identity: a bad one raises ``ValueError`` naming it (running the sweep
    again recomputes it).

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
    path = outdir / MANIFEST
    if not path.is_file():
        raise FileNotFoundError(f"{outdir} has no {MANIFEST}: not a sweep directory")
    manifest = _read_manifest(path)
    points = manifest["points"]
    frames = []
    for chunk in plan_chunks(len(points), manifest["games"], manifest["chunk_size"]):
        file = outdir / "chunks" / chunk.filename
        if not file.exists():
            continue
        try:
            frames.append(_read_chunk(file, _identity(points, chunk, manifest["seed"])))
        except ValueError as exc:
            raise ValueError(f"{file}: {exc}; run the sweep again to recompute it") from None
    if not frames:
        return pd.DataFrame(columns=["point", *RESULT_COLUMNS])
    return concat_results(frames)
