"""The ``sweeplab`` command line.

Each sub-command lives in a module of :mod:`sweeplab.commands` that defines
``register(subparsers)``; that function adds its parser and sets ``func``.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import re
import sys
import warnings
from typing import NoReturn

from ._command_line import STOPPED, TERMINATED, Terminated, restore_interrupt, stop_on_terminate
from .errors import AgentBugError, MethodBugError, interrupted

#: Sub-command modules in :mod:`sweeplab.commands`, in ``--help`` order.
COMMANDS = ("report", "solve", "play", "compare", "sweep", "bench", "corpus", "generate", "methods", "agents")


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are one line naming the fix (``--help``), as sweeplab's own."""

    def error(self, message: str) -> NoReturn:
        option = re.fullmatch(r"argument (--[\w-]+)(?:/-\w)?: expected one argument", message)
        if option:  # argparse reads a value such as -1,3 as an option of its own
            message += f" (a value that starts with '-' is written {option.group(1)}=VALUE)"
        self.exit(2, f"{self.prog}: error: {_one_line(message)}; see {self.prog} --help\n")

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        """As argparse's, but arguments no parser knows are named with the sub-command they follow."""
        argv = sys.argv[1:] if args is None else list(args)
        parsed, extras = self.parse_known_args(argv, namespace)
        if extras:
            command = getattr(parsed, "command", None)
            after = (command is not None and command in argv and extras[0] in argv
                     and argv.index(extras[0]) > argv.index(command))
            prog = f"{self.prog} {command}" if after else self.prog
            unknown = _one_line(" ".join(extras))
            self.exit(2, f"{prog}: error: unrecognized arguments: {unknown}; see {prog} --help\n")
        return parsed


