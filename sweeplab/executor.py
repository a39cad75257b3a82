"""Running independent tasks in this process, a local process pool or a Dask cluster.

:func:`sweeplab.play` and :func:`sweeplab.sweeps.run_sweep` share this code, so
``workers`` and ``scheduler`` mean the same on the command line and in Python.
A task is a set of keyword arguments of a module-level function; results come
back as tasks finish, tagged with the task's index, so a caller's output never
depends on the executor or the order of completion.

On Linux local workers are forked: they inherit every method registered so far
(in a script, a notebook or a plugin) and never re-run the caller's script, so
a script needs no ``if __name__ == "__main__"`` guard.  Elsewhere they come from
a forkserver (fork is unsafe on macOS), which re-imports the caller's main module.

Local workers die with the process that started them, even after a SIGKILL:
each watches its parent's sentinel (a pipe that closes when that process dies),
and on Linux also asks the kernel for SIGKILL when the process it was forked
from dies.  With the workers gone, a forkserver and the resource tracker see
their pipes close and exit too.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import operator
import os
import sys
import threading
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing.connection import wait
from typing import Any

import numpy as np

__all__ = ["CONNECT_TIMEOUT", "MAX_CHUNKS", "check_count", "check_plan", "check_positive",
           "default_chunk_size", "connect", "root_seed", "run_tasks"]

#: Seconds to wait for a Dask scheduler before giving up.
CONNECT_TIMEOUT = 10.0


def _integer(value: Any) -> int | None:
    """``value`` as an int when it is an integer (numpy integers and integral floats too, never a bool)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return int(value) if isinstance(value, float) and value.is_integer() else None


def check_positive(name: str, value: Any, *, none: str | None = None) -> int | None:
    """``value`` as a positive int; ``None`` is allowed when ``none`` says what it means.

    Examples
    --------
    >>> check_positive("workers", 2)
    2
    >>> check_positive("workers", 0)
    Traceback (most recent call last):
    ...
    ValueError: workers must be a positive integer, got 0
    """
    if value is None and none is not None:
        return None
    number = _integer(value)
    if number is None or number < 1:
        allowed = f" (omitted or None: {none})" if none is not None else ""
        raise ValueError(f"{name} must be a positive integer, got {value!r}{allowed}")
    return number


def check_count(name: str, value: Any) -> int:
    """``value`` as a non-negative int (a count, a seed, an index).

    Examples
    --------
    >>> check_count("games", 0)
    0
    >>> check_count("seed", -1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be a non-negative integer, got -1
    """
    number = _integer(value)
    if number is None or number < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return number


def root_seed(value: Any) -> int:
    """The root seed of a run of games: a non-negative int, or one drawn from a numpy ``Generator``.

    SPEC §3: everything random takes a seed or a ``Generator``.  A run's games
    are seeded from one integer (so that any number of workers plays the same
    games, and the rows record it); a ``Generator`` gives that integer (it is
    advanced by one draw).

    Examples
    --------
    >>> root_seed(7)
    7
    >>> root_seed(np.random.default_rng(0)) == root_seed(np.random.default_rng(0))
    True
    """
    if isinstance(value, np.random.Generator):
        return int(value.integers(2**63))
    number = _integer(value)
    if number is None or number < 0:
        raise ValueError(f"seed must be a non-negative integer, got {value!r} "
                         "(from Python, a numpy Generator too)")
    if number >= 2**64:  # every row records it, as a 64-bit integer in a run directory's Parquet
        raise ValueError(f"seed must be below 2**64, got {value!r}")
    return number


