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

(the layout of every resumable run, :mod:`sweeplab.run_directory`).

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
import dataclasses
import inspect
import itertools
import json
import logging
import os
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .agents import make_agent
from .agents.base import first_cell
from .executor import check_positive, connect, default_chunk_size, root_seed, run_tasks
from .files import is_json_int
from .game import resolve_board
from .run_directory import (
    CHUNKS,
    LOCK,
    MANIFEST,
    Chunk,
    RunFormat,
    chunk_identity,
    json_value,
    legacy_chunks,
    load_chunk,
    open_manifest,
    output_path,
    plan_chunks,
    prepare_output,
    read_chunk,
    read_manifest,
    same_json,
    unplanned_chunks,
    write_chunk,
)
from .simulate import RESULT_COLUMNS, concat_results, is_method_column, play
from .simulate import options_text as agent_options_text

__all__ = ["Chunk", "expand_grid", "plan_chunks", "run_sweep", "load_results", "options_text", "same_games",
           "MANIFEST", "LOCK", "MADE_BY"]

log = logging.getLogger(__name__)

#: Parquet metadata key of a chunk's identity.
CHUNK_KEY = b"sweeplab.chunk"
#: Keys a point may hold besides agent options.
PLAY_KEYS = ("agent", "level", "shape", "mines", "density", "first_click", "mode", "noise", "first_move")
#: Manifest keys that define a sweep.
SWEEP_KEYS = ("points", "games", "seed")
#: Manifest keys :func:`load_results` passes on in ``attrs["made_by"]``: the code (``methods``: of the
#: methods and agents that are not sweeplab's own, a plugin's), the packages and the seed.
MADE_BY = ("version", "git_commit", "git_dirty", "code", "methods", "environment", "seed", "created")


#: Arguments of :func:`run_sweep` (and :func:`sweeplab.play`) that say how or which games run, never what
#: a point plays: in a point, two points differing only there would play the same games.
RUN_KEYS = ("games", "seed", "start", "workers", "scheduler", "progress", "out", "chunk_size")


def run_key_flag(key: str) -> str:
    """How the command line gives run key ``key`` (:data:`RUN_KEYS`).

    Examples
    --------
    >>> run_key_flag("chunk_size"), run_key_flag("progress")
    ('--chunk-size', '--no-progress')
    """
    return {"progress": "--no-progress",
            "start": "--seed for other games (sweeplab.play(start=...) plays later games of a seed)",
            }.get(key, f"--{key.replace('_', '-')}")


