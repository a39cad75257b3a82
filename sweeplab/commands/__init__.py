"""Sub-commands of the ``sweeplab`` command line, one module each."""

from __future__ import annotations

import argparse
import re

__all__ = ["add_plugin_argument", "plain_text"]


def plain_text(doc: str | None) -> str:
    r"""A module docstring as ``--help`` shows it: reStructuredText markup and issue references dropped.

    Examples
    --------
    >>> print(plain_text("Runs :func:`sweeplab.play` with ``--games N`` (issue 11 item 5)::\n\n    x"))
    Runs sweeplab.play with --games N:
    <BLANKLINE>
        x
    """
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", doc or "")
    text = re.sub(r"``([^`]+)``", r"\1", text)
    text = re.sub(r" \(issue \d+[^)]*\)", "", text)
    return re.sub(r"::$", ":", text, flags=re.M)


def add_plugin_argument(p: argparse.ArgumentParser) -> None:
    """``--plugin MODULE`` (repeatable): import a module that registers methods before the command runs.

    :func:`sweeplab.cli.main` imports them (:func:`sweeplab.methods.load_plugins`), and worker
    processes import them too.
    """
    p.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                   help="import MODULE first (it registers methods or agents: sweeplab.register_method, "
                   "sweeplab.register_agent); "
                   "repeatable; worker processes import it too")
