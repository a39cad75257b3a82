"""``sweeplab solve``: deductions per method, counts, timings and probabilities."""

from __future__ import annotations

import io

import pytest

import sweeplab
from sweeplab import Observation, save_position
from sweeplab.cli import main
from sweeplab.commands.solve import overlay, probability_grid, read_position


def solve(argv, capsys, monkeypatch, stdin=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["solve", *argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_default_method_from_stdin(capsys, monkeypatch):
    code, out, _ = solve(["-"], capsys, monkeypatch, stdin="???\n121\n")
    assert code == 0
    assert "== enumerate (sound, complete): 1 safe, 2 mines" in out
    _, one, _ = solve(["-", "--method", "enumerate"], capsys, monkeypatch, stdin="??????\n?1122?\n")
    assert "1 safe, 1 mine," in one  # "1 mines" before a student's review
    assert "MSM\n121" in out
    assert "total unknown" in out


def test_all_methods_with_total_and_probabilities(tmp_path, capsys, monkeypatch):
    path = tmp_path / "p.txt"
    path.write_text("?1?\n2?1\n???\n")
    code, out, _ = solve([str(path), "--all", "--mines", "3", "--probabilities"], capsys, monkeypatch)
    assert code == 0
    for name in sweeplab.METHODS:
        assert f"== {name} (" in out
    assert "method            safe  mines         ms" in out
    assert "exact mine probabilities" in out
    probs = sweeplab.probabilities(Observation.from_text("?1?\n2?1\n???", mines=3))
    assert f"{probs[0, 0]:.3f}" in out or "S" in out.splitlines()[-3]


def test_lp_gap_is_visible(capsys, monkeypatch):
    code, out, _ = solve(["-", "-m", "lp", "-p"], capsys, monkeypatch, stdin="?1?\n2?1\n???\n")
    assert code == 0
    assert "== lp (sound): 0 safe, 0 mines" in out
    # the probabilities show the cell lp misses as forced safe
    assert out.splitlines()[-3].split()[2] == "S"


def test_json_position_and_no_total(tmp_path, capsys, monkeypatch):
    path = tmp_path / "p.json"
    save_position(Observation.from_text("1??\n???", mines=1), path)
    code, out, _ = solve([str(path), "-m", "milp"], capsys, monkeypatch)
    assert code == 0 and "3 safe" not in out and "2 safe, 0 mines" in out
    code, out, _ = solve([str(path), "-m", "milp", "--no-total"], capsys, monkeypatch)
    assert code == 0 and "total 1 (ignored)" in out and "0 safe, 0 mines" in out


def test_noise_option(capsys, monkeypatch):
    code, out, _ = solve(["-", "--noise", "over", "-m", "enumerate"], capsys, monkeypatch, stdin="0?\n??\n")
    assert code == 0 and "noise over" in out and "3 safe" in out
    code, out, _ = solve(["-", "--noise", "under", "--all"], capsys, monkeypatch, stdin="1?\n??\n")
    assert code == 0 and "refused" in out  # equality-based methods refuse bound noise


def test_inconsistent_and_bad_input(capsys, monkeypatch):
    code, out, _ = solve(["-"], capsys, monkeypatch, stdin="1F\nF?\n")
    assert code == 1 and "inconsistent position" in out
    code, _, err = solve(["-", "-m", "nope"], capsys, monkeypatch, stdin="??\n")
    assert code == 2 and "unknown method" in err
    code, _, err = solve(["-"], capsys, monkeypatch, stdin="?x\n")
    assert code == 2 and "unknown character" in err
    code, _, err = solve(["/nonexistent/position.txt"], capsys, monkeypatch)
    assert code == 2
    code, out, _ = solve(["--help"], capsys, monkeypatch)  # the help says what the statuses mean
    assert code == 0 and "Exits 1 when no layout fits the position" in " ".join(out.split())


def test_helpers(tmp_path):
    obs = Observation.from_text("??\n11\n..", mines=1)
    assert overlay(obs, {(0, 0)}, {(0, 1)}).splitlines()[0] == "SM"
    grid = probability_grid(obs, sweeplab.probabilities(obs))
    assert grid.splitlines()[0].split() == ["0.500", "0.500"]
    path = tmp_path / "t.txt"
    path.write_text("??\n11\n..\n")
    assert read_position(str(path), mines=1) == obs


@pytest.mark.parametrize("flag", ["--all", "--method=enumerate"])
def test_help_mentions_options(flag, capsys):
    assert main(["solve", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--probabilities" in out and "--mines" in out and flag.split("=")[0] in out


# --- malformed input: one line naming the file, exit 2 (issue 14 items 10, 12) ---------------------------


def one_line_error(code, err, *parts):
    assert code == 2, err
    assert err.startswith("sweeplab solve: error: ") and err.count("\n") == 1 and "Traceback" not in err
    for part in parts:
        assert part in err, err


def test_directory_is_one_line(tmp_path, capsys, monkeypatch):
    """``solve`` on a directory printed a traceback."""
    code, _, err = solve([str(tmp_path)], capsys, monkeypatch)
    one_line_error(code, err, str(tmp_path))


def test_missing_file_names_it(tmp_path, capsys, monkeypatch):
    code, _, err = solve([str(tmp_path / "nope.txt")], capsys, monkeypatch)
    one_line_error(code, err, "nope.txt")


@pytest.mark.parametrize(
    ("content", "parts"),
    [
        (b"\xff\xfe?\x001\x00", ["not UTF-8 text"]),
        (b"??\n?x\n", ["p.txt: unknown character 'x' at row 1, column 1"]),
        (b'{"format": "sweeplab.position", "version": 1, "rows": ["??"]', ["p.txt: not valid JSON"]),
        (b"{" + b'"a": [' * 50_000, ["p.txt: "]),
        (b'{"format": "sweeplab.position", "version": true, "rows": ["??"]}', ["p.txt: unsupported"]),
        (b'{"format": "sweeplab.position", "version": 1, "rows": ["??"], "mines": 9}', ["mines=9 exceeds"]),
        (b"", ["p.txt: empty position"]),
    ],
)
def test_bad_files_are_one_line(tmp_path, capsys, monkeypatch, content, parts):
    path = tmp_path / "p.txt"
    path.write_bytes(content)
    code, _, err = solve([str(path)], capsys, monkeypatch)
    one_line_error(code, err, *parts)


def test_byte_order_mark_is_accepted(tmp_path, capsys, monkeypatch):
    path = tmp_path / "p.txt"
    path.write_bytes(b"\xef\xbb\xbf???\n121\n")
    code, out, _ = solve([str(path)], capsys, monkeypatch)
    assert code == 0 and "1 safe, 2 mines" in out
    doc = b'{"format": "sweeplab.position", "version": 1, "rows": ["???", "121"]}'
    path.write_bytes(b"\xef\xbb\xbf" + doc)
    code, out, _ = solve([str(path)], capsys, monkeypatch)
    assert code == 0 and "1 safe, 2 mines" in out
    code, out, _ = solve(["-"], capsys, monkeypatch, stdin="\ufeff???\n121\n")
    assert code == 0 and "1 safe, 2 mines" in out


def test_undecodable_stdin_is_one_line(capsys, monkeypatch):
    stdin = io.TextIOWrapper(io.BytesIO(b"\xff\xfe??"), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    code = main(["solve", "-"])
    one_line_error(code, capsys.readouterr().err, "<stdin>: not UTF-8 text")


@pytest.mark.parametrize(
    ("argv", "parts"),
    [
        (["-", "--mines", "-1"], ["<stdin>: mines must be non-negative"]),
        (["-", "--mines", "7"], ["mines=7 exceeds the 6 cells"]),
        (["-", "-m", "nope"], ["unknown method 'nope'", "enumerate"]),
        (["-", "--win-rates", "5"], ["--win-rates", "--mines N"]),
        (["-", "--mines", "2", "--win-rates", "-1"], ["--win-rates takes a number of layouts from 1 to"]),
        # a reviewer: 10**9 planned its tasks until memory ran out (19 GB in two minutes)
        (["-", "--mines", "2", "--win-rates", "1000000001"], ["from 1 to 1,000,000, got 1000000001"]),
        (["-", "--mines", "2", "--move", "0,0"], ["--move needs --win-rates"]),
        (["-", "--mines", "2", "--win-rates", "5", "--move", "0;1"], ["--move takes ROW,COL", "'0;1'"]),
        (["-", "--mines", "2", "--win-rates", "5", "--move", "1,1"], ["move (1, 1) is not a covered cell"]),
        (["-", "--mines", "2", "--win-rates", "5", "--agent", "nope"], ["nope"]),
        (["-", "--mines", "2", "--win-rates", "5", "--agent", "best lookahed=2"], ["did you mean lookahead"]),
        (["-", "--mines", "2", "--win-rates", "5", "--agent", "best workers=2"], ["give --workers"]),
        (["-", "--mines", "2", "--win-rates", "5", "--workers", "0"], ["workers must be a positive integer"]),
        (["-", "--mines", "2", "--win-rates", "0"], ["--win-rates takes a number of layouts", "got 0"]),
        (["-", "--mines", "2", "--agent", "best"], ["--agent needs --win-rates"]),
        (["-", "--mines", "2", "--seed", "3", "--workers", "2"], ["--seed, --workers need --win-rates"]),
    ],
)
def test_bad_flags_are_one_line(capsys, monkeypatch, argv, parts):
    code, _, err = solve(argv, capsys, monkeypatch, stdin="???\n121\n")
    one_line_error(code, err, *parts)


def test_win_rates_of_moves(capsys, monkeypatch):
    """``--win-rates``: each move on the same sampled layouts, with ``best`` finishing the game."""
    code, out, _ = solve(["-", "--mines", "2", "--win-rates", "30", "--move", "0,1", "--move", "0,0",
                          "--workers", "2"], capsys, monkeypatch, stdin="???\n121\n")
    assert code == 0
    table = out.split("win rates, 30 layouts drawn from the position, best finishing (seed 0):\n")[1]
    rows = table.splitlines()[1:]
    # (0, 1) is safe and the rest then follows: always won; (0, 0) is a mine: never
    assert rows[0].split()[:5] == ["(0,", "1)", "0.000", "30", "100.0%"]
    assert rows[1].split()[:5] == ["(0,", "0)", "1.000", "0", "0.0%"]


def test_win_rates_take_an_agent_with_options(capsys, monkeypatch):
    """As play and compare take it: ``--agent "best lookahead=2"`` was an "unknown agent" (a review)."""
    code, out, _ = solve(["-", "--mines", "2", "--win-rates", "10", "--agent", "trivial first_move=corner"],
                         capsys, monkeypatch, stdin="???\n121\n")
    assert code == 0 and "10 layouts drawn from the position, trivial first_move=corner finishing" in out


def test_a_method_that_raises_is_shown_and_the_others_still_run(capsys, monkeypatch):
    def crashes(obs, *, use_total=True):
        raise RuntimeError("boom")

    sweeplab.register_method("test-crashes", crashes, sound=True, complete=False)
    try:
        code, out, err = solve(["-", "--all", "--mines", "2"], capsys, monkeypatch, stdin="???\n121\n")
        # alone too: the check of its options before the position is read leaves its bug to the report
        alone = solve(["-", "--method", "test-crashes"], capsys, monkeypatch, stdin="???\n121\n")
    finally:
        sweeplab.unregister_method("test-crashes")
    assert alone[0] == 1 and "== test-crashes (sound): ERROR (a bug in the method): RuntimeError" in alone[1]
    assert code == 1
    assert "== test-crashes (sound): ERROR (a bug in the method): RuntimeError: boom" in out
    assert "== enumerate (sound, complete): 1 safe, 2 mines" in out and "brute" in out
    assert "error: a bug in 'test-crashes'" in err


def test_a_researchers_method_that_calls_a_position_with_layouts_inconsistent_is_a_bug(capsys, monkeypatch):
    """An adversarial review: solve printed a registered method's false "no layout fits" as a fact."""
    def no_layout(obs, *, use_total=True):
        raise sweeplab.InconsistentPositionError("no layout")

    sweeplab.register_method("test-no-layout", no_layout, sound=True, complete=False)
    try:
        code, out, err = solve(["-", "--method", "test-no-layout", "--mines", "2"], capsys, monkeypatch,
                               stdin="???\n121\n")
        assert code == 1 and "ERROR (a bug in the method): it says no layout fits (no layout), but exact " \
                             "enumeration finds one" in out and "a bug in 'test-no-layout'" in err
        code, out, _ = solve(["-", "--method", "test-no-layout", "--mines", "2"], capsys, monkeypatch,
                             stdin="??0\n")  # none fits: it is right
        assert code == 1 and "inconsistent position: no layout" in out
    finally:
        sweeplab.unregister_method("test-no-layout")


def test_solve_all_names_a_sound_methods_claim_that_a_complete_method_refutes(capsys, monkeypatch):
    """An adversarial review: --all printed a wrong claim under "(sound)" beside enumerate's other answer."""
    def reckless(obs, *, use_total=True):
        return set(), {(0, 1)}

    sweeplab.register_method("test-reckless", reckless, sound=True, complete=False)
    try:
        code, out, err = solve(["-", "--all", "--mines", "2"], capsys, monkeypatch, stdin="???\n121\n")
    finally:
        sweeplab.unregister_method("test-reckless")
    assert code == 1 and "a bug in 'test-reckless'" in err
    assert "== test-reckless: WRONG: it is registered sound, but milp shows that [(0, 1)] is not" in out
    assert "== rref: WRONG" not in out
    # a method that fixes its own use_total answers another question than --no-total's: not judged by it
    import functools

    sweeplab.register_method("test-with-total", functools.partial(sweeplab.METHODS["enumerate"].function,
                                                                  use_total=True), sound=True, complete=True)
    try:
        code, out, _ = solve(["-", "--all", "--no-total", "--mines", "1"], capsys, monkeypatch,
                             stdin="?1--\n11--\n---?\n---?\n")
    finally:
        sweeplab.unregister_method("test-with-total")
    assert code == 0 and "== test-with-total (sound, complete): 2 safe, 1 mine" in out and "WRONG" not in out
    # one that fixes use_total=False is held to a run with the total: what no total forces, the total does

    def reckless(obs, *, use_total=True):
        return set(), {(0, 1)}

    sweeplab.register_method("test-no-total", functools.partial(reckless, use_total=False), sound=True,
                             complete=False)
    try:
        code, out, _ = solve(["-", "--all", "--mines", "2"], capsys, monkeypatch, stdin="???\n121\n")
    finally:
        sweeplab.unregister_method("test-no-total")
    assert code == 1 and "== test-no-total: WRONG" in out


def test_a_method_option_without_a_default_is_bad_input_with_advice_that_works(capsys, monkeypatch):
    """An adversarial review: solve called a missing option a bug in the method (exit 1), and every
    command advised --option, which agents refuse."""
    def needs_k(obs, *, use_total=True, k):
        return set(), set()

    sweeplab.register_method("test-needs-k", needs_k, sound=True, complete=False)
    try:
        code, _, err = solve(["-", "--method", "test-needs-k"], capsys, monkeypatch, stdin="???\n121\n")
        assert code == 2 and "needs the option 'k'" in err and "functools.partial(function, k=...)" in err
        code, out, _ = solve(["-", "--all"], capsys, monkeypatch, stdin="???\n121\n")
        assert code == 0 and "== test-needs-k (sound): skipped: it needs the option 'k'" in out
        code, _, _ = solve(["-", "--method", "test-needs-k", "--option", "k=3"], capsys, monkeypatch,
                           stdin="???\n121\n")
        assert code == 0
    finally:
        sweeplab.unregister_method("test-needs-k")


def test_an_exception_from_a_method_names_the_method_and_the_position():
    def crashes(obs, *, use_total=True):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom") as exc:
        sweeplab.deduce(Observation.from_text("???\n121", mines=2), crashes)
    note = "raised by method 'crashes' on this position (mines=2, noise=None):\n???\n121"
    assert exc.value.__notes__ == [note]


def test_probabilities_out_of_reach_keep_the_report(tmp_path, capsys, monkeypatch):
    """A reviewer: on a 300x300 position the probabilities' size refusal lost every method's result, exited
    2 as bad input, and ran past --time-limit."""
    from sweeplab import probability, rollouts
    from sweeplab.errors import ComponentTooLargeError

    asked = {}

    def too_large(obs, **kwargs):
        asked.update(kwargs)
        raise ComponentTooLargeError("enumeration would need 10.0 GiB for count arrays; raise the option "
                                     "max_bytes (bytes, or None for no limit)")

    monkeypatch.setattr(probability, "probabilities", too_large)
    monkeypatch.setattr(rollouts, "probabilities", too_large)  # imported by name there
    position = tmp_path / "p.txt"
    position.write_text("??????\n?1122?\n")
    limited = ["--method", "trivial", "-p", "--time-limit", "2"]
    assert main(["solve", str(position), "--mines", "3", *limited]) == 0
    out = capsys.readouterr().out
    assert "== trivial (sound):" in out and asked["time_limit"] == 2
    assert "probabilities: refused: enumeration would need 10.0 GiB" in out
    assert "here from Python only, sweeplab.probabilities(obs, max_bytes=BYTES)" in out
    assert main(["solve", str(position), "--mines", "3", "--method", "trivial", "--win-rates", "5"]) == 0
    assert "win rates: refused: enumeration would need" in capsys.readouterr().out