def _normalise(point: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-friendly copy of a point: tuples as lists, keys sorted."""
    if not isinstance(point, Mapping):
        raise ValueError(f"a sweep point is a dict of sweeplab.play arguments, got {point!r}")
    if "agent" not in point:
        raise ValueError(f"every sweep point needs an 'agent', got {dict(point)!r}")
    run = sorted(set(point) & set(RUN_KEYS))
    if run:
        raise ValueError(f"sweep point {dict(point)!r} gives {', '.join(map(repr, run))}: how the sweep "
                         f"runs, not what a point plays (points differing only there would play the same "
                         f"games); give {run[0]}= to run_sweep, or on the command line "
                         f"{run_key_flag(run[0])}")
    try:
        return {key: json_value(point[key]) for key in sorted(point)}
    except (TypeError, ValueError):
        raise ValueError(f"a sweep point holds names, numbers and lists only (it is kept as JSON), "
                         f"got {dict(point)!r}; for an agent of your own, register it "
                         f"(sweeplab.register_agent(name, cls)) and give its name and options") from None


def _number(v: Any) -> bool:
    """A number, not a bool."""
    return isinstance(v, int | float) and not isinstance(v, bool)


def is_single_value(key: str, value: list) -> bool:
    """Whether a list given for ``key`` is one value (a shape, noise, cell or chain), not a list to sweep."""
    if key in ("shape", "first_move"):
        return len(value) == 2 and all(map(_number, value))
    if key == "noise":
        return len(value) == 2 and isinstance(value[0], str) and _number(value[1])
    if key == "methods":  # the chain agent's methods: names make one chain, lists of names sweep
        return bool(value) and all(isinstance(v, str) for v in value)
    return False


def expand_grid(grid: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every combination of the listed values (scalars are held fixed).

    A list is swept over (a tuple is one value), except a single ``shape``
    (``[9, 9]``), ``noise`` (``["lost", 0.1]``), ``first_move`` cell
    (``[3, 4]``) or ``methods`` chain (``["trivial", "rref"]``; a list of
    such lists sweeps chains), which is one value.
    A value repeated in a list is refused: it would play the same games twice.

    Examples
    --------
    >>> expand_grid({"agent": ["trivial", "csp"], "level": "beginner", "first_click": ["safe", "zero"]})[1]
    {'agent': 'trivial', 'first_click': 'zero', 'level': 'beginner'}
    >>> len(expand_grid({"agent": "best", "noise": [None, ["lost", 0.1]]}))
    2
    >>> expand_grid({"agent": "trivial", "shape": [9, 9], "mines": 10})
    [{'agent': 'trivial', 'mines': 10, 'shape': [9, 9]}]
    >>> len(expand_grid({"agent": "chain", "methods": ["trivial", "rref"]}))  # one chain of two
    1
    >>> len(expand_grid({"agent": "chain", "methods": [["trivial"], ["trivial", "rref"]]}))
    2
    """
    if not isinstance(grid, Mapping):
        raise ValueError(f"a grid is a dict of play arguments to lists of values, such as "
                         f"{{'agent': ['trivial', 'rref'], 'level': 'beginner'}}; got {grid!r:.80}")
    keys = list(grid)
    values = []
    for key, value in grid.items():
        if (key in ("shape", "first_move") and isinstance(value, list) and value
                and not is_single_value(key, value)
                and all(map(_number, value))):
            raise ValueError(f"grid key {key!r} is [row, col]-like: two numbers, or a list of such pairs to "
                             f"sweep; got {value!r}")
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


def _play_kwargs(point: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments of :func:`sweeplab.play` from a JSON point (lists back to tuples)."""
    kwargs = dict(point)
    shape = kwargs.get("shape")
    if shape is not None:
        if not isinstance(shape, list | tuple) or len(shape) != 2 or not all(is_json_int(v) for v in shape):
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


def _check_rows(df: pd.DataFrame, identity: Mapping[str, Any]) -> None:
    """``ValueError`` unless a sweep chunk holds the result columns and exactly the games it names."""
    games = list(range(identity["start"], identity["start"] + identity["games"]))
    columns = ["point", *RESULT_COLUMNS]
    if "options" not in df:  # a chunk written before play recorded the options
        columns.remove("options")
    standard = len(columns)
    if (list(df.columns[:standard]) != columns
            or not all(is_method_column(c) for c in df.columns[standard:]) or df["game"].tolist() != games):
        raise ValueError("its rows are not the games its identity names")


#: A sweep's directory: its messages, manifest keys and chunk identity (:mod:`sweeplab.run_directory`).
SWEEP = RunFormat(noun="sweep", manifest="sweep manifest", resume="run the same sweep", keys=SWEEP_KEYS,
                  chunk_key=CHUNK_KEY, check_rows=_check_rows)


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
    seed : int or numpy.random.Generator
        Root seed (a ``Generator`` gives it by one draw; the manifest records the integer).
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
        key = _games_key(p)
        if key in first:
            j = first[key]
            same = ("repeats" if json.dumps(p, sort_keys=True) == json.dumps(points[j], sort_keys=True)
                    else f"({p!r}) plays the same games as")
            raise ValueError(f"sweep point {i} {same} point {j} ({points[j]!r}): its seeded games would be "
                             f"played twice and counted as one larger sample; give each point once")
        first[key] = i
    games = int(check_positive("games", games))  # type: ignore[arg-type]  # never None without none=
    seed = root_seed(seed)
    chunk_size = check_positive("chunk_size", chunk_size, none="about 20 chunks per point")
    check_positive("workers", workers, none="every core")
    for i, p in enumerate(points):  # fail early, here, on bad parameters
        try:
            run_chunk(p, Chunk(0, 0, 0), seed)
        except TypeError as exc:  # a value of the wrong type, deep in play
            raise ValueError(f"sweep point {i} {p!r}: a parameter has the wrong type ({exc})") from None
    client, owned = connect(scheduler) if scheduler is not None else (None, False)  # fail before writing
    outdir = output_path(out)
    try:
        lock = None if outdir is None else prepare_output(outdir, SWEEP.noun)
    except BaseException:
        if owned and client is not None:
            client.close()
        raise
    done: dict[Chunk, pd.DataFrame] = {}
    manifest: dict[str, Any] = {}
    try:
        if outdir is not None:
            points = _as_started(outdir, points)
            run = {"points": points, "games": games, "seed": seed}
            manifest = open_manifest(outdir, SWEEP, run, chunk_size)
            chunk_size = manifest["chunk_size"]
        chunks = plan_chunks(len(points), games, chunk_size or default_chunk_size(games))
        todo = (chunks if outdir is None
                else [c for c in chunks if not _chunk_ok(outdir, points, c, seed, manifest)])
        _run(points, chunks, todo, seed, outdir, manifest, workers, client, progress, done)
        if outdir is not None:
            return load_results(outdir)
    finally:
        if lock is not None:
            lock.release()
        if owned and client is not None:
            client.close()
    return _with_options(concat_results([done[c] for c in chunks]), points)


def _as_started(outdir: Path, points: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """``points`` as the sweep in ``outdir`` wrote them when each plays the same games as the one
    written there (a default restated, ``10.0`` for ``10``): resuming is then safe; else ``points``."""
    path = outdir / MANIFEST
    if not path.is_file():
        return points
    try:
        started = read_manifest(path, SWEEP)["points"]
    except ValueError:
        return points  # open_manifest says what is wrong with it
    if (not same_json(started, points) and len(started) == len(points)
            and all(same_games(a, b) for a, b in zip(started, points, strict=True))):
        return started
    return points


def _games_key(point: Mapping[str, Any]) -> str:
    """What decides a point's games: the board it comes to, the rules with play's defaults and the agent
    (its registered name and class) with every option (``mines=10`` and ``10.0``, a level and its shape,
    a default given or not, the first move as the cell it opens)."""
    defaults = inspect.signature(play).parameters
    try:
        kwargs = _play_kwargs(point)
        board = resolve_board(kwargs.pop("level", None), shape=kwargs.pop("shape", None),
                              mines=kwargs.pop("mines", None), density=kwargs.pop("density", None))
        rules = [kwargs.pop(k, defaults[k].default) for k in ("first_click", "mode", "noise")]
        if kwargs.get("first_move") is None:
            kwargs.pop("first_move", None)
        player = make_agent(kwargs.pop("agent"), **kwargs).for_rules(first_click=rules[0], shape=board[0],
                                                                    mines=board[1])
        if player.first_move != "random":  # "auto", "corner", "center" and (0, 0) as the cell they open
            cell = first_cell(player.first_move, board[0], np.random.default_rng(0))  # draws nothing
            player = replace(player, first_move=cell)
    except (ValueError, TypeError, KeyError):  # a bad point (one without an agent too), refused later
        return json.dumps(point, sort_keys=True)
    # every option, shown in the repr or not (a plugin's field(repr=False) still decides its games)
    options = ([(f.name, getattr(player, f.name)) for f in dataclasses.fields(player)]
               if dataclasses.is_dataclass(player) else player)
    # the agent by its registered name too: two classes of one module and qualname (made by one factory
    # function, or defined in two notebook cells) are different agents under two names
    return repr((board, rules, player.name, type(player).__module__, type(player).__qualname__, options))


def same_games(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two sweep points play the same seeded games (the same agent, options and rules, however
    written).

    Examples
    --------
    >>> same_games({"agent": "best", "level": "expert"}, {"agent": "best", "level": "expert", "lookahead": 5})
    True
    >>> same_games({"agent": "best", "level": "expert"}, {"agent": "best-v1", "level": "expert"})
    False
    """
    return _games_key(a) == _games_key(b)


def options_text(point: Mapping[str, Any]) -> str:
    """A point's agent options (its keys that are not :func:`sweeplab.play`'s) as ``key=value`` text.

    Examples
    --------
    >>> options_text({"agent": "chain", "level": "beginner", "methods": ["trivial", "rref"]})
    'methods=["trivial", "rref"]'
    """
    return agent_options_text({k: v for k, v in point.items() if k not in PLAY_KEYS})


def _with_options(df: pd.DataFrame, points: list[Mapping[str, Any]]) -> pd.DataFrame:
    """``df`` with the ``options`` column of :func:`sweeplab.play` filled from each row's point where
    chunks written before :func:`~sweeplab.simulate.play` recorded it lack it."""
    if "options" not in df:
        texts = [options_text(p) for p in points]
        df.insert(list(df.columns).index("agent") + 1, "options", [texts[i] for i in df["point"]])
    return df


def _chunk_ok(out: Path, points, chunk: Chunk, seed: int, manifest: dict[str, Any]) -> bool:
    """Whether ``chunk`` is on disk and sound; a bad one is logged and removed."""
    identity = chunk_identity(chunk, points[chunk.point], seed, manifest)
    return load_chunk(out, SWEEP, chunk, identity, legacy=legacy_chunks(manifest), logger=log) is not None


def _run(points, chunks, todo, seed, outdir, manifest, workers, scheduler, progress, done) -> None:
    """Play the chunks ``todo``: write each to ``outdir`` (``manifest`` its), or keep it in ``done``."""
    bar = None
    if progress:
        from tqdm.auto import tqdm

        total = sum(c.games for c in chunks)
        bar = tqdm(total=total, initial=total - sum(c.games for c in todo), unit="game", desc="games",
                   smoothing=0.05)
    tasks = [{"point": points[c.point], "chunk": c, "seed": seed} for c in todo]
    try:
        with contextlib.closing(run_tasks(run_chunk, tasks, workers=workers, scheduler=scheduler)) as results:
            for i, df in results:
                chunk = todo[i]
                if outdir is not None:
                    identity = chunk_identity(chunk, points[chunk.point], seed, manifest)
                    write_chunk(outdir, SWEEP, chunk, df, identity)
                else:
                    done[chunk] = df
                if bar is not None:
                    bar.update(chunk.games)
    finally:
        if bar is not None:
            bar.close()


def load_results(out: str | os.PathLike) -> pd.DataFrame:
    """Every finished game of a sweep directory, sorted by point and game.

    ``attrs["made_by"]`` holds the manifest's record of the code that played them
    (:data:`MADE_BY`: version, commit, code fingerprint, a plugin's fingerprints, package versions,
    seed, date).

    Only the chunks the manifest plans are read, and each is checked against
    its identity: a bad one raises ``ValueError`` naming it (running the sweep
    again recomputes it).  Chunks not written yet (a sweep still running, or
    stopped) are left out with a ``UserWarning`` saying how many games the
    frame holds of those planned; so are files in the chunk folder that no
    planned chunk names (copied from another run, say), with another.

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
    manifest = read_manifest(path, SWEEP)
    points = manifest["points"]
    frames = []
    missing = []
    planned = plan_chunks(len(points), manifest["games"], manifest["chunk_size"])
    for chunk in planned:
        file = outdir / CHUNKS / chunk.filename
        if not file.exists():
            missing.append(chunk)
            continue
        identity = chunk_identity(chunk, points[chunk.point], manifest["seed"], manifest)
        try:
            frames.append(read_chunk(file, SWEEP, identity, legacy=legacy_chunks(manifest)))
        except ValueError as exc:
            again = ", then resume" if file.is_dir() else "; run the sweep again to recompute it"
            raise ValueError(f"{file}: {exc}{again}") from None
    stray = unplanned_chunks(outdir, planned, SWEEP.noun)
    if stray:
        warnings.warn(stray, UserWarning, stacklevel=2)
    if missing:
        total = sum(c.games for c in planned)
        have = total - sum(c.games for c in missing)
        warnings.warn(f"{outdir}: {len(missing)} of {len(planned)} planned chunks are not written yet (a "
                      f"sweep still running, or stopped): {have} of {total} games; run the sweep again to "
                      f"finish it", UserWarning, stacklevel=2)
    frame = (_with_options(concat_results(frames), points) if frames
             else _with_options(pd.DataFrame(columns=["point", *RESULT_COLUMNS]), points))
    # where the games come from, for whoever holds only the frame (a CSV written from it does not keep it)
    frame.attrs["made_by"] = {key: manifest.get(key) for key in MADE_BY}
    return frame
