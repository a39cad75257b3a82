"""The directory of a resumable run: one writer, a manifest, and chunks that prove their identity.

:func:`sweeplab.sweeps.run_sweep` and :func:`sweeplab.reach.run_games` keep
their results here, in the same layout::

    .lock                    held (flock) by the one run writing here
    manifest.json            what the run is, the package version, git commit and code fingerprints
    chunks/p0003-g000001200.parquet   games 1200.. of point 3, written atomically

Both write through the functions of this module; what tells them apart (the
words of their messages, the manifest keys that define a run, the Parquet
metadata key of a chunk's identity, extra checks of a chunk's rows) is a
:class:`RunFormat`.  A directory is locked by :func:`prepare_output`, its
manifest written or checked by :func:`open_manifest` (a run under other code
is refused: :func:`sweeplab.provenance.check_same_code`), and its chunks
written by :func:`write_chunk` and read back, checked, by :func:`read_chunk`
or :func:`load_chunk`.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import hashlib
import json
import logging
import os
import re
import secrets
import socket
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .executor import check_plan, check_positive, default_chunk_size, split_range
from .provenance import check_same_code, code_fingerprint, environment, made_by, method_fingerprints

__all__ = ["MANIFEST", "LOCK", "CHUNKS", "Chunk", "RunFormat", "plan_chunks", "atomic_write", "output_path",
           "prepare_output", "read_manifest", "open_manifest", "chunk_identity", "legacy_chunks",
           "write_chunk", "read_chunk", "load_chunk", "unplanned_chunks", "json_value", "rows_digest",
           "same_json"]

log = logging.getLogger(__name__)


def json_value(value: Any) -> Any:
    """``value`` as it reads back from a manifest's JSON: tuples become lists, numpy numbers and arrays
    Python ones (``mines=np.int64(10)`` is the number 10); ``TypeError`` for what JSON cannot hold.

    Examples
    --------
    >>> json_value({"shape": (9, 9), "mines": np.int64(10)})
    {'shape': [9, 9], 'mines': 10}
    """
    return json.loads(json.dumps(value, default=_numpy_value))


def same_json(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` write the same JSON: ``==`` that tells ``1`` from ``1.0`` and ``True``.

    A run's points and identities are compared so: a resume that spelt an option ``1.0`` where the run
    wrote ``1`` would otherwise pass as the same run and label its new rows with the other spelling.

    Examples
    --------
    >>> {"bonus": 1} == {"bonus": 1.0}, same_json({"bonus": 1}, {"bonus": 1.0})
    (True, False)
    >>> same_json({"shape": (9, 9), "mines": np.int64(10)}, {"mines": 10, "shape": [9, 9]})
    True
    """
    def text(value: Any) -> str:
        return json.dumps(value, sort_keys=True, default=_numpy_value)

    return text(a) == text(b)


def _numpy_value(value: Any) -> Any:
    """``json.dumps``'s hook for what it cannot write: numpy numbers and arrays, else ``TypeError``."""
    if isinstance(value, np.generic | np.ndarray):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON")

MANIFEST = "manifest.json"
#: A chunk's file name, as :attr:`Chunk.filename` writes it (read back by :func:`_foreign_files`).
_CHUNK_NAME = re.compile(r"p\d{4,}-g\d{9,}\.parquet")
LOCK = ".lock"
#: The folder of the chunk files.
CHUNKS = "chunks"


@dataclass(frozen=True)
class Chunk:
    """Games ``start .. start + games - 1`` of point ``point``."""

    point: int
    start: int
    games: int

    @property
    def filename(self) -> str:
        return f"p{self.point:04d}-g{self.start:09d}.parquet"


@dataclass(frozen=True)
class RunFormat:
    """What tells one kind of resumable run from another, on disk and in its messages.

    Parameters
    ----------
    noun : str
        The run in messages (``"sweep"``).
    manifest : str
        Its manifest in messages (``"sweep manifest"``).
    resume : str
        How to resume it, in messages (``"run the same sweep"``).
    keys : tuple of str
        The manifest keys that define a run (with ``chunk_size`` when it is given).
    chunk_key : bytes
        The Parquet metadata key of a chunk's identity.
    check_rows : callable, optional
        ``check_rows(df, identity)`` raises ``ValueError`` when a chunk's rows are
        not the games its identity names (beyond the checks of :func:`read_chunk`).
    """

    noun: str
    manifest: str
    resume: str
    keys: tuple[str, ...]
    chunk_key: bytes
    check_rows: Callable[[pd.DataFrame, Mapping[str, Any]], None] | None = None


