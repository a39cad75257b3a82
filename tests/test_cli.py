"""The sweeplab command line: --help, --version, report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import sweeplab
from sweeplab.cli import main
from sweeplab.errors import mines_text
from sweeplab.stats import paired_difference

SCRIPT = Path(sys.executable).with_name("sweeplab")


def test_version_and_help(capsys):
    """--version names the commit of a checkout too: the version alone does not say which code to cite."""
    from sweeplab.provenance import source_commit

    assert main(["--version"]) == 0
    commit, dirty = source_commit()
    expected = f"sweeplab {sweeplab.__version__}" + ("" if commit is None else f", commit {commit[:12]}")
    assert capsys.readouterr().out.strip() == expected + (", with local changes" if dirty else "")
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "usage: sweeplab" in out and "report" in out


def test_no_command_prints_usage_and_fails(capsys):
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "usage: sweeplab" in err and "give a sub-command" in err and "solve" in err


def test_unknown_command_fails(capsys):
    assert main(["frobnicate"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_every_sub_command_has_help(capsys):
    from sweeplab.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert "report" in sub.choices
    for name in sub.choices:
        assert main([name, "--help"]) == 0
        assert f"usage: sweeplab {name}" in capsys.readouterr().out


@pytest.mark.skipif(not SCRIPT.exists(), reason="the sweeplab script is not installed next to this python")
def test_installed_script():
    out = subprocess.run([str(SCRIPT), "--version"], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.startswith(f"sweeplab {sweeplab.__version__}")
    out = subprocess.run([str(SCRIPT), "--help"], capture_output=True, text=True, timeout=120, check=True)
    assert "report" in out.stdout


def test_report_runs(capsys):
    """``report --list`` runs the main job's entry without the experiments (those are tested elsewhere)."""
    assert main(["report", "--list"]) == 0
    assert "report 000" in capsys.readouterr().out


# --- one line and exit 2 for bad input; tracebacks only for bugs (issue 14 items 10, 12) ------------------


def fail_with(monkeypatch, exc):
    def run(args):
        raise exc

    monkeypatch.setattr("sweeplab.commands.solve.run", run)


