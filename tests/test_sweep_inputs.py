"""Sweep and play inputs: duplicates refused, option values parsed, bad input: one clear line (issue 14)."""

import json
import os
import shutil
import subprocess

import pytest

import sweeplab
from sweeplab.cli import main
from sweeplab.commands.sweep import load_config, parse_option, parse_value
from sweeplab.sweeps import expand_grid, load_results, plan_chunks, run_sweep, same_games

POINT = {"agent": "trivial", "level": "beginner"}
FAST = ["--workers", "1", "--no-progress"]


def error_line(capsys):
    """The CLI's stderr, checked to be one ``sweeplab <command>: error:`` line."""
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and ": error: " in err and "Traceback" not in err, err
    return err


# --- duplicates ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("grid", "key", "value"), [
    ({"agent": ["trivial", "trivial"], "level": "beginner"}, "agent", "trivial"),
    ({"agent": "trivial", "level": "beginner", "noise": [None, ["lost", 0.1], ("lost", 0.1)]}, "noise",
     "lost"),
    ({"agent": "trivial", "shape": [[9, 9], [9, 9]], "mines": 10}, "shape", "9"),
])
def test_repeated_grid_value_is_refused(grid, key, value):
    with pytest.raises(ValueError, match=f"grid key '{key}' repeats the value") as exc:
        expand_grid(grid)
    assert value in str(exc.value)


def test_repeated_point_is_refused():
    with pytest.raises(ValueError, match="sweep point 1 repeats point 0"):
        run_sweep([POINT, dict(POINT)], games=2, workers=1, progress=False)


@pytest.mark.parametrize("other", [
    {"agent": "trivial", "level": "beginner", "first_click": "safe"},  # play's default, given
    {"agent": "trivial", "shape": [9, 9], "mines": 10.0},  # the level's board, a float count
    {"agent": "trivial", "shape": [9, 9], "density": 0.124},  # a density that rounds to 10 mines
    {"agent": "trivial", "level": "beginner", "first_move": None},
])
def test_a_point_that_plays_the_same_games_is_refused(other):
    """Points written differently but playing the same seeded games would count them twice."""
    with pytest.raises(ValueError, match="sweep point 1 .* plays the same games as point 0"):
        run_sweep([POINT, other], games=2, workers=1, progress=False)
    with pytest.raises(ValueError, match="plays the same games"):  # an agent option at its default
        best = {"agent": "best", "level": "beginner"}
        run_sweep([best, {**best, "lookahead": 5}], games=2, workers=1, progress=False)


@pytest.mark.parametrize("key, value", [("workers", 2), ("progress", False), ("scheduler", None), ("seed", 5),
                                        ("games", 3), ("start", 10)])
def test_a_point_that_says_how_the_sweep_runs_is_refused(key, value, capsys):
    """An adversarial review: points differing only by workers (progress, scheduler) played the same games
    and were pooled as one sample twice the size; seed, games and start failed as 'the wrong type'."""
    with pytest.raises(ValueError, match=f"gives '{key}': how the sweep runs, not what a point plays"):
        run_sweep([POINT, {**POINT, key: value}], games=2, workers=1, progress=False)
    assert main(["play", "--agent", "trivial", "--level", "beginner", "--games", "2", "--option",
                 f"{key}={json.dumps(value)}"]) == 2
    flag = {"progress": "--no-progress", "start": "--seed"}.get(key, f"--{key}")
    assert f"{key} is not an agent option but how the games run: give {flag}" in capsys.readouterr().err
    # compare says the same of an option in an agent's text (it said "sweep point ... gives")
    assert main(["compare", f"trivial {key}={json.dumps(value)}", "subset", "--level", "beginner",
                 "--games", "2"]) == 2
    assert f"{key} is not an agent option but how the games run: give {flag}" in capsys.readouterr().err


