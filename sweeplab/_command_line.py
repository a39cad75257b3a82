"""Whether this process is the ``sweeplab`` command, and its Ctrl-C while the package imports.

Kept free of sweeplab's other modules: ``sweeplab/__init__.py`` imports it first, and importing it
under the command takes over Ctrl-C until :func:`sweeplab.cli.main` runs (:func:`restore_interrupt`).
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT), as :func:`sweeplab.cli.main` returns.
STOPPED = 130


def running_command(*, module_run: bool = True) -> bool:
    """This process is the ``sweeplab`` command, or (``module_run``) ``python -m sweeplab``, whose
    ``sys.argv[0]`` is ``"-m"`` while the package imports."""
    first = sys.argv[0] if sys.argv else ""
    return os.path.basename(first) == "sweeplab" or (module_run and first == "-m")


def _stopped_while_importing(signum: int, frame: FrameType | None) -> None:
    print("\nsweeplab: stopped", file=sys.stderr, flush=True)
    os._exit(STOPPED)  # inside an import nothing is half-written; raising would print the traceback


if running_command():  # a Ctrl-C in the first second or two, while pandas and numba import: one line
    signal.signal(signal.SIGINT, _stopped_while_importing)


def restore_interrupt() -> None:
    """From here on a Ctrl-C raises ``KeyboardInterrupt`` again, for the command to catch."""
    if signal.getsignal(signal.SIGINT) is _stopped_while_importing:
        signal.signal(signal.SIGINT, signal.default_int_handler)
