"""Sub-commands of the ``sweeplab`` command line, one module each."""

from __future__ import annotations

import argparse
import inspect
import os
import re
import textwrap
from collections.abc import Iterable
from pathlib import Path

__all__ = ["add_catalogue_parser", "add_plugin_argument", "check_writable", "catalogue_entry", "options_text",
           "output_directory", "parameter_docs", "plain_text"]


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


def parameter_docs(doc: str | None) -> dict[str, tuple[str, str]]:
    """The ``Parameters`` section of a numpydoc docstring: name -> (its type line, its text), plain.

    An entry naming several parameters (``a, b : int``) gives each of them; ``**options`` is
    ``options``.  The section ends at the next heading, or at a line that names no parameter.

    Examples
    --------
    >>> doc = '''One line.
    ...
    ...     Parameters
    ...     ----------
    ...     p : int, default 7
    ...         The prime (``p >= 2``).
    ...     lo, hi
    ...         Bounds.
    ...
    ...     Returns
    ...     -------
    ...     int
    ...     '''
    >>> parameter_docs(doc)
    {'p': ('int, default 7', 'The prime (p >= 2).'), 'lo': ('', 'Bounds.'), 'hi': ('', 'Bounds.')}
    >>> parameter_docs("Parameters\\n----------\\nx: int\\n**options\\n    Passed on.\\nSee the notes.")
    {'x': ('int', ''), 'options': ('', 'Passed on.')}
    """
    lines = inspect.cleandoc(doc or "").splitlines()
    found: dict[str, tuple[str, str]] = {}
    try:
        start = next(i for i in range(len(lines) - 1)
                     if lines[i].strip() == "Parameters" and set(lines[i + 1].strip()) == {"-"}) + 2
    except StopIteration:
        return found
    names: list[str] = []
    kind, text = "", list[str]()

    def close() -> None:
        for name in names:
            found[name] = (kind, plain_text(" ".join(text)))

    for i in range(start, len(lines)):
        line = lines[i]
        if line and not line[0].isspace():
            if i + 1 < len(lines) and lines[i + 1].strip() and set(lines[i + 1].strip()) == {"-"}:
                break  # the next section's heading
            head, _, type_line = line.partition(":")
            entry = [n.strip().lstrip("*") for n in head.split(",")]
            if not all(n.isidentifier() for n in entry):
                break  # prose after the entries
            close()
            names, kind, text = entry, type_line.strip(), []
        elif line.strip():
            text.append(line.strip())
    close()
    return found


def _described(entry: tuple[str, str] | None) -> str:
    """An option's text from its :func:`parameter_docs` entry: its text, else its type line."""
    return "" if entry is None else entry[1] or entry[0]


def add_catalogue_parser(sub: argparse._SubParsersAction, command: str, *, kind: str, registry: str,
                         doc: str | None, run) -> None:
    """The parser of ``sweeplab methods`` or ``sweeplab agents``: every entry, or one's options."""
    p = sub.add_parser(command, help=f"list the {command}, or one {kind}'s options",
                       description=plain_text(doc), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("name", nargs="?", metavar=kind.upper(),
                   help=f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} of sweeplab.{registry}: its options")
    add_plugin_argument(p)
    p.set_defaults(func=run)


def catalogue_entry(head: list[str], usage: str, options: list[tuple[str, object, str]]) -> str:
    """An entry of ``sweeplab methods NAME`` / ``agents NAME``: its head lines, then its options."""
    return "\n".join(head + ([f"options ({usage}):", *options_text(options)] if options else ["no options"]))


def options_text(options: Iterable[tuple[str, object, str]]) -> list[str]:
    """Lines describing options ``(name, default, text)``: ``name = default`` and the text below it.

    Examples
    --------
    >>> print("\\n".join(options_text([("p", 7, "The prime.")])))
      p = 7
          The prime.
    """
    lines = []
    for name, default, text in options:
        lines.append(f"  {name} = {default!r}")
        lines += textwrap.wrap(text or "(undocumented)", width=100, initial_indent=" " * 6,
                               subsequent_indent=" " * 6)
    return lines


def add_plugin_argument(p: argparse.ArgumentParser) -> None:
    """``--plugin MODULE`` (repeatable): import a module that registers methods before the command runs.

    :func:`sweeplab.cli.main` imports them (:func:`sweeplab.methods.load_plugins`), and worker
    processes import them too.
    """
    p.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                   help="import MODULE first (it registers methods or agents: sweeplab.register_method, "
                   "sweeplab.register_agent); "
                   "repeatable; worker processes import it too")


def output_directory(out: str) -> Path:
    """``--out`` of a command that writes files into a directory (created later if missing); ``ValueError``
    for an empty name (the current directory by accident: an unset variable in ``--out "$DIR"``, where
    files of the same names would be replaced) or a file.

    Examples
    --------
    >>> output_directory("reports/bench")
    PosixPath('reports/bench')
    >>> output_directory(" ")
    Traceback (most recent call last):
    ...
    ValueError: --out ' ' names no directory; give a path (--out . for the current directory)
    """
    if not out.strip():
        raise ValueError(f"--out {out!r} names no directory; give a path (--out . for the current directory)")
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise ValueError(f"--out {path} is a file; give a directory (it is created if missing)")
    check_writable(path, flag="--out")
    return path


def check_writable(path: Path, *, flag: str) -> None:
    """``ValueError`` when files cannot be made at ``path`` (a folder, or a file's place): a file where a
    folder of it should be, or a folder this process may not write in.  Checked before the work, which
    could otherwise run for hours and fail at the end; nothing is created.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".txt") as file:
    ...     check_writable(Path(file.name) / "out", flag="--out")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --out /.../out: /....txt is a file, so nothing can be made inside it
    """
    import tempfile

    dangling = next((p for p in (path, *path.parents) if p.is_symlink() and not p.exists()), None)
    if dangling is not None:  # nothing can be made through it (a folder) or it is no file to replace
        raise ValueError(f"{flag} {path}: {dangling} is a link to {os.readlink(dangling)}, which does not "
                         f"exist; give another path, or make what it links to")
    existing = next((p for p in (path, *path.parents) if p.exists()), Path("."))
    if not existing.is_dir():
        if existing != path:
            raise ValueError(f"{flag} {path}: {existing} is a file, so nothing can be made inside it")
        existing = existing.parent  # a file to be replaced: its folder is written in
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as exc:
        raise ValueError(f"{flag} {path}: cannot write in {existing} ({exc.strerror}); give a folder you can "
                         f"write in") from None