@pytest.mark.parametrize("first, other", [
    ({"agent": "best", "level": "expert", "first_click": "zero"},  # "auto" opens (3, 3) there
     {"agent": "best", "level": "expert", "first_click": "zero", "first_move": [3, 3]}),
    ({"agent": "best", "level": "beginner"}, {"agent": "best", "level": "beginner", "first_move": "corner"}),
    ({"agent": "trivial", "level": "beginner", "first_move": "centre"},
     {"agent": "trivial", "level": "beginner", "first_move": "center"}),
    ({"agent": "trivial", "level": "beginner", "first_move": "corner"},
     {"agent": "trivial", "level": "beginner", "first_move": [0, 0]}),
])
def test_a_first_move_written_otherwise_but_opening_the_same_cell_plays_the_same_games(first, other):
    with pytest.raises(ValueError, match="sweep point 1 .* plays the same games as point 0"):
        run_sweep([first, other], games=2, workers=1, progress=False)
    rows = [sweeplab.play(**{**p, "games": 3, "seed": 4}) for p in (first, other)]
    assert rows[0]["won"].tolist() == rows[1]["won"].tolist()  # indeed the same games
    assert rows[0]["moves"].tolist() == rows[1]["moves"].tolist()


def test_first_moves_opening_other_cells_stay_apart():
    points = [{"agent": "trivial", "level": "beginner", "first_move": m}
              for m in ("corner", [0, 1], "random")]
    assert len(run_sweep(points, games=2, workers=1, progress=False)) == 6


def test_points_differing_only_in_agent_options_stay_apart(tmp_path):
    """Their rows name the options, and the summary gives each its own row and interval."""
    from sweeplab.stats import summarize

    grid = {"agent": "chain", "level": "beginner", "methods": [["trivial"], ["trivial", "enumerate"]]}
    for out in (None, tmp_path / "s"):
        df = run_sweep(expand_grid(grid), games=6, workers=1, progress=False, out=out)
        table = summarize(df)
        assert table["games"].tolist() == [6, 6]
        assert sorted(table["options"]) == ['methods=["trivial", "enumerate"]', 'methods=["trivial"]']
    assert summarize(load_results(tmp_path / "s"))["games"].tolist() == [6, 6]
    single = run_sweep([POINT], games=3, workers=1, progress=False)
    assert (single["options"] == "").all() and "options" not in summarize(single)  # no options, no column


def test_cli_repeated_agent_is_refused_before_any_game(tmp_path, capsys):
    assert main(["sweep", "--agent", "trivial,trivial", "--level", "beginner", "--games", "200",
                 "--out", str(tmp_path / "s"), *FAST]) == 2
    err = error_line(capsys)
    assert "'agent'" in err and "'trivial'" in err
    assert not (tmp_path / "s").exists()


# --- option values ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "value"), [
    ("False", False), ("false", False), ("NO", False), ("off", False), ("True", True), ("yes", True),
    ("On", True), ("None", None), ("null", None), ("3", 3), ("-2", -2), ("0.25", 0.25), ("1e-3", 0.001),
    ("rref", "rref"), ('["rref", "lp"]', ["rref", "lp"]), ('"3"', "3"), (" no ", False),
])
def test_option_values(text, value):
    parsed = parse_value(text)
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize("text", ["use_total", "=False", "a b=1", "methods=[rref", "level=expert"])
def test_bad_options_are_refused(text):
    with pytest.raises(ValueError, match="--option"):
        parse_option(text)


@pytest.mark.parametrize("command", ["sweep", "play"])
def test_option_false_in_any_case_turns_the_total_off(tmp_path, command):
    out = tmp_path / command
    assert main([command, "--agent", "trivial", "--level", "beginner", "--games", "4", "--option",
                 "use_total=False", "--out", str(out), *FAST]) == 0
    point = json.loads((out / "manifest.json").read_text())["points"][0]
    assert point["use_total"] is False
    expected = run_sweep([{**POINT, "use_total": False}], games=4, workers=1, progress=False)
    assert load_results(out)["won"].tolist() == expected["won"].tolist()


# --- one clear line for every bad input ---------------------------------------------------------------------


