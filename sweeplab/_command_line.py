"""Whether this process is the ``sweeplab`` command, and how its signals stop it.

Kept free of sweeplab's other modules: ``sweeplab/__init__.py`` imports it first, and importing it
under the command takes over Ctrl-C until :func:`sweeplab.cli.main` runs (:func:`restore_interrupt`).
While a sub-command runs, SIGTERM stops it as Ctrl-C does (:func:`stop_on_terminate`); the worker
processes it forks keep the default action.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT), as :func:`sweeplab.cli.main` returns.
STOPPED = 130
#: ... and by SIGTERM (128 + 15): a batch scheduler's time limit, ``kill``.
TERMINATED = 143


def running_command(*, module_run: bool = True) -> bool:
    """This process is the ``sweeplab`` command, or (``module_run``) ``python -m sweeplab`` itself (not
    ``python -m`` of a program whose package imports sweeplab, nor of ``sweeplab.testing.fuzz``)."""
    first = sys.argv[0] if sys.argv else ""
    if os.path.basename(first) == "sweeplab":
        return True
    if not module_run:
        return False
    line = list(getattr(sys, "orig_argv", ()))  # the interpreter's own: -m and the module it runs
    return any(arg == "-msweeplab" or (arg == "-m" and line[i + 1:i + 2] == ["sweeplab"])
               for i, arg in enumerate(line))


def _stopped_while_importing(signum: int, frame: FrameType | None) -> None:
    print("\nsweeplab: stopped", file=sys.stderr, flush=True)
    os._exit(STOPPED)  # inside an import nothing is half-written; raising would print the traceback


if running_command():  # a Ctrl-C in the first second or two, while pandas and numba import: one line
    signal.signal(signal.SIGINT, _stopped_while_importing)


def restore_interrupt() -> None:
    """From here on a Ctrl-C raises ``KeyboardInterrupt`` again, for the command to catch."""
    if signal.getsignal(signal.SIGINT) is _stopped_while_importing:
        signal.signal(signal.SIGINT, signal.default_int_handler)


class Terminated(KeyboardInterrupt):
    """A SIGTERM, raised where the command runs so that it stops as on Ctrl-C: a sweep keeps its finished
    chunks, a report records the experiment it was writing (:func:`stop_on_terminate`)."""


def _terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


def _default_terminate_in_child() -> None:
    """A forked worker ends on SIGTERM, as the pool that stops it (``process.terminate()``) expects: the
    command's handler, inherited, made it raise where it waited and left the pool's shutdown hanging."""
    if signal.getsignal(signal.SIGTERM) is _terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


os.register_at_fork(after_in_child=_default_terminate_in_child)


@contextlib.contextmanager
def stop_on_terminate() -> Iterator[None]:
    """While the command runs, SIGTERM raises :class:`Terminated` (Python's default ends the process on
    the spot, mid-write); the previous handler is restored after (``main`` called from Python)."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set it
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