@pytest.mark.parametrize(
    "exc",
    [
        ValueError("bad value\n  on two lines"),
        sweeplab.InconsistentPositionError("no layout fits"),
        sweeplab.MethodRefused("method 'brute' refuses 99 cells"),
        FileNotFoundError(2, "No such file or directory", "x.txt"),
        IsADirectoryError(21, "Is a directory", "somewhere"),
        PermissionError(13, "Permission denied", "out"),
        ValueError(),
        MemoryError("Unable to allocate 74.5 GiB for an array"),  # numpy's, past Game's own check
    ],
)
def test_bad_input_is_one_line_and_exit_2(monkeypatch, capsys, exc):
    fail_with(monkeypatch, exc)
    assert main(["solve", "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sweeplab solve: error: ") and err.count("\n") == 1
    assert "Traceback" not in err
    if isinstance(exc, OSError):  # the path and the reason in words, not "[Errno 2] ..."
        assert f"error: {exc.filename}: {exc.strerror}; check the path" in err and "Errno" not in err
    else:
        assert (str(exc).split("\n")[0] or type(exc).__name__) in err


def test_a_full_disk_is_the_machines_fault_exit_1_with_what_to_do(monkeypatch, capsys, tmp_path):
    """A review (rev51b): a sweep that filled its disk ended with exit 2, "bad input", naming neither the
    run directory nor that the same command resumes it."""
    def full(args):
        raise OSError(28, "No space left on device", str(tmp_path / "run" / "chunks" / "p0000.parquet"))

    def full_in_pyarrow(args):  # pyarrow's: no file name, its own wording
        raise OSError(28, "[Errno 28] Error writing bytes to file. Detail: [errno 28] No space left on "
                          "device")

    monkeypatch.setattr("sweeplab.commands.solve.run", full)
    assert main(["solve", "-"]) == 1
    err = capsys.readouterr().err
    assert "p0000.parquet: No space left on device; free space and run the same command" in err
    monkeypatch.setattr("sweeplab.commands.play.run", full_in_pyarrow)
    assert main(["play", "--agent", "trivial", "--games", "1", "--out", str(tmp_path / "run")]) == 1
    err = capsys.readouterr().err
    assert "error: No space left on device; free space and run" in err and "Errno" not in err
    assert f"the finished chunks are kept in {tmp_path / 'run'}" in err


def test_sigterm_stops_a_command_as_ctrl_c_does_exit_143(monkeypatch, capsys, tmp_path):
    """A review (rev51b): a batch scheduler's SIGTERM ended a run on the spot (Python's default), where
    Ctrl-C lets a report record what it was writing and a sweep say what it kept."""
    import signal
    import time

    def terminated(args):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises in here
        raise AssertionError("SIGTERM did not stop the command")

    before = signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr("sweeplab.commands.play.run", terminated)
    assert main(["play", "--agent", "trivial", "--games", "1", "--out", str(tmp_path / "run")]) == 143
    assert f"stopped; the finished chunks are kept in {tmp_path / 'run'}" in capsys.readouterr().err
    assert signal.getsignal(signal.SIGTERM) is before  # main called from Python leaves it as it was


def test_a_warning_is_the_commands_own_line_not_pythons_form(monkeypatch, capsys):
    """A review (rev51b): a stray chunk's notice read "/.../sweeplab/sweeps.py:345: UserWarning: ...", unlike
    every other line of the command."""
    import warnings

    def warns(args):
        warnings.warn("run/chunks: p0002.parquet is not among the planned chunks\nof this sweep", UserWarning,
                      stacklevel=2)
        return 0

    monkeypatch.setattr("sweeplab.commands.solve.run", warns)
    assert main(["solve", "-"]) == 0
    err = capsys.readouterr().err
    assert err == ("sweeplab solve: warning: run/chunks: p0002.parquet is not among the planned chunks of "
                   "this sweep\n")


def test_a_worker_forked_while_a_command_runs_ends_on_sigterm():
    """The test suite hung in a pool's shutdown: workers forked under the command inherited its SIGTERM
    handler, so ``process.terminate()`` raised inside them instead of ending them."""
    import signal

    from sweeplab._command_line import stop_on_terminate

    with stop_on_terminate():
        assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
        child = os.fork()
        if child == 0:  # the worker: the default action, as a pool expects
            os._exit(0 if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL else 1)
        _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_ctrl_c_exits_130_quietly(monkeypatch, capsys):
    fail_with(monkeypatch, KeyboardInterrupt())
    assert main(["solve", "-"]) == 130
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("start", [["-m", "sweeplab"], ["-c", "import sys; sys.argv[0] = 'sweeplab'; "
                                                      "from sweeplab.cli import main; sys.exit(main())"]])
def test_ctrl_c_while_the_command_imports_its_packages_exits_130_without_a_traceback(start):
    """Noticed in session 50: a Ctrl-C in the command's first second printed Python's traceback from an
    import of pandas or numba (the second start is what the console script runs)."""
    import signal
    import time

    command = subprocess.Popen([sys.executable, *start, "methods"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    time.sleep(0.4)  # Python is up; sweeplab's imports take a second or more
    command.send_signal(signal.SIGINT)
    _, err = command.communicate(timeout=60)
    assert command.returncode == 130 and "stopped" in err and "Traceback" not in err, err[-2000:]


def test_a_program_run_with_python_m_whose_package_imports_sweeplab_keeps_its_own_ctrl_c(tmp_path):
    """A review of the quiet Ctrl-C (rev51e): it was taken for any ``python -m pkg.run`` whose package
    imports sweeplab (and for ``python -m sweeplab.testing.fuzz``), ending the program by os._exit: its
    own except and finally never ran and its buffered output was lost."""
    (tmp_path / "upkg").mkdir()
    (tmp_path / "upkg" / "__init__.py").write_text("import sweeplab\n")
    (tmp_path / "upkg" / "run.py").write_text("import signal\nprint(signal.getsignal(signal.SIGINT) is "
                                              "signal.default_int_handler)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-m", "upkg.run"], env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.stdout.strip() == "True", run.stderr[-2000:]


def numba_wrapped_ctrl_c() -> SystemError:
    """What compiled code raises when Ctrl-C arrives while it runs."""
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ctrl_c:
            raise SystemError("CPUDispatcher(...) returned a result with an exception set") from ctrl_c
    except SystemError as err:
        return err


def test_ctrl_c_inside_compiled_code_also_exits_130(monkeypatch, capsys):
    """A sweep stopped with Ctrl-C crashed now and then with a traceback blaming a method."""
    fail_with(monkeypatch, numba_wrapped_ctrl_c())
    assert main(["solve", "-"]) == 130
    err = capsys.readouterr().err
    assert "Traceback" not in err and "stopped" in err
    fail_with(monkeypatch, SystemError("a real one"))
    with pytest.raises(SystemError, match="a real one"):
        main(["solve", "-"])


def test_deduce_turns_a_wrapped_ctrl_c_back_into_one(monkeypatch):
    """``deduce`` noted 'raised by method ...' on the SystemError, as if the method had a bug."""
    def stopped(obs, *, use_total=True):
        raise numba_wrapped_ctrl_c()

    sweeplab.register_method("stopped-by-ctrl-c", stopped, sound=True, complete=False)
    try:
        with pytest.raises(KeyboardInterrupt):
            sweeplab.deduce("?1", "stopped-by-ctrl-c")
    finally:
        sweeplab.unregister_method("stopped-by-ctrl-c")


@pytest.mark.parametrize(("argv", "said"), [
    (["play", "--agent", "trivial", "--level", "beginner", "--out", "{tmp}/run"],
     "stopped; the finished chunks are kept in {tmp}/run: the same command resumes from them"),
    (["compare", "trivial", "csp", "--level", "beginner"],
     "stopped; the games played are not kept (give --out DIR to keep them and resume)"),
])
def test_ctrl_c_in_a_run_says_what_was_kept(monkeypatch, capsys, tmp_path, argv, said):
    """A stopped run told nothing: whether its finished games were kept and how to resume."""
    def stop(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(f"sweeplab.commands.{argv[0]}.run", stop)
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 130
    err = capsys.readouterr().err
    assert err.strip() == f"sweeplab {argv[0]}: {said}".replace("{tmp}", str(tmp_path)), err


def test_ctrl_c_in_a_sweep_whose_config_names_out_says_the_games_are_kept(monkeypatch, capsys, tmp_path):
    """With out in the config, not as --out, a stopped sweep said its games were not kept: they were."""
    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("sweeplab.sweeps.run_sweep", stop)
    config = tmp_path / "c.toml"
    config.write_text(f'games = 10\nout = "{tmp_path / "run"}"\n'
                      f'[grid]\nagent = "trivial"\nlevel = "beginner"\n')
    assert main(["sweep", str(config)]) == 130
    assert capsys.readouterr().err.strip() == (f"sweeplab sweep: stopped; the finished chunks are kept in "
                                               f"{tmp_path / 'run'}: the same command resumes from them")


def test_a_bad_move_is_refused_before_any_method_runs(monkeypatch, capsys, tmp_path):
    """``solve --all --explain --win-rates 10 --move 999,999`` ran every method with proofs, then refused."""
    def no_work(*args, **kwargs):
        raise AssertionError("the methods ran before the move was checked")

    monkeypatch.setattr("sweeplab.commands.solve._report", no_work)
    position = tmp_path / "p.txt"
    position.write_text("??1\n?21\n")
    for move in ("999,999", "1,2"):  # off the board; a revealed cell
        argv = ["solve", str(position), "--all", "--mines", "1", "--win-rates", "10", "--move", move]
        assert main(argv) == 2
        assert "is not a covered cell of the 2x3 position" in capsys.readouterr().err
    assert main([*argv[:-1], "0,0", "--move", "0,0"]) == 2
    assert "every --move once" in capsys.readouterr().err


def test_solve_passes_options_to_its_method(capsys, tmp_path):
    """An adversarial review: gfp's p, lstsq's tol and the like could not be reached from the shell."""
    position = tmp_path / "p.txt"
    position.write_text("??????\n?1122?\n")  # report 002's board: GF(2) finds nothing, GF(3) does
    assert main(["solve", str(position), "--method", "gfp", "--option", "p=2"]) == 0
    assert "== gfp (sound): 0 safe, 0 mines" in capsys.readouterr().out
    assert main(["solve", str(position), "--method", "gfp", "--option", "p=3"]) == 0
    mod3 = sweeplab.deduce(sweeplab.Observation.from_text(position.read_text()), "gfp", p=3)
    assert mod3.safe | mod3.mines  # so the line below says p reached the method
    assert f"== gfp (sound): {len(mod3.safe)} safe, {mines_text(len(mod3.mines))}" in capsys.readouterr().out
    for option, message in [("q=3", "method 'gfp' has no option 'q'; its options: ['engine', "),
                            ("p", "options look like key=value"),
                            ("time_limit=1", "time_limit has its own flag, --time-limit"),
                            ("use_total=no", "use_total has its own flag, --no-total"),
                            ("probabilities=true", "probabilities has its own flag, --probabilities"),
                            ("engine=Galois", "option engine of method 'gfp' must be one of ('flint', "),
                            ("method=rref", "method 'gfp' has no option 'method'"),
                            ("obs=1", "method 'gfp' has no option 'obs'"),
                            ("level=expert", "method 'gfp' has no option 'level'")]:
        assert main(["solve", str(position), "--method", "gfp", "--option", option]) == 2
        assert message in capsys.readouterr().err
    assert main(["solve", str(position), "--all", "--option", "p=3"]) == 2
    assert "--option goes with one --method" in capsys.readouterr().err


def test_methods_and_agents_list_and_describe_their_options(capsys):
    """A judge's review: no command-line way to read what an agent's option does."""
    assert main(["methods"]) == 0
    listing = capsys.readouterr().out
    assert all(name in listing for name in sweeplab.METHODS) and "lstsq            NO" in listing
    assert main(["methods", "gfp"]) == 0
    text = capsys.readouterr().out
    assert "  p = 7\n      A prime below 2**63" in text and "--method gfp --option KEY=VALUE" in text
    assert main(["methods", "trivial"]) == 0
    assert capsys.readouterr().out.endswith("no options\n")
    assert main(["agents"]) == 0
    listing = capsys.readouterr().out
    assert all(name in listing for name in sweeplab.AGENTS)
    assert main(["agents", "best"]) == 0
    text = capsys.readouterr().out
    for option in ("lookahead = 5", "endgame_budget = 300000", "coin_flip_credit = None", "use_total = True",
                   "methods = ('trivial', 'enumerate')"):
        assert f"\n  {option}\n      " in text, option  # each with its documentation below it
    assert "(undocumented)" not in text
    assert main(["agents", "bset"]) == 2
    assert "unknown agent 'bset' (did you mean 'best'?" in capsys.readouterr().err
    assert main(["methods", "--plugin", "sweeplab.example_plugin", "rref-reversed"]) == 0
    assert capsys.readouterr().out.startswith("rref-reversed: ")


def _needs_k(obs, *, use_total=True, k, **options):
    """Parameters
    ----------
    k : int
        The k.
    """
    return set(), set()


class _Rule:
    def __call__(self, obs, *, use_total=True, depth=1):
        """Parameters
        ----------
        depth : int
            How deep.
        """
        return set(), set()


def test_methods_describes_plugins_of_every_shape():
    """A review: required options showed inspect._empty, **kwargs 'no options', partials and callable
    objects '(undocumented)'."""
    import functools
    import io
    from unittest import mock

    from sweeplab.commands.methods import method_text
    from sweeplab.methods.gfp import forced_cells as gfp_cells

    plugins = {"needs-k": _needs_k, "gfp3": functools.partial(gfp_cells, p=3), "rule": _Rule()}
    try:
        for name, function in plugins.items():
            sweeplab.register_method(name, function, sound=True, complete=False, summary=name)
        needs_k = method_text("needs-k")
        assert "  k = (required)\n      The k." in needs_k and "takes any keyword option" in needs_k
        position = "??\n11\n"
        for argv, status in [(["--option", "k=1", "--option", "depth=2"], 0), (["--option", "method=x"], 2)]:
            with mock.patch("sys.stdin", io.StringIO(position)):
                assert main(["solve", "-", "--method", "needs-k", *argv]) == status
        assert "  p = 3\n      A prime below 2**63" in method_text("gfp3")
        assert "  depth = 1\n      How deep." in method_text("rule")
    finally:
        for name in plugins:
            sweeplab.unregister_method(name)


@pytest.mark.parametrize("name", sorted(sweeplab.AGENTS))
def test_every_agent_option_is_documented(name, capsys):
    import dataclasses

    from sweeplab.commands import parameter_docs

    cls = sweeplab.AGENTS[name].cls
    docs = {}
    for klass in reversed(cls.__mro__):
        docs.update(parameter_docs(klass.__doc__))
    for f in dataclasses.fields(cls):
        if f.init and f.name not in getattr(cls, "unused_options", set()):
            assert docs.get(f.name, ("", ""))[1], f"{name}: option {f.name} has no text"
    assert main(["agents", name]) == 0
    assert "(undocumented)" not in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(sweeplab.METHODS))
def test_every_method_option_is_documented(name, capsys):
    from sweeplab.commands import parameter_docs

    docs = parameter_docs(sweeplab.METHODS[name].function.__doc__)
    for option in sweeplab.METHODS[name].options:
        assert docs.get(option, ("", ""))[1], f"{name}: option {option} has no text"
    assert main(["methods", name]) == 0
    assert "(undocumented)" not in capsys.readouterr().out


def test_python_dash_m_sweeplab_is_the_command_line():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "sweeplab", "--version"], capture_output=True, text=True,
                          check=True)
    assert done.stdout.startswith("sweeplab ")


@pytest.mark.parametrize("exc", [RuntimeError("a bug"), KeyError("x"), TypeError("a bug")])
def test_bugs_keep_their_traceback(monkeypatch, exc):
    fail_with(monkeypatch, exc)
    with pytest.raises(type(exc)):
        main(["solve", "-"])


def test_compare_plays_both_agents_on_the_same_games(capsys):
    argv = ["compare", "probability", "best lookahead=1", "--level", "beginner", "--games", "30",
            "--seed", "5", "--first-click", "zero", "--workers", "1", "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    a = sweeplab.play("probability", level="beginner", games=30, seed=5, first_click="zero")
    b = sweeplab.play("best", level="beginner", games=30, seed=5, first_click="zero", lookahead=1)
    # probability opens at a random cell, best at (2, 2): the same seeds, not quite the same boards
    assert out.startswith("first click zero, level beginner; the same 30 seeds for both (seed 5); the first "
                          "clicks differ, (random) and (2,2), so the boards differ where a first click moved")
    assert f"A  probability       {100 * a['won'].mean():6.2f}% [" in out
    assert f"({int(b['won'].sum())}/30)" in out.splitlines()[2]
    assert f"B - A: {paired_difference(a['won'], b['won'])}" in out


def test_compare_says_an_unsound_agents_wrong_claims(capsys):
    """An unsound challenger only looked worse: its wrong claims (mines it opened as certain) went unsaid."""
    argv = ["compare", 'chain methods=["lstsq"]', "best", "--level", "intermediate", "--games", "60",
            "--seed", "1", "--workers", "1", "--no-progress"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    games = sweeplab.play("chain", methods=["lstsq"], level="intermediate", games=60, seed=1)
    wrong, hit = int(games["wrong_claims"].sum()), int((games["wrong_claims"] > 0).sum())
    assert wrong > 0 and lines[1].endswith(f"; {wrong} wrong claim{'s' * (wrong != 1)} in {hit} games")
    assert "wrong" not in lines[2]  # best claims nothing wrong: nothing said


def test_play_takes_agent_options_after_the_name(capsys):
    """As compare does: "best lookahead=1 first_move=[2,2]" is the agent and its options (it was refused
    as an unknown agent)."""
    common = ["--level", "beginner", "--games", "20", "--seed", "3", "--workers", "1", "--no-progress"]
    assert main(["play", "--agent", "best lookahead=1 first_move=[2,2]", *common]) == 0
    inline = capsys.readouterr().out
    assert main(["play", "--agent", "best", "--option", "lookahead=1", "--first-move", "2,2", *common]) == 0
    flags = capsys.readouterr().out
    wins = sweeplab.play("best", level="beginner", games=20, seed=3, lookahead=1, first_move=(2, 2))["won"]
    assert f" {int(wins.sum())} " in inline.splitlines()[1]
    assert inline.splitlines()[1].split()[:-1] == flags.splitlines()[1].split()[:-1]  # all but games/s
    # the seed and the code, which the table alone did not say (a researcher pasting it could not rerun it)
    # ...and the rules, which the table leaves out when they are fixed (noise and mode looked the same)
    assert inline.splitlines()[-1].startswith("beginner; first click safe; classic mode; no clue noise; "
                                              f"seed 3, games 0..19; sweeplab {sweeplab.__version__}")
    common[1:2] = ["intermediate", "--mode", "score", "--noise", "under:0.3"]
    assert main(["play", "--agent", "trivial", *common]) == 0
    said = "intermediate; first click safe; score mode; clue noise under, p = 0.3; seed 3"
    assert said in capsys.readouterr().out


def test_compare_gives_each_agent_its_own_first_move(capsys):
    argv = ["compare", "best first_move=[2,2]", "best first_move=corner", "--level", "beginner",
            "--games", "12", "--first-click", "zero", "--workers", "1", "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    a = sweeplab.play("best", level="beginner", games=12, first_click="zero", first_move=(2, 2))
    b = sweeplab.play("best", level="beginner", games=12, first_click="zero", first_move="corner")
    assert f"B - A: {paired_difference(a['won'], b['won'])}" in out
    # the zero rule clears mines from around each first cell: the boards are not the same
    assert ("the same 12 seeds for both (seed 0); the first clicks differ, (2,2) and (corner), so the boards "
            "differ where a first click moved a mine") in out.splitlines()[0]
    argv = ["compare", "best first_move=[2,2]", "best-v1", "--level", "beginner", "--games", "4",
            "--first-click", "zero", "--workers", "1", "--no-progress"]
    assert main(argv) == 0  # best-v1 starts a zero at (2, 2) too
    assert "; the same 4 games for both (seed 0)" in capsys.readouterr().out.splitlines()[0]


def test_usage_errors_return_2(capsys):
    assert main(["solve"]) == 2
    assert "the following arguments are required" in capsys.readouterr().err
    assert main(["solve", "-", "--mines", "many"]) == 2
    assert "invalid int value" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["play", "--games", "abc"], ["generate", "--level", "begginer"],
                                  ["report", "--preset", "big"], ["frob"]])
def test_usage_errors_are_one_line_naming_the_help(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sweeplab") and "error: " in err
    assert err.rstrip().endswith("--help"), err


def test_a_zero_first_click_that_cannot_fit_is_one_clear_line(capsys):
    """73 mines on 9x9 leave a zero only in a corner: opening (2, 2) must say so, not crash the game; the
    automatic first cell takes the corner."""
    argv = ["play", "--agent", "best", "--shape", "9x9", "--mines", "73", "--first-click", "zero",
            "--games", "2", "--workers", "1", "--no-progress"]
    assert main([*argv, "--first-move", "2,2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sweeplab play: error: a zero first click at (2, 2) cannot fit: 73 mines on 9x9")
    assert err.count("\n") == 1
    assert main(argv) == 0


@pytest.fixture
def junk(tmp_path):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "list.jsonl").write_text("[1]\n")
    (tmp_path / "nolabel.jsonl").write_text('{"format": "sweeplab.position", "version": 1, "rows": ["??"]}\n')
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe\n")
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "parts"),
    [
        (["bench", "--scaling", "--areas", "abc"], ["--areas: 'abc' is not an integer"]),
        (["bench", "--scaling", "--areas", "-4"], ["--areas: -4 is outside"]),  # was a TypeError traceback
        (["bench", "--scaling", "--areas", ","], ["--areas: ',' has an empty entry"]),  # was a traceback
        (["bench", "--scaling", "--areas", "90"], ["--areas: 90 is not a positive square"]),
        (["bench", "--scaling", "--densities", "0.1,nan"], ["--densities: nan is outside [0.0, 1.0]"]),
        (["bench", "--scaling", "--densities", "x"], ["--densities: 'x' is not a number"]),
        (["bench", "--scaling", "--positions", "0"], ["--positions must be at least 1"]),  # was a traceback
        (["bench", "--scaling", "--positions", "-2"], ["--positions must be at least 1"]),  # OverflowError
        (["bench", "--scaling", "--cap", "-1"], ["--cap must be a positive number of seconds"]),
        (["bench", "--scaling", "--seed", "-1"], ["--seed must be at least 0"]),
        (["bench", "--budget", "0"], ["--budget must be a positive number"]),
        (["bench", "--out", "{tmp}/afile"], ["--out {tmp}/afile is a file"]),
        (["bench", "--corpus", "{tmp}/list.jsonl"], ["{tmp}/list.jsonl:1: a corpus line is a JSON object"]),
        (["bench", "--corpus", "{tmp}/nolabel.jsonl"], ["{tmp}/nolabel.jsonl:1: not a corpus position"]),
        (["bench", "--corpus", "{tmp}/bin.jsonl"], ["{tmp}/bin.jsonl: not a corpus file"]),
        (["bench", "--corpus", "{tmp}"], ["{tmp} is a directory; give a corpus file"]),
        (["bench", "--corpus", "{tmp}/nope.jsonl"], ["nope.jsonl"]),
        (["corpus", "--seed", "-1", "--out", "{tmp}/c.jsonl"], ["--seed must be a non-negative integer"]),
        (["corpus", "--seed", "1", "--out", "{tmp}"], ["--out {tmp} is a directory"]),
        (["corpus", "--seed", "1", "--out", "{tmp}/afile/c.jsonl"], ["{tmp}/afile is a file"]),
        (["corpus", "--seed", "1", "--out", "{tmp}/c.jsonl", "--slices", ","], ["--slices: no slice names"]),
        (["corpus", "--seed", "1", "--out", "{tmp}/c.jsonl", "--slices", "nope"], ["unknown slice(s)"]),
        (["report", "--seed", "-1"], ["--seed must be a non-negative integer"]),
        (["report", "--out", "{tmp}/afile"], ["--out {tmp}/afile is a file"]),
        (["report", "--only", "nope"], ["unknown experiment(s) ['nope']; choose from"]),
        (["compare", "best", "best", "--level", "beginner"], ["both agents are 'best'"]),
        (["play", "--agent", "best lookahead=1", "--option", "lookahead=2", "--level", "beginner"],
         ["both give lookahead", "once"]),
        (["play", "--agent", "best first_move=[2,2]", "--first-move", "3,3", "--level", "beginner"],
         ["and --first-move both give first_move"]),
        # a default restated: refused as the same agent, not as a sweep point played twice
        (["compare", "best", "best lookahead=5", "--level", "beginner"], ["are the same agent", "default"]),
        (["compare", "best", "lookahead=3", "--level", "beginner"], ["agent 'lookahead=3': start with"]),
        (["compare", "best", "best lookahead=3 lookahead=4", "--level", "beginner"], ["given twice"]),
        (["compare", "best", "best level=expert", "--level", "beginner"], ["level has its own flag"]),
        (["compare", "best", "best-v1"], ["give --level or --shape"]),
        (["compare", "best", "nope", "--level", "beginner"], ["unknown agent 'nope'; choose from"]),
        (["compare", "", "best", "--level", "beginner"], ["agent '' is empty"]),
        (["compare", "best", "best lookahead=ten", "--level", "beginner", "--games", "20"],
         ["best: option lookahead must be a whole number at least 0, got 'ten' (default 5)"]),
        (["play", "--agent", "best tolerance=-0.1", "--level", "beginner"],
         ["best: option tolerance must be a number at least 0, got -0.1"]),
        (["compare", "best", "best free_coin_flips=nein", "--level", "beginner"],
         ["option free_coin_flips must be true or false, got 'nein'"]),
        (["sweep", "--agent", "best", "--level", "beginner", "--games", "5", "--out", "{tmp}/sw",
          "--option", "tolerance=abc"],
         ["option tolerance must be a number"]),
    ],
)
def test_bad_flags_are_one_line_before_any_work(junk, capsys, argv, parts):
    argv = [a.replace("{tmp}", str(junk)) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sweeplab {argv[0]}: error: ") and err.count("\n") == 1, err
    for part in parts:
        assert part.replace("{tmp}", str(junk)) in err, err
    assert not (junk / "c.jsonl").exists()


def test_bench_finds_the_committed_corpus_from_any_directory(monkeypatch, tmp_path):
    from sweeplab.commands.bench import DEFAULT_CORPUS, default_corpus

    monkeypatch.chdir(tmp_path)  # no data/ here: the clone's corpus
    assert Path(default_corpus()) == Path(__file__).resolve().parents[1] / DEFAULT_CORPUS
    (tmp_path / DEFAULT_CORPUS).parent.mkdir(parents=True)
    (tmp_path / DEFAULT_CORPUS).write_bytes(b"")  # one of the current directory comes first
    assert default_corpus() == DEFAULT_CORPUS


@pytest.mark.parametrize("argv", [["solve", "-", "--frobnicate", "x\ny"], ["play", "--games", "1\n2"],
                                  ["play", "--level", "be\nginner", "--agent", "trivial"]])
def test_usage_errors_quoting_a_newline_stay_one_line(argv, capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("1?"))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"sweeplab {argv[0]}: error: "), err


def test_compare_reads_a_first_move_by_the_cell_it_opens(capsys):
    """``best`` opens at "corner", the other at [0,0]: the same cell, so the same boards, where compare said
    the first clicks differed and the boards with them."""
    argv = ["compare", "best", "best-v1 first_move=[0,0]", "--level", "beginner", "--games", "4",
            "--workers", "1", "--no-progress"]
    assert main(argv) == 0
    assert "; the same 4 games for both (seed 0)" in capsys.readouterr().out.splitlines()[0]
    argv = ["compare", "best first_move=centre", "best-v1 first_move=[4,4]", "--level", "beginner", "--games",
            "4", "--first-click", "zero", "--workers", "1", "--no-progress"]
    assert main(argv) == 0
    assert "; the same 4 games for both (seed 0)" in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize(("args", "message"), [
    (["--first-move", "-1,3"], "argument --first-move: expected one argument (a value that starts with '-' "
                               "is written --first-move=VALUE); see sweeplab play --help"),
    (["--first-move=-1,3"], "a first-move cell's row and column count from 0 (0,0 is the top left corner), "
                            "got '-1,3'"),
    (["--first-move=3,-1"], "a first-move cell's row and column count from 0"),
])
def test_a_negative_first_move_is_named_with_its_fix(capsys, args, message):
    """``--first-move -1,3`` got argparse's bare "expected one argument", and ``3,-1`` "a first-move cell is
    ROW,COL" (found in the command-line review)."""
    assert main(["play", "--agent", "best", "--level", "beginner", "--games", "2", *args]) == 2
    assert message in capsys.readouterr().err


def test_the_citation_names_this_version():
    """CITATION.cff says what to cite; its version is the package's (a reviewer found no way to cite it)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "CITATION.cff").read_text(encoding="utf-8")
    fields = dict(re.findall(r"^([a-z-]+): *(\S.*)$", text, flags=re.M))
    assert fields["cff-version"] == "1.2.0" and fields["type"] == "software"
    assert fields["version"] == sweeplab.__version__ and "sweeplab --version" in text


@pytest.mark.parametrize("command", [["bench", "--corpus", "tiny", "--methods", "trivial"],
                                     ["generate", "--level", "beginner", "--count", "1"],
                                     ["report", "--only", "014-reach", "--preset", "smoke"]])
def test_an_empty_out_is_refused_not_the_current_directory(command, tmp_path, monkeypatch, capsys):
    """An adversarial review: bench and generate wrote into the current directory (bench replacing any
    manifest.json there), as play and sweep refuse."""
    monkeypatch.chdir(tmp_path)
    assert main([*command, "--out", ""]) == 2
    assert "--out '' names no directory; give a path (--out . for" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_solve_refusals_name_the_flag_that_raises_the_budget(capsys, tmp_path):
    """Session 47's review: a refusal said "raise the option time_limit", which the shell spells
    --time-limit (and refuses as --option time_limit=...)."""
    position = tmp_path / "p.txt"
    position.write_text("??????\n?1221?\n??????\n")
    assert main(["solve", str(position), "--method", "enumerate", "--time-limit", "1e-9"]) == 0
    out = capsys.readouterr().out
    assert "refused: method 'enumerate' ran past its time budget" in out
    assert "raise the option time_limit (seconds, or None for no limit; here --time-limit SECONDS)" in out


def test_an_out_that_cannot_be_written_is_refused_before_the_work(tmp_path, capsys):
    """A review of the command line: `bench --out /sys/foo` benched for 51 s and `corpus` played every game
    before failing on a raw "[Errno 1] Operation not permitted"; a file in the way read "Not a directory"."""
    blocker = tmp_path / "a-file.txt"
    blocker.write_text("x")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    for argv in (["corpus", "--seed", "1", "--out", str(blocker / "c.jsonl.gz")],
                 ["bench", "--corpus", "tiny", "--methods", "trivial", "--out", str(blocker / "sub")],
                 ["report", "--preset", "smoke", "--out", str(blocker / "sub")],
                 ["generate", "--level", "beginner", "--count", "1", "--out", str(blocker / "b")]):
        assert main(argv) == 2
        assert f"{blocker} is a file, so nothing can be made inside it" in capsys.readouterr().err
    if os.geteuid() != 0:  # root writes anywhere: the folder's mode does not stop it
        assert main(["corpus", "--seed", "1", "--out", str(locked / "c.jsonl.gz")]) == 2
        assert "cannot write in" in capsys.readouterr().err
    assert main(["solve", str(tmp_path / "missing.txt")]) == 2  # a path's error, without "[Errno 2]"
    assert capsys.readouterr().err.endswith(
        f"error: {tmp_path / 'missing.txt'}: No such file or directory; check the path, or give another\n")


def test_an_option_given_twice_is_refused_on_every_command(tmp_path, capsys):
    """A review of the command line: a repeated --option (or --set) kept the last value silently, where
    --agent "best lookahead=3 lookahead=4" was refused."""
    pos = tmp_path / "pos.txt"
    pos.write_text("??????\n?1122?\n")
    for argv, flag in [(["play", "--level", "beginner", "--games", "1", "--option", "lookahead=3", "--option",
                         "lookahead=4"], "--option lookahead"),
                       (["sweep", "--agent", "best", "--level", "beginner", "--games", "1", "--option",
                         "lookahead=3", "--option", "lookahead=4", "--out", str(tmp_path / "sw")],
                        "--option lookahead"),
                       (["solve", str(pos), "--method", "gfp", "--option", "p=3", "--option", "p=5"],
                        "--option p"),
                       (["report", "--only", "014-reach", "--preset", "smoke", "--set", "games=2", "--set",
                         "games=3", "--out", str(tmp_path / "r")], "--set games")]:
        assert main(argv) == 2
        assert f"{flag} is given twice" in capsys.readouterr().err
    assert not (tmp_path / "sw").exists() and not (tmp_path / "r").exists()


def test_catalogue_and_messages_say_what_is_allowed_in_words_that_count(tmp_path, capsys):
    """A review of the command line: `methods gfp` listed time_limit as an --option that solve refuses,
    `bench --corpus nosuch` named no preset, iterate=1 was refused as not "True or False" (the command line
    reads true, false), and "1 covered cells", "wrote 1 experiments"."""
    (tmp_path / "one.txt").write_text("?\n3\n")
    assert main(["methods", "gfp"]) == 0
    assert "(sweeplab solve: --time-limit SECONDS, not --option)" in capsys.readouterr().out
    assert main(["bench", "--corpus", "nosuchpreset"]) == 2
    assert "the presets: tiny, small, huge, full" in capsys.readouterr().err
    assert main(["solve", str(tmp_path / "one.txt"), "--method", "rref", "--option", "iterate=1"]) == 2
    assert "got 1 (the command line also reads true or false, yes or no" in capsys.readouterr().err
    main(["solve", str(tmp_path / "one.txt")])
    assert "position 2x1: 1 covered cell, 0 known mines" in capsys.readouterr().out


def test_links_as_out_write_through_or_are_refused_before_the_work(tmp_path, capsys):
    """A review of today's atomic writes: a symlinked corpus was replaced by a plain file (its target kept
    the old corpus), and a link to nowhere as --out passed the check, to fail after the work."""
    from sweeplab.corpus import load_corpus, save_corpus

    positions = load_corpus(Path(__file__).parents[1] / "data" / "corpus" / "corpus-small.jsonl.gz")
    shared = tmp_path / "shared.jsonl"
    save_corpus(positions[:5], shared)
    link = tmp_path / "link.jsonl"
    link.symlink_to(shared)
    save_corpus(positions[:20], link)
    assert link.is_symlink() and len(load_corpus(shared)) == 20
    dangling = tmp_path / "out"
    dangling.symlink_to(tmp_path / "nowhere")
    assert main(["bench", "--corpus", "tiny", "--methods", "trivial", "--out", str(dangling)]) == 2
    assert f"is a link to {tmp_path / 'nowhere'}, which does not exist" in capsys.readouterr().err
    assert main(["bench", "--corpus", "tiny", "--methods", "trivial", "--out", str(dangling / "sub")]) == 2
    assert f"{dangling} is a link to {tmp_path / 'nowhere'}" in capsys.readouterr().err  # a parent
    # a corpus --out linked to a file not yet made (in a folder not yet made): written where it points
    from sweeplab.commands.corpus import _check_out

    ahead = tmp_path / "ahead.jsonl"
    ahead.symlink_to(tmp_path / "later" / "corpus.jsonl")
    _check_out(str(ahead))
    save_corpus(positions[:3], ahead)
    assert ahead.is_symlink() and len(load_corpus(tmp_path / "later" / "corpus.jsonl")) == 3
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop)
    with pytest.raises(ValueError, match="the link cannot be followed"):
        _check_out(str(loop))


def test_compare_resumed_with_its_agents_swapped_says_so(tmp_path, capsys):
    """An adversarial review: the refusal spoke of a grid's keys and of running the same sweep."""
    out = str(tmp_path / "cmp")
    run = ["--level", "beginner", "--games", "6", "--workers", "1", "--no-progress", "--out", out]
    assert main(["compare", "trivial", "trivial use_total=true", *run]) == 0
    capsys.readouterr()
    assert main(["compare", "trivial use_total=true", "trivial", *run]) == 2
    err = capsys.readouterr().err
    assert "A and B swapped: run `sweeplab compare trivial 'trivial use_total=true' ...` to resume" in err
    for command, per in (("play", "games to play"), ("compare", "games per agent")):
        assert main([command, "--help"]) == 0
        assert per in capsys.readouterr().out