@pytest.mark.parametrize(("args", "needles"), [
    (["--workers", "0"], ["workers must be a positive integer", "0"]),
    (["--workers", "-3"], ["workers must be a positive integer"]),
    (["--chunk-size", "0"], ["chunk_size must be a positive integer", "0"]),
    (["--games", "0"], ["games must be a positive integer"]),
    (["--seed", "-1"], ["seed must be a non-negative integer"]),
    (["--mines", "ten"], ["--mines", "'ten'", "whole number"]),
    (["--noise", "lost:abc"], ["--noise", "'abc'"]),
    (["--noise", "lost"], ["--noise", "kind:p"]),
    (["--shape", "9by9"], ["--shape", "16x30"]),
    (["--first-move", "3"], ["--first-move", "ROW,COL"]),
    (["--option", "use_total"], ["--option", "key=value"]),
    (["--option", "methods=[rref"], ["--option", "not valid JSON"]),
    (["--agent", "nobody"], ["unknown agent 'nobody'"]),
    (["--option", "bogus=1"], ["bogus"]),
])
def test_cli_bad_flag_values_are_one_line(tmp_path, capsys, args, needles):
    flags = {"--agent": "trivial", "--level": "beginner", "--games": "3", "--out": str(tmp_path / "s"),
             "--workers": "1"}
    if "--shape" in args or "--mines" in args:
        flags = {**{k: v for k, v in flags.items() if k != "--level"}, "--shape": "9x9", "--mines": "10"}
    flags.update(zip(args[::2], args[1::2], strict=True))
    argv = ["sweep", *[x for kv in flags.items() for x in kv], "--no-progress"]
    assert main(argv) == 2
    err = error_line(capsys)
    assert err.startswith("sweeplab sweep: error:")
    for needle in needles:
        assert needle in err


def test_cli_out_is_a_file(tmp_path, capsys):
    target = tmp_path / "file.txt"
    target.write_text("x")
    assert main(["sweep", "--agent", "trivial", "--level", "beginner", "--games", "2", "--out", str(target),
                 *FAST]) == 2
    err = error_line(capsys)
    assert str(target) in err and "is a file" in err


def test_read_only_out_fails_before_any_game(tmp_path, capsys, monkeypatch):
    out = tmp_path / "ro"
    (out / "chunks").mkdir(parents=True)
    if os.geteuid() == 0:  # root writes through permissions: make the directory immutable instead
        if shutil.which("chattr") is None:
            pytest.skip("needs chattr to make a directory read-only for root")
        if subprocess.run(["chattr", "+i", str(out)], capture_output=True).returncode != 0:
            pytest.skip("this file system has no immutable attribute")
        restore = ["chattr", "-i", str(out)]
    else:
        out.chmod(0o555)
        restore = ["chmod", "755", str(out)]
    played = []
    import sweeplab.sweeps

    real = sweeplab.sweeps.run_chunk
    monkeypatch.setattr(sweeplab.sweeps, "run_chunk", lambda p, c, s: played.append(c.games) or real(p, c, s))
    try:
        assert main(["sweep", "--agent", "trivial", "--level", "beginner", "--games", "4", "--out", str(out),
                     *FAST]) == 2
    finally:
        subprocess.run(restore, check=True)
    err = error_line(capsys)
    assert "cannot write to the sweep directory" in err and str(out) in err
    assert sum(played) == 0  # only the zero-game parameter check ran