def plan_chunks(n_points: int, games: int, chunk_size: int) -> list[Chunk]:
    """The fixed partition of every point's games into chunks.

    Examples
    --------
    >>> [(c.point, c.start, c.games) for c in plan_chunks(2, 5, 2)][:4]
    [(0, 0, 2), (0, 2, 2), (0, 4, 1), (1, 0, 2)]
    """
    check_positive("chunk_size", chunk_size)
    check_plan(n_points, games, chunk_size)
    parts = split_range(games, chunk_size)
    return [Chunk(p, s, n) for p in range(n_points) for s, n in parts]


def _host() -> str:
    """This host's name as a part of a file name."""
    return socket.gethostname().replace(os.sep, "_")


def _writer_tag() -> str:
    """This process in a temporary file's name: its host and process id (a shared disk has other hosts)."""
    return f"{_host()}-{os.getpid()}"


#: A temporary file of :func:`atomic_write` untouched this long, whose writer is no process here, was
#: left by a killed one (a live writer in another PID namespace of the same host name is not seen by
#: its pid, but its file is written in seconds).
_LEFTOVER_SECONDS = 600


def _remove_dead_writers_files(path: Path) -> None:
    """Remove the temporary files of ``path`` that killed writers of this host left."""
    pattern = re.compile(rf"\.{re.escape(path.name)}\.{re.escape(_host())}-(\d+)\.[0-9a-f]+\.tmp")
    with contextlib.suppress(OSError):
        for tmp in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
            found = pattern.fullmatch(tmp.name)
            if (found and not _alive(int(found[1]))
                    and time.time() - tmp.stat().st_mtime > _LEFTOVER_SECONDS):
                tmp.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    """A process ``pid`` runs on this host (another user's too)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True
    return True


def atomic_write(path: Path, write: Callable[[Path], Any], *, remove_leftovers: bool = True) -> None:
    """Call ``write(tmp)`` on a temporary file unique to this writer, then rename it to ``path``.

    With ``remove_leftovers``, the temporary files of ``path`` that killed writers on this host left are
    removed first (a run's chunks pass ``False``: :func:`prepare_output` removes theirs under the lock,
    without listing the chunk folder at every write).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     atomic_write(Path(d) / "a.txt", lambda tmp: tmp.write_text("done"))
    ...     sorted(p.name for p in Path(d).iterdir()), (Path(d) / "a.txt").read_text()
    (['a.txt'], 'done')
    """
    if path.is_symlink():  # the file it links to is replaced, and the link stays (a shared corpus)
        path = path.resolve()
    if remove_leftovers:
        _remove_dead_writers_files(path)
    tmp = path.with_name(f".{path.name}.{_writer_tag()}.{secrets.token_hex(6)}.tmp")
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


#: Descriptors of the directory locks this process holds.
_HELD_LOCKS: set[int] = set()


def _drop_held_locks() -> None:
    """In a forked worker: close the inherited lock descriptors, so that the lock lives and dies with
    the run that took it (a worker outliving a killed run must not keep its directory locked)."""
    for fd in _HELD_LOCKS:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD_LOCKS.clear()


os.register_at_fork(after_in_child=_drop_held_locks)


class _DirectoryLock:
    """An exclusive ``flock`` on ``out/.lock``, naming its holder inside the file."""

    def __init__(self, out: Path, noun: str):
        self.path = out / LOCK
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = self._holder() or "holder unknown"
            os.close(self.fd)
            raise ValueError(f"{out} is in use by another process ({holder}); wait for it to finish or "
                             f"choose another output directory") from None
        except BaseException:
            os.close(self.fd)
            raise
        stale = self._holder()
        if stale:  # a holder that did not release: it was killed, and the kernel dropped its lock
            log.info("%s: taking over the lock of a stopped run (%s)", out, stale)
        os.ftruncate(self.fd, 0)
        start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        holder = f"a {noun}, pid {os.getpid()} on {socket.gethostname()} since {start}"  # a sweep or report
        os.pwrite(self.fd, f"{holder}\n".encode(), 0)
        _HELD_LOCKS.add(self.fd)

    def _holder(self) -> str:
        return os.pread(self.fd, 4096, 0).decode("utf-8", "replace").strip()

    def release(self) -> None:
        _HELD_LOCKS.discard(self.fd)
        with contextlib.suppress(OSError):
            os.ftruncate(self.fd, 0)
        os.close(self.fd)


def output_path(out: str | os.PathLike | None) -> Path | None:
    """``out`` as a ``Path`` (``None`` stays ``None``); ``ValueError`` for an empty name, which would
    mean the current directory (an unset shell variable in ``--out "$DIR"``).

    Examples
    --------
    >>> output_path("runs/expert")
    PosixPath('runs/expert')
    >>> output_path("")
    Traceback (most recent call last):
    ...
    ValueError: out='' names no directory; give a path (out='.' for the current directory)
    """
    if out is None:
        return None
    if not str(out).strip():
        raise ValueError(f"out={str(out)!r} names no directory; give a path "
                         f"(out='.' for the current directory)")
    return Path(out)


def _foreign_files(out: Path) -> list[str]:
    """What in ``out`` no run wrote: with a manifest, that manifest when it is JSON without a run's
    ``points`` (another program's); without one, every file but a run's lock, chunks and temporary
    files (with its manifest deleted, the chunks are checked by identity) and hidden entries such as
    ``.DS_Store`` or ``.ipynb_checkpoints``, which a run never touches.  Read by name only: a
    concurrent run's files come, go and are renamed meanwhile."""
    if not out.is_dir():
        return []
    manifest = out / MANIFEST
    if manifest.exists():
        try:
            held = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # unreadable: read_manifest says so, naming the file
            return []
        # a JSON object without a run's points is another program's; anything else read_manifest names
        return [MANIFEST + " (not a run's)"] if isinstance(held, dict) and "points" not in held else []
    found = []
    for path in sorted(out.iterdir()):
        if path.name == CHUNKS and path.is_dir():
            found += [f"{CHUNKS}/{p.name}" for p in sorted(path.iterdir())
                      if not (_CHUNK_NAME.fullmatch(p.name) or p.name.endswith(".tmp"))]
        elif not path.name.startswith("."):
            found.append(path.name)
    return found


def manifest_writer(out: Path) -> str | None:
    """What wrote ``out/manifest.json``, told by its keys: ``"run"`` (a sweep, ``play --out`` or
    ``compare --out``: its points), ``"report"`` (its experiments), ``"bench"`` (its corpus hash);
    ``"other"`` for any other JSON object, ``None`` when there is no manifest or it cannot be read."""
    try:
        held = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(held, dict):
        return None
    return next((kind for key, kind in (("points", "run"), ("experiments", "report"),
                                         ("corpus_sha256", "bench")) if key in held), "other")


def check_manifest_writer(out: Path, writer: str, *, flag: str = "--out") -> None:
    """``ValueError`` when ``out`` holds the manifest of another kind of results than ``writer``'s (a
    ``"bench"`` or ``"report"``), which writing would replace: a sweep's games could then be neither
    loaded nor resumed."""
    held = manifest_writer(out)
    if held is not None and held != writer:
        what = {"run": "a sweep's (or play's or compare's) run", "report": "a report's",
                "bench": "a bench's", "other": "another program's"}[held]
        raise ValueError(f"{flag} {out} holds {what} manifest.json, which this {writer} would replace "
                         f"(and lose what it describes); give another folder")


def _first_names(names: list[str]) -> str:
    """The first three of ``names``, and how many more, for a message."""
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def prepare_output(out: Path, noun: str) -> _DirectoryLock:
    """Create ``out`` (and its chunk folder), lock it and check that it is writable.

    Parameters
    ----------
    out : Path
        The run's directory, new or written by a run before.
    noun : str
        The run in messages (``"sweep"``).

    Returns
    -------
    _DirectoryLock
        The lock, held until its ``release()``.

    Raises
    ------
    ValueError
        ``out`` is a file, holds files no run wrote, is not writable, or is locked by
        another running process.
    """
    if out.exists() and not out.is_dir():
        raise ValueError(f"out={str(out)!r} is a file; give a directory (new, or one a {noun} wrote)")
    if (out / CHUNKS).exists() and not (out / CHUNKS).is_dir():
        raise ValueError(f"{str(out / CHUNKS)!r} is a file; a {noun} keeps its chunks in a folder of that "
                         f"name: move the file away or give another directory")
    foreign = _foreign_files(out)
    if foreign:
        raise ValueError(f"out={str(out)!r} holds {_first_names(foreign)}: not a directory a {noun} wrote, "
                         f"so nothing in it is touched; give a new or empty directory")
    try:
        (out / CHUNKS).mkdir(parents=True, exist_ok=True)
        lock = _DirectoryLock(out, noun)
    except OSError as exc:
        raise ValueError(f"cannot write to the {noun} directory {str(out)!r} ({exc.strerror or exc}); "
                         f"give a writable directory") from None
    try:
        for tmp in (out / CHUNKS).glob(".*.tmp"):  # left by a killed run: we hold the lock now
            tmp.unlink(missing_ok=True)
        for tmp in out.glob(f".{MANIFEST}.*.tmp"):
            tmp.unlink(missing_ok=True)
        fd, probe = tempfile.mkstemp(dir=out / CHUNKS, prefix=".probe.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        lock.release()
        raise ValueError(f"cannot write to the {noun} directory {str(out)!r} ({exc.strerror or exc}); "
                         f"give a writable directory") from None
    return lock


#: What to do with a damaged manifest: its finished chunks name their point, seed and code, so a run
#: started again without it keeps exactly those that are its own.
_REMAKE_MANIFEST = ("delete that file (not the folder) and run the command that made the run again: its "
                    "finished chunks are checked and kept")


def read_manifest(path: Path, fmt: RunFormat) -> dict[str, Any]:
    """A run directory's manifest, or ``ValueError`` naming the file.

    Every key of ``fmt.keys`` and ``chunk_size`` must be there; ``points`` (at least one),
    ``games``, ``seed`` and ``chunk_size`` must be well formed, and so must
    ``environment`` and ``methods`` when they are there.
    """
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a readable {fmt.manifest} ({exc}); {_REMAKE_MANIFEST}") from None
    if not isinstance(manifest, dict):
        raise ValueError(f"{path}: a {fmt.manifest} is a JSON object, got {type(manifest).__name__}")
    if ("kind" in manifest) != ("kind" in fmt.keys):  # the two kinds of run: only run_games records a kind
        held = (f"a run of run_games (kind {manifest['kind']!r}: run_games with its arguments reads it back)"
                if "kind" in manifest else "a sweep (sweeplab.load_results reads it)")
        raise ValueError(f"{path}: the directory holds {held}, not a {fmt.noun}; choose another output "
                         f"directory")
    for key in (*fmt.keys, "chunk_size"):
        if key not in manifest:
            raise ValueError(f"{path}: {fmt.manifest} has no {key!r}")
    ok = (isinstance(manifest["points"], list) and manifest["points"]  # every run has a point
          and all(isinstance(p, dict) for p in manifest["points"])
          and all(isinstance(manifest[k], int) and not isinstance(manifest[k], bool)
                  for k in ("games", "seed", "chunk_size"))
          and manifest["games"] >= 1 and manifest["chunk_size"] >= 1)
    if not ok:
        raise ValueError(f"{path}: {fmt.manifest} has malformed points, games, seed or chunk_size; "
                         f"{_REMAKE_MANIFEST}")
    for key in ("environment", "methods"):  # names to versions, names to fingerprints (or absent: older)
        value = manifest.get(key)
        if value is not None and not (isinstance(value, dict)
                                      and all(isinstance(v, str) for v in value.values())):
            raise ValueError(f"{path}: {fmt.manifest} has a malformed {key!r} (a JSON object of strings, got "
                             f"{value!r:.60}); {_REMAKE_MANIFEST}")
    return manifest


def _difference(key: str, theirs: Any, mine: Any) -> str:
    """How a manifest value differs from the requested one, in a few words."""
    if key != "points":
        return f"{key} {theirs!r} there, {mine!r} here"
    if len(theirs) != len(mine):
        return f"{len(theirs)} points there, {len(mine)} here"
    i = next(i for i, (a, b) in enumerate(zip(theirs, mine, strict=True)) if a != b)
    texts = [sorted(json.dumps(p, sort_keys=True) for p in points) for points in (theirs, mine)]
    order = (" (the same points in another order, as the grid's keys or values were given in another "
             "order: give them in the order of the run's manifest)" if texts[0] == texts[1] else "")
    return f"point {i} is {theirs[i]!r} there, {mine[i]!r} here{order}"


def open_manifest(out: Path, fmt: RunFormat, run: Mapping[str, Any], chunk_size: int | None
                  ) -> dict[str, Any]:
    """The manifest of ``out`` after checking it holds this run, or a new one written atomically.

    Parameters
    ----------
    out : Path
        The run's directory (locked by :func:`prepare_output`).
    fmt : RunFormat
        The kind of run.
    run : mapping
        The value of every key of ``fmt.keys`` (``points`` a list of JSON dicts).
    chunk_size : int, optional
        Games per chunk; ``None`` takes the manifest's, or the default for a new run.

    Returns
    -------
    dict
        The manifest: ``run``'s keys, ``chunk_size``, ``version``, ``git_commit``, ``git_dirty``,
        ``code`` and ``methods`` (fingerprints), ``environment`` (the versions that can change
        games, :func:`~sweeplab.provenance.environment`), ``chunk_fingerprints`` (every chunk
        of this run carries them: see :func:`legacy_chunks`), ``chunk_digests`` (every chunk of
        this run carries a digest of its rows: see :func:`chunk_identity`) and ``created``.

    Raises
    ------
    ValueError
        The manifest is unreadable, holds another run, or was written by other code; or a new run
        has more chunks than a run plans (:func:`~sweeplab.executor.check_plan`).
    """
    path = out / MANIFEST
    mine = json_value({key: run[key] for key in fmt.keys})  # as it reads back (tuples as lists)
    if path.exists():
        manifest = read_manifest(path, fmt)
        if chunk_size is not None:
            mine["chunk_size"] = chunk_size
        differ = [k for k in mine if not same_json(manifest[k], mine[k])]
        if differ:
            detail = "; ".join(_difference(k, manifest[k], mine[k]) for k in differ)
            raise ValueError(f"{path} holds another {fmt.noun}: its {', '.join(map(repr, differ))} "
                             f"{'differs' if len(differ) == 1 else 'differ'} ({detail}); "
                             f"{fmt.resume} to resume it, or choose another output directory")
        check_same_code(manifest, out)
        return manifest
    chunk_size = chunk_size or default_chunk_size(mine["games"])
    check_plan(len(mine["points"]), mine["games"], chunk_size)  # before a manifest names the run
    manifest = {**mine, "chunk_size": chunk_size, **made_by(), "environment": environment(),
                "methods": method_fingerprints(mine["points"]), "chunk_fingerprints": True,
                "chunk_digests": True, "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    atomic_write(path, lambda tmp: tmp.write_text(json.dumps(manifest, indent=2), encoding="utf-8"))
    return manifest


def chunk_identity(chunk: Chunk, params: Mapping[str, Any], seed: int, manifest: Mapping[str, Any],
                   **extra: Any) -> dict[str, Any]:
    """What a chunk file says it holds: ``extra``, the point, its parameters, the games, the seed, and the
    fingerprints of the code that played them (the manifest's ``code`` and ``methods``, and its
    ``environment`` when it records one).

    With the fingerprints in every chunk, games played by other code are recomputed even when the
    manifest that named that code is gone (a new manifest names the code running now).  A manifest
    from before fingerprints were recorded gives ``None`` for both; a chunk written before chunks
    carried them is read on the manifest's word alone, and only under a manifest written before
    then (:func:`legacy_chunks`).

    Under a manifest with ``chunk_digests`` the identity says ``rows_digest``: the chunk carries a
    digest of its rows (:func:`rows_digest`), so rows edited after the run wrote them are refused.

    Examples
    --------
    >>> identity = chunk_identity(Chunk(1, 20, 10), {"agent": "trivial"}, 7, {"code": "ab12", "methods": {}})
    >>> identity["params"], identity["start"], identity["code"]
    ({'agent': 'trivial'}, 20, 'ab12')
    """
    versions = {"environment": manifest["environment"]} if "environment" in manifest else {}
    digest = {"rows_digest": True} if manifest.get("chunk_digests") else {}
    return {**extra, "point": chunk.point, "params": params, "start": chunk.start, "games": chunk.games,
            "seed": seed, "code": manifest.get("code"), "methods": manifest.get("methods"), **versions,
            **digest}


def rows_digest(df: pd.DataFrame) -> str:
    """A SHA-256 digest of a chunk's rows: its column names and every value (pandas' value hashes).

    Examples
    --------
    >>> a = pd.DataFrame({"game": [0, 1], "won": [True, False]})
    >>> rows_digest(a) == rows_digest(a.copy()), rows_digest(a) == rows_digest(a.assign(won=[True, True]))
    (True, False)
    """
    digest = hashlib.sha256(json.dumps([str(c) for c in df.columns]).encode())
    digest.update(pd.util.hash_pandas_object(df, index=False).to_numpy().tobytes())
    return digest.hexdigest()


def legacy_chunks(manifest: Mapping[str, Any]) -> bool:
    """Whether chunks without fingerprints may be read under ``manifest`` (on its word).

    Only a manifest written before chunks carried fingerprints vouches for them: under one
    written since, such a chunk was left by older code (its manifest deleted after a refused
    resume, say), and is recomputed.

    Examples
    --------
    >>> legacy_chunks({"code": "ab12"}), legacy_chunks({"code": "ab12", "chunk_fingerprints": True})
    (True, False)
    """
    return not manifest.get("chunk_fingerprints", False)


def _digest_key(fmt: RunFormat) -> bytes:
    """The Parquet metadata key of a chunk's :func:`rows_digest`, beside its identity's."""
    return fmt.chunk_key + b".rows"


def write_chunk(out: Path, fmt: RunFormat, chunk: Chunk, df: pd.DataFrame, identity: Mapping[str, Any]
                ) -> None:
    """Write a chunk's rows atomically, with ``identity`` under ``fmt.chunk_key`` in the Parquet metadata.

    Refused (``ValueError``) when sweeplab's source changed on disk since this process imported it
    (:func:`~sweeplab.provenance.code_fingerprint`): a worker that imported a module after the change
    may have played the chunk with the new code, which the run's fingerprint does not name.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    code_fingerprint()  # checked at every chunk, not only when the run starts
    table = pa.Table.from_pandas(df, preserve_index=False)
    stored = {fmt.chunk_key: json.dumps(identity).encode()}
    if identity.get("rows_digest"):  # of the rows as read back, which is what read_chunk compares
        stored[_digest_key(fmt)] = rows_digest(table.to_pandas()).encode()
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **stored})
    # page checksums: a flipped bit in the rows is an unreadable chunk (recomputed), not other results
    atomic_write(out / CHUNKS / chunk.filename,
                 lambda tmp: pq.write_table(table, tmp, write_page_checksum=True), remove_leftovers=False)


def read_chunk(path: Path, fmt: RunFormat, identity: Mapping[str, Any], *, legacy: bool = False
               ) -> pd.DataFrame:
    """A chunk's rows after checking they are the games ``identity`` names; ``ValueError`` why not.

    The stored identity must be ``identity`` (without its fingerprints when the chunk has none and
    ``legacy``, :func:`legacy_chunks`); every row must be of its point, its seed and one of its
    games; then ``fmt.check_rows`` checks the rows; and their digest must be the one written with
    them when either identity says ``rows_digest``.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.is_dir():  # pyarrow would read the files in it as one table
        raise ValueError(f"a directory where a chunk file belongs: move it out of {path.parent}")
    try:
        table = pq.read_table(path, page_checksum_verification=True)
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise ValueError(f"unreadable or truncated ({type(exc).__name__})") from None
    stored = (table.schema.metadata or {}).get(fmt.chunk_key)
    if stored is None:
        raise ValueError("it carries no chunk identity")
    try:
        theirs = json.loads(stored)
    except ValueError:
        raise ValueError("its chunk identity is corrupt") from None
    if legacy and isinstance(theirs, dict) and not {"code", "methods"} & theirs.keys():
        # written before chunks carried fingerprints: the manifest's check of the code stands for them
        identity = {k: v for k, v in identity.items() if k not in ("code", "methods", "environment")}
    if isinstance(theirs, dict) and theirs.get("rows_digest") is True:  # checked under any manifest
        identity = {**identity, "rows_digest": True}
    if not isinstance(theirs, dict) or not same_json(theirs, identity):
        keys = identity.keys() | (theirs.keys() if isinstance(theirs, dict) else set())
        differ = sorted(k for k in keys
                        if not isinstance(theirs, dict) or not same_json(theirs.get(k), identity.get(k)))
        raise ValueError(f"it belongs to another chunk or {fmt.noun} (its {', '.join(differ)} "
                         f"{'differs' if len(differ) == 1 else 'differ'})")
    try:
        df = table.to_pandas()
    except (ValueError, TypeError, KeyError, pa.ArrowException) as exc:  # corrupt pandas metadata too
        raise ValueError(f"unreadable ({type(exc).__name__})") from None
    first = identity["start"]
    if (not {"point", "seed", "game"} <= set(df.columns) or (df["point"] != identity["point"]).any()
            or (df["seed"] != identity["seed"]).any()
            or not df["game"].isin(range(first, first + identity["games"])).all()):
        raise ValueError("its rows are not the games its identity names")
    if fmt.check_rows is not None:
        fmt.check_rows(df, identity)
    if identity.get("rows_digest"):
        written = (table.schema.metadata or {}).get(_digest_key(fmt), b"").decode(errors="replace")
        if written != rows_digest(df):
            raise ValueError("its rows are not those the run wrote (their digest differs: edited since?)")
    return df


def unplanned_chunks(out: Path, chunks: list[Chunk], noun: str) -> str:
    """What to say of the files in ``out``'s chunk folder that no chunk of ``chunks`` names (never read,
    never counted), or ``""`` when there are none; ``noun`` names the run (``"sweep"``).

    A chunk file copied from another run, or a note left beside them, is not part of this run's results;
    the runs warn about them rather than ignore them silently.  Temporary and hidden files are not named.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     (Path(d) / CHUNKS).mkdir()
    ...     for name in ("p0000-g000000000.parquet", "p0007-g000000000.parquet", "notes.txt"):
    ...         _ = (Path(d) / CHUNKS / name).write_text("")
    ...     note = unplanned_chunks(Path(d), plan_chunks(1, 10, 10), "sweep")
    >>> note.split(": ", 1)[1].split(", so")[0]
    'notes.txt, p0007-g000000000.parquet are not among the planned chunks of this sweep'
    """
    folder = out / CHUNKS
    if not folder.is_dir():
        return ""
    planned = {c.filename for c in chunks}
    names = sorted(p.name for p in folder.iterdir() if not p.name.startswith(".") and p.name not in planned)
    if not names:
        return ""
    one = len(names) == 1
    return (f"{folder}: {_first_names(names)} {'is' if one else 'are'} not among the planned chunks of this "
            f"{noun}, so not in its results; move {'it' if one else 'them'} away to silence this")


def load_chunk(out: Path, fmt: RunFormat, chunk: Chunk, identity: Mapping[str, Any], *, legacy: bool,
               logger: logging.Logger = log) -> pd.DataFrame | None:
    """A finished chunk's rows, or ``None``: missing, or bad (logged on ``logger``, removed, to recompute).

    ``legacy``: :func:`legacy_chunks` of the run's manifest."""
    path = out / CHUNKS / chunk.filename
    if not path.exists():
        return None
    try:
        return read_chunk(path, fmt, identity, legacy=legacy)
    except ValueError as exc:
        if path.is_dir():  # not ours to delete
            raise ValueError(f"{path}: {exc}, then resume") from None
        logger.warning("%s: %s; recomputing it", path, exc)
        path.unlink(missing_ok=True)
        return None