def default_chunk_size(games: int) -> int:
    """About 20 chunks per point, between 1 and 200 games each."""
    return max(1, min(200, -(-games // 20)))


def split_range(total: int, size: int) -> list[tuple[int, int]]:
    """``total`` items in consecutive parts of ``size`` (the last may be smaller), as ``(start, count)``.

    How every parallel run cuts its games, positions or layouts into tasks.

    Examples
    --------
    >>> split_range(5, 2)
    [(0, 2), (2, 2), (4, 1)]
    >>> split_range(0, 3)
    []
    """
    return [(start, min(size, total - start)) for start in range(0, total, size)]


#: The most chunks (tasks) a run plans: they are listed in memory before the first game, and a run
#: directory keeps a file for each.
MAX_CHUNKS = 1_000_000


def check_plan(points: int, games: int, chunk_size: int, *, chunks_chosen: bool = True) -> None:
    """``ValueError`` unless ``games`` per point in chunks of ``chunk_size`` make at most :data:`MAX_CHUNKS`.

    A slip such as ``--games 10000000000000000000000`` otherwise planned its chunks until memory ran out.
    ``chunks_chosen=False`` where the caller cannot choose larger chunks (:func:`sweeplab.play`): the
    message then offers only fewer games.

    Examples
    --------
    >>> check_plan(1, 10**9, 1000)
    >>> check_plan(2, 10**9, 200)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 1000000000 games per point in chunks of 200 make 10,000,000 chunks, more than a run plans ...
    """
    chunks = points * -(-games // chunk_size)
    if chunks > MAX_CHUNKS:
        larger = " or larger chunks (chunk_size; --chunk-size on the command line)" if chunks_chosen else ""
        raise ValueError(f"{games} games per point in chunks of {chunk_size} make {chunks:,} chunks, more "
                         f"than a run plans ({MAX_CHUNKS:,}); give fewer games (another run, on another "
                         f"seed, adds more){larger}")


def _die_with_parent() -> None:
    """Worker initializer: exit as soon as the process that started the pool is gone."""
    if sys.platform == "linux":
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            pr_set_pdeathsig, sigkill = 1, 9
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, sigkill)
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="sweeplab-parent-watchdog", daemon=True).start()


def connect(scheduler: Any):
    """A ``distributed.Client`` for an address (or the client given), and whether we own it.

    Raises ``ValueError`` naming the address when no scheduler answers within
    :data:`CONNECT_TIMEOUT` seconds or the address is malformed.
    """
    try:
        from distributed import Client
    except ImportError:
        raise ValueError(
            f"scheduler={scheduler!r} needs Dask distributed: pip install 'sweeplab[cluster]'") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    if not isinstance(scheduler, str):
        raise ValueError(
            f"scheduler must be a Dask scheduler address such as tcp://host:8786, got {scheduler!r}")
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT), True
    except (OSError, ValueError, TypeError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValueError(
            f"cannot connect to the Dask scheduler {scheduler!r} within {CONNECT_TIMEOUT:g} s ({reason}); "
            f"give the address of a running scheduler, for example tcp://host:8786") from None


def run_tasks(
    function: Callable[..., Any],
    tasks: Sequence[Mapping[str, Any]],
    *,
    workers: int | None = 1,
    scheduler: Any = None,
    preload: Sequence[str] = ("sweeplab.simulate",),
) -> Generator[tuple[int, Any], None, None]:
    """Yield ``(i, function(**tasks[i]))`` for every task, in the order they finish.

    Parameters
    ----------
    function : callable
        A module-level function (workers import it by name).
    tasks : sequence of dict
        Keyword arguments, one dict per task.
    workers : int, optional
        Local processes (``None``: every core); 1 runs in this process.
    scheduler : str or distributed.Client, optional
        A Dask scheduler address (or client): run there instead.
    preload : sequence of str
        Modules a local forkserver imports once, before forking workers (not on Linux, where
        workers are forked from this process and have its modules already).

    Worker processes (local or Dask) first import the plugin modules this
    process loaded (:func:`sweeplab.methods.load_plugins`, ``--plugin``), then
    register the methods this process registered otherwise (in a script or a
    notebook; Dask ships them with cloudpickle), so every registered method
    works in every worker.

    Notes
    -----
    Close the generator (``contextlib.closing``) if you stop before the end:
    that shuts the pool down or releases the Dask client.

    Examples
    --------
    >>> sorted(run_tasks(pow, [{"base": 2, "exp": 10}, {"base": 3, "exp": 2}]))
    [(0, 1024), (1, 9)]
    """
    workers = check_positive("workers", workers, none="every core")
    if not tasks:
        return
    if scheduler is not None:
        yield from _dask(function, tasks, scheduler)
        return
    n_workers = local_workers(workers, len(tasks))
    if n_workers == 1:
        for i, task in enumerate(tasks):
            yield i, function(**task)
        return
    from .methods import plugin_names

    plugins = plugin_names()
    if sys.platform == "linux":
        ctx: Any = multiprocessing.get_context("fork")
        extra: tuple = ()  # inherited
    else:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(preload))
        extra = _registered()
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=ctx, initializer=_die_with_parent) as pool:
        futures = {pool.submit(_call, function, plugins, task, extra): i for i, task in enumerate(tasks)}
        try:
            for fut in as_completed(futures):
                yield futures[fut], fut.result()
        except BaseException:  # Ctrl-C, an error, or the caller stopping early: end the running tasks now
            _terminate(pool)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def local_workers(workers: int | None, tasks: int) -> int:
    """The processes :func:`run_tasks` starts for ``tasks`` tasks on this machine (1: this process).

    Examples
    --------
    >>> local_workers(4, 2), local_workers(1, 10)
    (2, 1)
    """
    return min(workers or os.cpu_count() or 1, tasks)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop a pool's worker processes: shutting it down waits for the tasks they run (a game on a
    500x500 board: a minute after Ctrl-C)."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def _registered() -> tuple:
    """The :class:`~sweeplab.methods.MethodInfo` and :class:`~sweeplab.agents.AgentInfo` of every method
    and agent registered in this process."""
    from .agents import AGENTS
    from .methods import METHODS

    return (tuple(info for info in METHODS.values() if not info.builtin)
            + tuple(info for info in AGENTS.values() if not info.builtin))


def _call(function: Callable[..., Any], plugins: Sequence[str], task: Mapping[str, Any],
          extra: Sequence[Any] = ()) -> Any:
    """Run one task in a worker, after :func:`_prepare`."""
    _prepare(plugins, extra)
    return function(**task)