class _Version(argparse.Action):
    """``--version``: the version and, in a checkout, its commit, asked of git only when wanted."""

    def __call__(self, parser, namespace, values, option_string=None):
        from .provenance import made_by_text

        print(made_by_text())
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sweeplab",
        description="How far linear algebra gets in deducing Minesweeper: "
        "deduction methods, games, sweeps and the reports' figures.",
    )
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="print the version, and the git commit of a checkout (what to cite), and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"sweeplab.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"sweeplab.commands.{name}":
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status instead of raising.

    Exit statuses: 0 success; 1 a sub-command's negative answer (``solve`` on an
    inconsistent position, ``report`` with a failed experiment) or a method's or an agent's bug
    (:class:`~sweeplab.errors.MethodBugError`, :class:`~sweeplab.errors.AgentBugError`, printed as
    below); 2 bad usage or input: an unknown option (argparse's message), no sub-command (usage), or a
    ``ValueError``/``OSError`` from the sub-command, printed as one line
    ``sweeplab <command>: error: <message>`` without traceback (a full disk or a read-only file system:
    1, with what to do); 130 on Ctrl-C, 143 on SIGTERM (both stop the command as Ctrl-C does).
    Any other exception is a bug and keeps its traceback.
    """
    parser = build_parser()  # importing the sub-commands: the import's quiet Ctrl-C still holds
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or argparse's usage error (already printed)
        return _exit_code(exc.code)
    if args.command is None:
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: give a sub-command ({', '.join(_choices(parser))}); "
              f"see {parser.prog} --help", file=sys.stderr)
        return 2
    restore_interrupt()  # from here a Ctrl-C raises, and the command catches it below
    try:
        with stop_on_terminate(), warnings.catch_warnings():
            warnings.showwarning = _command_warning(args.command)  # restored by catch_warnings
            if getattr(args, "plugin", None):
                from .methods import load_plugins

                load_plugins(args.plugin)
            return int(args.func(args) or 0)
    except (KeyboardInterrupt, SystemError) as exc:  # numba wraps a Ctrl-C in a SystemError
        if not interrupted(exc):
            raise
        print(f"\nsweeplab {args.command}: stopped{_resume_hint(args)}", file=sys.stderr)
        return TERMINATED if interrupted(exc, kind=Terminated) else STOPPED
    except BrokenPipeError:  # the reader of stdout went away (| head): stop quietly
        _silence_stdout()
        return 1
    except SystemExit as exc:  # a sub-command's own argparse-style exit
        return _exit_code(exc.code)
    except (MethodBugError, AgentBugError) as exc:  # a method's or an agent's bug, not the input's
        print(f"sweeplab {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        for note in getattr(exc, "__notes__", ()):  # which method or agent, on what position
            print(note, file=sys.stderr)
        return 1
    except OSError as exc:
        if exc.errno in _MACHINE_ERRORS:  # a full disk is not the input's fault: 1, and what to do
            text = _path_error(exc) if exc.filename is not None else os.strerror(exc.errno)  # not pyarrow's
            print(f"sweeplab {args.command}: error: {text}; {_MACHINE_ERRORS[exc.errno]} and run the same "
                  f"command again{_resume_hint(args)}", file=sys.stderr)
            return 1
        print(f"sweeplab {args.command}: error: {_path_error(exc)}", file=sys.stderr)
        return 2
    except ValueError as exc:  # bad input, InconsistentPositionError and MethodRefused included
        print(f"sweeplab {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # a board too large for this machine is bad input too
        print(f"sweeplab {args.command}: error: out of memory ({_one_line(exc)}); give a smaller board "
              f"(--shape) or fewer workers", file=sys.stderr)
        return 2


def _command_warning(command: str):
    """Warnings as the command's own lines (``sweeplab sweep: warning: ...``), not Python's
    ``file:line: UserWarning:`` form pointing into sweeplab's source."""
    def show(message, category, filename, lineno, file=None, line=None) -> None:
        print(f"sweeplab {command}: warning: {_one_line(str(message))}", file=sys.stderr)

    return show


def _path_error(exc: OSError) -> str:
    """An error of the file system in words (not "[Errno 2] ..."); the advice to check the path only where
    the path is at fault (a missing file, a folder in the way, no permission), not for a full disk.

    Examples
    --------
    >>> _path_error(FileNotFoundError(2, "No such file or directory", "x.txt"))
    'x.txt: No such file or directory; check the path, or give another'
    >>> _path_error(OSError(28, "No space left on device", "out/a.csv"))
    'out/a.csv: No space left on device'
    """
    import errno

    if exc.filename is None or not exc.strerror:
        return _one_line(exc)
    names = f"{exc.filename} -> {exc.filename2}" if exc.filename2 is not None else str(exc.filename)
    paths = {errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EACCES, errno.EPERM, errno.EEXIST, errno.ELOOP}
    return f"{names}: {exc.strerror}" + ("; check the path, or give another" if exc.errno in paths else "")


#: The file system's errors during a run that are the machine's, not the input's (a full disk or quota, a
#: file system turned read-only, a failing device), and what to do.
_MACHINE_ERRORS = {errno.ENOSPC: "free space", errno.EDQUOT: "free space (or raise the quota)",
                   errno.EROFS: "make the file system writable", errno.EIO: "check the disk"}

#: Sub-commands whose ``--out`` is a run directory the same command resumes.
_RESUMABLE = ("play", "compare", "sweep")


def _resume_hint(args: argparse.Namespace) -> str:
    """What a stopped run kept: its run directory, which the same command resumes, or nothing."""
    if args.command not in _RESUMABLE:
        return ""
    if args.out:
        return f"; the finished chunks are kept in {args.out}: the same command resumes from them"
    return "; the games played are not kept (give --out DIR to keep them and resume)"


def _choices(parser: argparse.ArgumentParser) -> list[str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices)


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _one_line(message: str | BaseException) -> str:
    """A message (an exception's) on one line (an exception's type when it has none)."""
    text = " ".join(line.strip() for line in str(message).splitlines() if line.strip())
    return text or (type(message).__name__ if isinstance(message, BaseException) else "")


def _silence_stdout() -> None:
    # Python flushes stdout at exit; point it at devnull so that flush cannot fail again.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