def test_cli_unreachable_scheduler_is_one_quick_line(tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("sweeplab.executor.CONNECT_TIMEOUT", 1.0)
    assert main(["sweep", "--agent", "trivial", "--level", "beginner", "--games", "2", "--out",
                 str(tmp_path / "s"), "--scheduler", "tcp://127.0.0.1:9", "--no-progress"]) == 2
    assert "cannot connect to the Dask scheduler 'tcp://127.0.0.1:9'" in error_line(capsys)


def test_cli_corrupt_manifest_names_the_file(tmp_path, capsys):
    out = tmp_path / "s"
    out.mkdir()
    (out / "manifest.json").write_text('{"points": [')
    assert main(["sweep", "--agent", "trivial", "--level", "beginner", "--games", "2", "--out", str(out),
                 *FAST]) == 2
    assert str(out / "manifest.json") in error_line(capsys)


# --- config files ------------------------------------------------------------------------------------------


def run_config(tmp_path, text, suffix=".toml", name="out"):
    config = tmp_path / f"grid{suffix}"
    config.write_text(text)
    out = tmp_path / name
    return main(["sweep", str(config), "--out", str(out), *FAST]), out


def test_config_single_shape_as_a_list(tmp_path):
    code, out = run_config(tmp_path, 'games = 3\n[grid]\nagent = "trivial"\nshape = [9, 9]\nmines = 10\n')
    assert code == 0
    df = load_results(out)
    assert len(df) == 3 and set(df["height"]) == {9} and set(df["width"]) == {9}
    assert df["level"].tolist() == ["beginner"] * 3


def test_config_single_noise_as_a_list(tmp_path):
    code, out = run_config(tmp_path, 'games = 3\n[grid]\nagent = "random"\nlevel = "beginner"\n'
                                     'noise = ["lost", 0.1]\n')
    assert code == 0
    df = load_results(out)
    assert len(df) == 3 and set(df["noise"]) == {"lost"} and set(df["noise_p"]) == {0.1}


def test_config_list_of_method_names_is_one_chain(tmp_path):
    code, out = run_config(tmp_path, 'games = 2\n[grid]\nagent = "chain"\nlevel = "beginner"\n'
                                     'methods = ["trivial", "rref"]\n')
    assert code == 0
    df = load_results(out)  # one point of two games, not a chain per name
    assert len(df) == 2 and df["options"].nunique() == 1 and "rref" in df["options"].iloc[0]
    code, out = run_config(tmp_path, 'games = 2\n[grid]\nagent = "chain"\nlevel = "beginner"\n'
                                     'methods = [["trivial"], ["trivial", "rref"]]\n', name="chains")
    assert code == 0
    assert load_results(out)["options"].nunique() == 2
    with pytest.raises(ValueError, match="'methods' has an empty list"):  # not a chain of no methods
        expand_grid({"agent": "chain", "level": "beginner", "methods": []})


def test_config_list_of_shapes_and_noise_strings(tmp_path):
    code, out = run_config(tmp_path, 'games = 2\n[grid]\nagent = "random"\nshape = ["6x6", [7, 8]]\n'
                                     'density = 0.1\nnoise = ["none", "under:0.2"]\n')
    assert code == 0
    df = load_results(out)
    assert len(df) == 8 and set(zip(df["height"], df["width"], strict=True)) == {(6, 6), (7, 8)}


@pytest.mark.parametrize(("text", "needles"), [
    ('games = 10.7\n[grid]\nagent = "trivial"\nlevel = "beginner"\n', ["games", "10.7", "positive integer"]),
    ('games = true\n[grid]\nagent = "trivial"\nlevel = "beginner"\n', ["games", "True"]),
    ('games = 2\nseed = -1\n[grid]\nagent = "trivial"\nlevel = "beginner"\n', ["seed", "-1"]),
    ('games = 2\nchunk_size = 0\n[grid]\nagent = "trivial"\nlevel = "beginner"\n', ["chunk_size", "0"]),
    ('game = 2\n[grid]\nagent = "trivial"\nlevel = "beginner"\n', ["'game' (did you mean 'games'?)"]),
    ('games = 2\nagent = "trivial"\n[grid]\nlevel = "beginner"\n',
     ["unknown key(s) 'agent';", "go in its [grid] table"]),
    ('games = 2\n[grid]\nagent = "trivial"\nlevel = "beginner"\nagent = "x"\n', ["not valid TOML"]),
    ('games = 2\n', ["[grid]"]),
    ('games = 2\n[grid]\nagent = ["trivial", "trivial"]\nlevel = "beginner"\n', ["'agent'", "repeats"]),
    ('games = 2\n[grid]\nagent = "trivial"\nshape = "9by9"\nmines = 3\n', ["shape", "16x30"]),
])
def test_bad_config_is_one_line_naming_the_file(tmp_path, capsys, text, needles):
    code, _ = run_config(tmp_path, text)
    assert code == 2
    err = error_line(capsys)
    for needle in needles:
        assert needle in err
    if "repeats" not in needles:
        assert "grid.toml" in err


def test_bad_json_config_and_missing_config(tmp_path, capsys):
    code, _ = run_config(tmp_path, "[1, 2]", suffix=".json")
    assert code == 2 and "grid.json" in error_line(capsys)
    code, _ = run_config(tmp_path, "{oops", suffix=".json")
    assert code == 2 and "not valid JSON" in error_line(capsys)
    assert main(["sweep", str(tmp_path / "missing.toml"), "--out", str(tmp_path / "o"), *FAST]) == 2
    assert "missing.toml" in error_line(capsys)
    with pytest.raises(ValueError, match="is a directory"):
        load_config(str(tmp_path))


def test_an_unknown_agent_option_names_the_agents_options(capsys):
    from sweeplab.agents import make_agent

    with pytest.raises(ValueError, match="agent 'best' has no option 'foo'; its options: .*endgame_cells"):
        make_agent("best", foo=1)
    args = ["--option", "lookahed=3", "--level", "beginner", "--games", "1", *FAST]
    assert main(["play", "--agent", "trivial", *args]) == 2
    assert "no option 'lookahed'" in error_line(capsys)


def test_config_grid_keys_of_the_whole_run_and_typos_are_named(tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text('games = 2\nout = "o"\n[grid]\nagent = "trivial"\nlevel = "beginner"\nseed = 3\n'
                      'workers = 2\n')
    assert main(["sweep", str(config), *FAST]) == 2
    err = error_line(capsys)
    assert "'seed', 'workers'" in err and "top level" in err
    config.write_text('games = 2\nout = "o"\n[grid]\nagent = "trivial"\nlevle = "beginner"\n')
    assert main(["sweep", str(config), *FAST]) == 2
    assert "it has agent, levle: is 'levle' a misspelling?" in error_line(capsys)
    config.write_text('games = 2\nout = "o"\n[grid]\nagents = ["trivial"]\nlevel = "beginner"\n')
    assert main(["sweep", str(config), *FAST]) == 2
    assert ("give --agent (or an agent in the config's [grid]; it has agents, level: is 'agents' a "
            "misspelling?)") in error_line(capsys)


def test_bench_refuses_an_empty_method_list(capsys):
    assert main(["bench", "--methods", ""]) == 2
    assert "--methods" in error_line(capsys)


def test_an_option_the_agent_never_reads_is_refused():
    """The random agent deduces nothing: methods or use_total given to it changed no game."""
    from sweeplab.agents import make_agent

    for option in ({"methods": ("rref",)}, {"use_total": True}, {"noise_aware": False}, {"max_nodes": 5}):
        with pytest.raises(ValueError, match="agent 'random' has no option .*; its options: first_move$"):
            make_agent("random", **option)
    assert make_agent("random", first_move="corner").first_move == "corner"


def test_a_resume_that_restates_a_point_differently_plays_nothing_again(tmp_path):
    """A default given on resuming (or 10.0 mines for the level's 10) names the same games: it was
    refused as another sweep; now the sweep resumes under the points it started with."""
    out = tmp_path / "s"
    first = run_sweep([POINT], games=4, seed=3, chunk_size=2, out=out, workers=1, progress=False)
    stamps = {p: p.stat().st_mtime_ns for p in (out / "chunks").glob("*.parquet")}
    same = {"agent": "trivial", "first_click": "safe", "shape": [9, 9], "mines": 10.0}
    again = run_sweep([same], games=4, seed=3, chunk_size=2, out=out, workers=1, progress=False)
    assert {p: p.stat().st_mtime_ns for p in (out / "chunks").glob("*.parquet")} == stamps
    assert json.loads((out / "manifest.json").read_text())["points"] == [POINT]
    cols = [c for c in first.columns if not c.startswith("seconds")]
    assert again[cols].equals(first[cols])
    with pytest.raises(ValueError, match="holds another sweep"):
        run_sweep([{**POINT, "first_click": "zero"}], games=4, seed=3, out=out, workers=1, progress=False)


def test_a_resume_that_spells_a_float_option_otherwise_keeps_one_label(tmp_path):
    """An adversarial review: a sweep started with progress_bonus=1 and resumed with 1.0 passed as the same
    run (1 == 1.0) and labelled its new chunks with the other spelling: one point read as two samples."""
    from sweeplab.stats import summarize

    out = tmp_path / "s"
    point = {"agent": "best", "level": "beginner", "progress_bonus": 1}
    whole = run_sweep([point], games=4, seed=3, chunk_size=2, out=out, workers=1, progress=False)
    (out / "chunks" / "p0000-g000000002.parquet").unlink()  # as an interrupted run leaves it
    resumed = run_sweep([{**point, "progress_bonus": 1.0}], games=4, seed=3, chunk_size=2, out=out,
                        workers=1, progress=False)
    assert set(resumed["options"]) == {"progress_bonus=1"}
    assert summarize(resumed)["games"].tolist() == [4]
    cols = [c for c in whole.columns if not c.startswith("seconds")]
    assert resumed[cols].equals(whole[cols])
    assert set(load_results(out)["options"]) == {"progress_bonus=1"}


def test_a_float_option_written_as_a_whole_number_is_the_same_agent(capsys):
    """0 and 0.0 for a float option play the same games: a grid giving both, or compare given both, was
    accepted and played (or compared) the same games twice."""
    from sweeplab.agents import make_agent

    assert make_agent("best", progress_bonus=0) == make_agent("best")
    assert make_agent("best", coin_flip_credit=1).coin_flip_credit == 1.0
    one = {"agent": "best", "level": "beginner", "progress_bonus": 1}
    assert same_games(one, {**one, "progress_bonus": 1.0})
    with pytest.raises(ValueError, match="sweep point 1 .* plays the same games as point 0"):
        run_sweep(expand_grid({"agent": "best", "level": "beginner", "progress_bonus": [0, 0.0]}), games=2,
                  workers=1, progress=False)
    assert main(["compare", "best", "best progress_bonus=0", "--level", "beginner", "--games", "2"]) == 2
    assert "are the same agent" in capsys.readouterr().err


def test_grids_of_the_wrong_shape_are_named_and_numpy_numbers_are_numbers():
    import numpy as np

    from sweeplab.sweeps import expand_grid

    with pytest.raises(ValueError, match="a grid is a dict of play arguments"):
        expand_grid([("agent", "best")])
    with pytest.raises(ValueError, match=r"grid key 'shape' is \[row, col\]-like.*got \[5, 5, 5\]"):
        expand_grid({"agent": "random", "shape": [5, 5, 5]})  # was "repeats the value 5"
    assert expand_grid({"agent": "random", "level": "beginner", "mines": np.int64(10)}) == [
        {"agent": "random", "level": "beginner", "mines": 10}]
    assert len(expand_grid({"agent": "random", "shape": [[9, 9], [5, 5]], "mines": 3})) == 2
    assert len(expand_grid({"agent": "random", "level": "beginner", "first_move": ["corner", "centre"]})) == 2


def test_an_option_hidden_from_the_agents_repr_still_tells_points_apart(tmp_path):
    """A resume asking for another value of a plugin's option (declared repr=False) is refused, not served
    the games of the value the directory holds."""
    import dataclasses

    from sweeplab.agents.basic import TrivialAgent

    hidden = dataclasses.make_dataclass("Hidden", [("depth", int, dataclasses.field(default=1, repr=False))],
                                        bases=(TrivialAgent,), frozen=True, namespace={"name": "hidden"})
    sweeplab.register_agent("hidden", hidden)
    try:
        point = {"agent": "hidden", "level": "beginner", "depth": 1}
        assert not same_games(point, {**point, "depth": 2})
        run_sweep([point], games=2, out=tmp_path, workers=1, progress=False)
        with pytest.raises(ValueError, match="holds another sweep"):
            run_sweep([{**point, "depth": 2}], games=2, out=tmp_path, workers=1, progress=False)
    finally:
        sweeplab.unregister_agent("hidden")


def test_a_huge_games_count_is_refused_before_planning(tmp_path, capsys):
    """``--games 10000000000000000000000`` (a slip of the keyboard) planned chunks until memory ran out."""
    huge = 10**22
    with pytest.raises(ValueError, match=f"{huge} games per point in chunks of 200 make .* chunks, more"):
        run_sweep([POINT], games=huge, workers=1, progress=False)
    with pytest.raises(ValueError, match="more than a run plans"):
        run_sweep([POINT], games=huge, out=tmp_path / "s", workers=1, progress=False)
    assert not (tmp_path / "s" / "manifest.json").exists()  # nothing written to resume
    with pytest.raises(ValueError, match="more than a run plans") as refused:
        sweeplab.play("trivial", level="beginner", games=huge, workers=2)
    assert "chunk" not in str(refused.value).split(";")[1]  # play takes no chunk size: only fewer games
    with pytest.raises(ValueError, match=r"or larger chunks \(chunk_size; --chunk-size"):
        run_sweep([POINT], games=huge, workers=1, progress=False)
    assert main(["play", "--agent", "trivial", "--level", "beginner", "--games", str(huge), *FAST]) == 2
    assert "give fewer games" in error_line(capsys)
    # larger chunks hold many games: the check is on the plan, not on the count alone
    assert len(plan_chunks(2, 10**9, 10**4)) == 2 * 10**5


def test_an_option_the_agent_never_reads_is_refused_for_an_agent_object_too():
    """``play(RandomAgent(), use_total=True)`` played as if the option were not there, where the name
    ``"random"`` refuses it; an unknown option to an object was Python's TypeError text."""
    from sweeplab.agents import make_agent
    from sweeplab.agents.basic import RandomAgent

    refused = "agent 'random' has no option 'use_total'; its options: first_move$"
    with pytest.raises(ValueError, match=refused):
        sweeplab.play(RandomAgent(), level="beginner", games=1, use_total=True)
    with pytest.raises(ValueError, match="agent 'best' has no option 'foo'; its options: .*endgame_cells"):
        make_agent(make_agent("best"), foo=1)
    assert make_agent(RandomAgent(), first_move="corner").first_move == "corner"


def test_chunks_written_before_play_recorded_the_options_still_load(tmp_path):
    """Chunks without the ``options`` column (older code) load with it filled from their points."""
    import pyarrow.parquet as pq

    grid = {"agent": "chain", "level": "beginner", "methods": [["trivial"], ["trivial", "subset"]]}
    expected = run_sweep(expand_grid(grid), games=4, seed=1, chunk_size=2, out=tmp_path, workers=1,
                         progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    del manifest["chunk_digests"]  # older code wrote no digest of the rows either
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    for chunk in (tmp_path / "chunks").glob("*.parquet"):
        table = pq.read_table(chunk)
        identity = json.loads(table.schema.metadata[b"sweeplab.chunk"])
        del identity["rows_digest"]
        metadata = {k: v for k, v in table.schema.metadata.items() if k != b"sweeplab.chunk.rows"}
        metadata[b"sweeplab.chunk"] = json.dumps(identity).encode()
        pq.write_table(table.drop_columns(["options"]).replace_schema_metadata(metadata), chunk)
    loaded = load_results(tmp_path)
    assert list(loaded.columns) == list(expected.columns)
    assert loaded.drop(columns="seconds").equals(expected.drop(columns="seconds"))


@pytest.mark.parametrize(("args", "needles"), [
    (["--shape", "5,5", "--mines", "3"], ["--shape '5,5'", "HEIGHTxWIDTH such as 16x30",
                                           "a comma separates"]),
    (["--shape", "5x5"], ["--shape takes exactly one of --mines or --density"]),
    (["--shape", "5x5", "--mines", "3", "--density", "0.1"], ["exactly one of --mines or --density"]),
    (["--shape", "5x5", "--level", "beginner"], ["give --level or --shape, not both"]),
])
def test_play_names_the_shape_flags_it_was_given(capsys, args, needles):
    """A student's review: --shape 5,5 said "got '5'" (a piece of what was typed), and --shape 5x5 alone
    asked for "mines= or density=", the Python keywords, not the flags."""
    assert main(["play", "--agent", "trivial", "--games", "2", "--workers", "1", *args]) == 2
    err = error_line(capsys)
    for needle in needles:
        assert needle in err, err


def test_the_same_points_in_another_order_are_refused_saying_so(tmp_path):
    """A review (rev51b): a grid given with its keys in another order was refused as "another sweep" with
    no hint that only the order of its points differed."""
    out = tmp_path / "s"
    points = [{"agent": "trivial", "level": "beginner"}, {"agent": "random", "level": "beginner"}]
    run_sweep(points, games=2, seed=3, out=out, workers=1, progress=False)
    with pytest.raises(ValueError, match=r"holds another sweep.*the same points in another order"):
        run_sweep(points[::-1], games=2, seed=3, out=out, workers=1, progress=False)
    with pytest.raises(ValueError, match=r"holds another sweep") as refused:
        run_sweep([points[0], {**points[1], "agent": "rref"}], games=2, seed=3, out=out, workers=1,
                  progress=False)
    assert "another order" not in str(refused.value)