def _prepare(plugins: Sequence[str], extra: Sequence[Any] = ()) -> None:
    """Import the plugin modules and register the other methods and agents (``extra``,
    :func:`_registered`) as the caller has them: a long-lived worker may hold an earlier registration
    of the same name (a notebook's method before an edit).  The same code is kept (each task ships its
    own copy, which would pile up in the method caches)."""
    if plugins or extra:
        from .agents import AGENTS, AgentInfo, register_agent
        from .methods import METHODS, load_plugins, register_method
        from .provenance import function_fingerprint

        load_plugins(plugins)
        for info in extra:
            if isinstance(info, AgentInfo):
                held = AGENTS.get(info.name)
                if held is None or (held.cls is not info.cls
                                    and function_fingerprint(held.cls) != function_fingerprint(info.cls)):
                    register_agent(info.name, info.cls, summary=info.summary, reference=info.reference,
                                   sound=info.sound, replace=held is not None)
                continue
            known = METHODS.get(info.name)
            same = known is not None and (known.function is info.function or function_fingerprint(
                known.function) == function_fingerprint(info.function))
            if not same:
                register_method(info.name, info.function, sound=info.sound, complete=info.complete,
                                summary=info.summary, reference=info.reference,
                                reads_bounds=info.reads_bounds, replace=known is not None)


def _call_reporting_code(payload: bytes, registered: bytes, plugins: Sequence[str],
                         methods: Sequence[str] = ()) -> tuple[str, dict, dict, Any]:
    """:func:`_call` on a Dask worker, with the fingerprints of the sweeplab code and of the
    ``methods`` (not sweeplab's own) it ran, and the versions that can change games.

    ``payload`` is the pickled ``(function, task)`` and ``registered`` the pickled
    :func:`_registered` of the client: read here, a module they name that this worker cannot import is
    a clear error, where as task arguments they failed to unpickle in the scheduler (a raw traceback)
    or in the worker (which stopped answering, and the run waited for ever)."""
    import importlib

    import cloudpickle
    from distributed import get_worker

    from . import provenance

    fix = "install it on every worker, or put its folder on their PYTHONPATH"
    for module in plugins:  # first, so that the payload's references to them resolve
        try:
            importlib.import_module(module)
        except Exception as exc:  # noqa: BLE001 - any failure of a plugin is named, as load_plugins does
            raise ValueError(f"the Dask worker {get_worker().address} cannot import the plugin {module!r} "
                             f"({type(exc).__name__}: {exc}); {fix}") from None
    try:
        function, task = cloudpickle.loads(payload)
        extra = cloudpickle.loads(registered)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"the Dask worker {get_worker().address} cannot read the run's methods or agents "
                         f"({type(exc).__name__}: {exc}); {fix.replace('it', 'the module they come from', 1)}"
                         ) from None
    try:  # before the task: what a method counts as it plays is not its code
        _prepare(plugins, extra)
        code, fingerprints = provenance.code_fingerprint(), provenance.method_fingerprints(list(methods))
    except ValueError as exc:  # a plugin or sweeplab edited on disk since this worker imported it
        raise ValueError(f"a Dask worker holds older code than its files: {exc} (on the workers: restart "
                         f"them, client.restart())") from None
    return code, fingerprints, provenance.environment(), function(**task)


def _dask(function, tasks, scheduler) -> Iterator[tuple[int, Any]]:
    import cloudpickle
    from distributed import as_completed as dask_completed

    from .methods import plugin_names
    from .provenance import code_fingerprint, fingerprint_subject, method_fingerprints, version_differences

    client, owned = connect(scheduler)
    plugins, extra = plugin_names(), _registered()
    here = code_fingerprint()
    methods_here = method_fingerprints(list(tasks))  # the methods (not sweeplab's own) the tasks name
    names = list(methods_here)
    try:
        registered = cloudpickle.dumps(extra)  # once: a method's globals can be large
        futures = [client.submit(_call_reporting_code, cloudpickle.dumps((function, task)), registered,
                                 plugins, names, pure=False) for task in tasks]
        index = {fut.key: i for i, fut in enumerate(futures)}
        for fut in dask_completed(futures):
            theirs, methods_there, versions, result = fut.result()
            # a worker with another install, or another version of a plugin: its games must not join
            if theirs != here:
                raise ValueError(f"a Dask worker runs other sweeplab code (fingerprint {theirs}, {here} "
                                 f"here); install the same sweeplab on every worker")
            changed = version_differences(versions)
            if changed:
                raise ValueError(f"a Dask worker runs other versions of packages that can change games "
                                 f"({'; '.join(changed)}); install the same versions on every worker")
            if methods_there != methods_here:
                name = next(n for n in names if methods_there.get(n) != methods_here.get(n))
                raise ValueError(f"a Dask worker runs other code of {fingerprint_subject(name)} (fingerprint "
                                 f"{methods_there.get(name)}, {methods_here.get(name)} here): a plugin's "
                                 f"must be the same on every worker (install the same version); one defined "
                                 f"in a notebook or script must not read what a worker does not receive "
                                 f"with it (a value its module changes at run time, a file)")
            yield index[fut.key], result
    finally:
        if owned:
            client.close()
