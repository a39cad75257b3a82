"""Sub-commands of the ``sweeplab`` command line, one module each."""

from __future__ import annotations

import argparse

__all__ = ["add_plugin_argument"]


def add_plugin_argument(p: argparse.ArgumentParser) -> None:
    """``--plugin MODULE`` (repeatable): import a module that registers methods before the command runs.

    :func:`sweeplab.cli.main` imports them (:func:`sweeplab.methods.load_plugins`), and worker
    processes import them too.
    """
    p.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                   help="import MODULE first (it registers methods with sweeplab.register_method); "
                   "repeatable; worker processes import it too")
