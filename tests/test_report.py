"""``sweeplab report`` in the smoke preset writes its index, tables and figures."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sweeplab.cli import main
from sweeplab.experiments import EXPERIMENTS, PRESETS, run
from sweeplab.figures import FIGURES
from sweeplab.stats import wilson_interval

FAST = ["000-convergence", "000-first-cell", "001-game-steps"]


def test_presets_are_complete():
    for exp in EXPERIMENTS.values():
        assert set(exp.presets) == set(PRESETS), exp.name
        for preset in PRESETS:
            assert exp.parameters(preset), (exp.name, preset)


def test_report_writes_index_tables_and_figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    out = tmp_path / "reports"
    assert main(["report", "--preset", "smoke", "--out", str(out), "--only", *FAST]) == 0
    index = (out / "index.md").read_text()
    for name in FAST:
        assert (out / "tables" / f"{name}.csv").stat().st_size > 0
        for ext in ("png", "svg"):
            assert (out / "figures" / f"{name}.{ext}").stat().st_size > 1000
        assert f"figures/{name}.png" in index
        assert EXPERIMENTS[name].reference in index
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["preset"] == "smoke"
    assert [e["name"] for e in manifest["experiments"]] == FAST
    # every parameter, those the preset leaves at their defaults too: 000-first-cell's unprotected first
    # click and board, which the manifest left out
    first_cell = manifest["experiments"][1]["parameters"]
    assert {k: first_cell[k] for k in ("agent", "level", "first_click", "seed", "games_per_cell")} == {
        "agent": "'trivial'", "level": "'intermediate'", "first_click": "'none'", "seed": "0",
        "games_per_cell": "2"}
    # the versions that can change the games, and the machine the seconds were timed on
    from sweeplab.provenance import environment

    assert manifest["environment"] == environment() and set(environment()) >= {"python", "numpy", "numba"}
    assert manifest["machine"]["cpus"] >= 1 and manifest["machine"]["platform"]
    printed = capsys.readouterr()
    assert "wrote 3 experiments" in printed.out
    # stderr is no terminal here: a line per experiment, and no cursor-moving codes of nested bars
    assert f"report (smoke): {FAST[1]}, experiment 2 of 3" in printed.err and "\x1b[" not in printed.err


def test_index_puts_the_reports_number_beside_ours(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    from sweeplab.commands.report import build_report

    results = build_report(tmp_path, preset="smoke", only=["000-win-rates"], progress=False)
    assert "error" not in results[0]
    index = (tmp_path / "index.md").read_text()
    assert "report **58.25%**" in index  # the report's own precision, not rounded to one decimal
    assert "report **71.2%**" in index and "report **68%**" in index
    # a reader's review: the seed figures with no data were neither mapped nor said to be left out
    assert "Not reproduced, as they hold no data to compare: report 000's example boards" in index


def test_best_section_shows_the_baseline_speed_and_loss_causes(monkeypatch: pytest.MonkeyPatch):
    """Issue 13: the index sets best beside best-v1 and tabulates speed and loss causes per condition;
    the figure draws the losses too, one bar per agent and condition."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    from sweeplab.commands.report import _comparison
    from sweeplab.figures import best_figure

    df = run("011-best", preset="smoke")
    lines = _comparison("011-best", df)
    assert sum(line.startswith("- ") and "published best" in line for line in lines) == len(df) == 6
    assert any("not a test against the published rates" in line for line in lines)
    speed = [line for line in lines if line.startswith("| ") and "/ -" in line]
    assert len(speed) == 6 and all(line.count("|") == 9 for line in speed)
    # the paired difference is in percentage points (+0.33 between 96.0% and 95.7%): the header says so
    header = next(line for line in lines if line.startswith("| level | first click | best"))
    assert "| difference (points) |" in header
    for line, r in zip(speed, df.itertuples(), strict=True):
        assert line.split(" | ")[5].startswith(f"{100 * r.gain:+.2f} [")
    header = next(i for i, line in enumerate(lines) if line.startswith("Lost games per 100"))
    causes = lines[header + 2].strip("| ").split(" | ")[2:]
    assert causes and set(causes) <= {c.removeprefix("loss: ") for c in df.columns if c.startswith("loss: ")}
    for line, r in zip(lines[header + 4:header + 10], df.itertuples(), strict=True):
        cells = line.strip("| ").split(" | ")
        assert cells[:2] == [r.level, r.first_click]
        best = sum(float(c.split(" / ")[0]) for c in cells[2:])
        v1 = sum(float(c.split(" / ")[1]) for c in cells[2:])
        assert best == pytest.approx(100 * (1 - r.win_rate), abs=0.05 * len(causes) + 1e-9)
        assert v1 == pytest.approx(100 * (1 - r.v1_win_rate), abs=0.05 * len(causes) + 1e-9)
    rates, losses = best_figure(df).axes
    # the diamonds are the published best solvers' rates, not a seed report's
    assert "published best" in rates.get_legend_handles_labels()[1]
    lost = {}
    for bar in losses.patches:
        lost[bar.get_y()] = lost.get(bar.get_y(), 0.0) + bar.get_width()
    expected = [100 * (1 - w) for r in df.itertuples() for w in (r.win_rate, r.v1_win_rate)]
    assert [lost[y] for y in sorted(lost, reverse=True)] == pytest.approx(expected)


def test_list_and_bad_names(capsys: pytest.CaptureFixture, tmp_path: Path):
    assert main(["report", "--list"]) == 0
    listed = capsys.readouterr().out
    assert all(name in listed for name in EXPERIMENTS)
    assert main(["report", "--preset", "smoke", "--out", str(tmp_path), "--only", "nope"]) == 2
    assert "unknown experiment" in capsys.readouterr().err


def test_experiment_tables_are_tidy_and_reproducible():
    a = run("000-convergence", preset="smoke")
    b = run("000-convergence", preset="smoke")
    assert a.equals(b)
    assert a.attrs["experiment"] == "000-convergence" and a.attrs["preset"] == "smoke"
    assert list(a.columns) == ["game", "won", "win_rate", "ci_low", "ci_high", "agent", "level",
                               "first_click"]
    assert (a["ci_low"] <= a["win_rate"]).all() and (a["win_rate"] <= a["ci_high"]).all()
    # the running rate is the running mean of the games' outcomes, and its interval is Wilson's
    games = a["game"].to_numpy()
    assert (games == np.arange(1, len(a) + 1)).all() or (games == np.arange(len(a))).all()
    assert np.allclose(a["win_rate"], a["won"].cumsum() / np.arange(1, len(a) + 1))
    wins = a["won"].cumsum().to_numpy()
    for k in (0, len(a) // 2, len(a) - 1):
        interval = wilson_interval(int(wins[k]), k + 1)
        assert (a["ci_low"].iloc[k], a["ci_high"].iloc[k]) == pytest.approx(interval)


@pytest.mark.slow
def test_whole_report_in_smoke_preset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    assert main(["report", "--preset", "smoke", "--out", str(tmp_path)]) == 0
    assert len(list((tmp_path / "figures").glob("*.svg"))) == len(EXPERIMENTS)


def test_a_report_run_into_a_folder_keeps_each_experiments_preset(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch):
    """--only into a folder an earlier report wrote: the manifest and index keep the other experiments with
    the preset that made them, and say the folder is mixed."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    from sweeplab.commands.report import build_report

    build_report(tmp_path, preset="smoke", only=["000-convergence", "001-game-steps"], progress=False)
    build_report(tmp_path, preset="quick", only=["000-convergence"], seed=3, progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    made = [(e["name"], e["preset"], e["seed"]) for e in manifest["experiments"]]
    assert made == [("000-convergence", "quick", 3), ("001-game-steps", "smoke", 0)]
    assert manifest["preset"] == "mixed" and len(manifest["code"]) == 16 and "git_dirty" in manifest
    index = (tmp_path / "index.md").read_text()
    assert "Preset **mixed**" in index and "| quick | 3 |" in index and "| smoke | 0 |" in index
    assert index.count("## 001: ") == 1 and "final score" in index  # the kept section, with its numbers


def test_a_report_folder_says_which_code_made_each_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """--only after a code change: each experiment keeps the commit and fingerprint that made it, and the
    top of the manifest and the index say the folder is mixed (never today's code for an older table)."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    from sweeplab.commands import report

    report.build_report(tmp_path, preset="smoke", only=["000-convergence", "001-game-steps"], progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    code = manifest["code"]
    assert len(code) == 16 and all(e["code"] == code for e in manifest["experiments"])
    assert "Different code" not in (tmp_path / "index.md").read_text()
    import sweeplab.provenance

    monkeypatch.setattr(sweeplab.provenance, "code_fingerprint", lambda: "0123456789abcdef")  # after an edit
    report.build_report(tmp_path, preset="smoke", only=["000-convergence"], progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert [(e["name"], e["code"]) for e in manifest["experiments"]] == [
        ("000-convergence", "0123456789abcdef"), ("001-game-steps", code)]
    assert manifest["code"] == "mixed" and manifest["preset"] == "smoke"
    assert "**Different code made these experiments**" in (tmp_path / "index.md").read_text()
    # a manifest from before records carried their code: each kept record takes the top's
    made_by = {"code": "fedcba9876543210", "git_commit": "f" * 40, "git_dirty": False, "version": "0.1"}
    old = {**manifest, **made_by,
           "experiments": [{k: v for k, v in e.items() if k not in made_by} for e in manifest["experiments"]]}
    (tmp_path / "manifest.json").write_text(json.dumps(old))
    report.build_report(tmp_path, preset="smoke", only=["000-convergence"], progress=False)
    kept = json.loads((tmp_path / "manifest.json").read_text())["experiments"][1]
    assert kept["name"] == "001-game-steps" and {k: kept[k] for k in made_by} == made_by


def test_a_report_stopped_part_way_describes_every_table_it_leaves(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch):
    """Ctrl-C during the second experiment: the first one's new table is in the manifest and the index
    with the seed that made it, not left beside the earlier report's description."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    from sweeplab import experiments
    from sweeplab.commands.report import build_report

    only = ["000-convergence", "001-game-steps"]
    build_report(tmp_path, preset="smoke", only=only, progress=False)
    real = experiments.run

    def stop_at_the_second(name, **kwargs):
        if name == only[1]:
            raise KeyboardInterrupt
        return real(name, **kwargs)

    monkeypatch.setattr(experiments, "run", stop_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        build_report(tmp_path, preset="smoke", only=only, seed=7, progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert [(e["name"], e["seed"]) for e in manifest["experiments"]] == [(only[0], 7), (only[1], 0)]
    assert manifest["seed"] == "mixed" and "| smoke | 7 |" in (tmp_path / "index.md").read_text()


@pytest.mark.parametrize("manifest", [
    {"experiments": None}, {"experiments": [{"name": ["x"]}, 3, None]}, [1, 2], "text",
    {"experiments": [{"name": "000-convergence", "seconds": None, "comparison": "x", "preset": 5}]},
])
def test_a_broken_earlier_manifest_never_stops_a_report(tmp_path: Path, manifest):
    from sweeplab.commands.report import _earlier_records, index_lines

    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "000-convergence.csv").write_text("x\n1\n")
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    records = _earlier_records(tmp_path, rerun=[])
    assert all(isinstance(r["seconds"], float) and isinstance(r["comparison"], list) for r in records)
    assert index_lines(records, preset="mixed")[0] == "# sweeplab report"


def test_a_ctrl_c_wrapped_by_compiled_code_stops_the_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A failed experiment is recorded and the others run; a Ctrl-C that numba wrapped in a SystemError
    was recorded as a failure too, and the report went on."""
    from sweeplab.commands.report import build_report

    def stopped(name, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ctrl_c:
            raise SystemError("returned a result with an exception set") from ctrl_c

    monkeypatch.setattr("sweeplab.experiments.run", stopped)
    with pytest.raises(KeyboardInterrupt):
        build_report(tmp_path, preset="smoke", only=FAST[:1], progress=False)

    def broken(name, **kwargs):
        raise SystemError("a real failure")

    monkeypatch.undo()
    build_report(tmp_path, preset="smoke", only=FAST[:1], progress=False)
    made = [tmp_path / "tables" / f"{FAST[0]}.csv", tmp_path / "figures" / f"{FAST[0]}.png"]
    assert all(p.exists() for p in made)
    monkeypatch.setattr("sweeplab.experiments.run", broken)
    results = build_report(tmp_path, preset="smoke", only=FAST[:1], progress=False)
    assert results[0]["error"] == "SystemError: a real failure"
    # the earlier run's table and figure are gone: they passed for this failed run's (an adversarial review)
    assert not any(p.exists() for p in made)
    assert "Ours: none (failed)." in (tmp_path / "index.md").read_text()

    # a failure after the table and figures were saved: the record and the index name none of them
    monkeypatch.undo()
    import sweeplab.commands.report as report

    def no_comparison(name, df):
        raise KeyError("a late failure")

    monkeypatch.setattr(report, "_comparison", no_comparison)
    results = build_report(tmp_path, preset="smoke", only=FAST[:1], progress=False)
    assert results[0]["error"] == "KeyError: 'a late failure'"
    assert results[0]["figures"] == [] and "table" not in results[0] and not any(p.exists() for p in made)
    index = (tmp_path / "index.md").read_text()
    assert "Ours: none (failed)." in index and f"figures/{FAST[0]}.png" not in index
    assert json.loads((tmp_path / "manifest.json").read_text())["experiments"][0]["figures"] == []


def test_an_unknown_experiment_is_a_value_error():
    """SPEC §4: unknown names (method, agent, level, experiment) raise ValueError naming the choices."""
    with pytest.raises(ValueError, match="unknown experiment 'nope'; choose from .*000-convergence"):
        run("nope", preset="smoke")


def test_overrides_are_checked_and_one_name_is_not_read_as_letters():
    with pytest.raises(ValueError, match="has no parameter 'agentz'; its parameters: .*agents"):
        run("000-win-rates", preset="smoke", agentz=("trivial",))
    df = run("000-win-rates", preset="smoke", agents="trivial", games=2)  # was "unknown agent 't'"
    assert set(df["agent"]) == {"trivial"}


def test_the_scaling_runtimes_leave_garbage_collection_out(monkeypatch: pytest.MonkeyPatch):
    """A full collection fell inside Algorithm A's 1,024-cell point of the quick preset and quadrupled its
    time per game (5.5 ms against 1.4): the timed games run with the collector off, as timeit does."""
    import gc

    from sweeplab import experiments

    seen = []
    play = experiments._play

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return play(*args, **kwargs)

    monkeypatch.setattr(experiments, "_play", spy)
    assert gc.isenabled()
    run("003-scaling", preset="smoke", areas=(36,), densities=(), games=1)
    agents = len(EXPERIMENTS["003-scaling"].parameters("smoke")["agents"])
    assert seen == [True] * agents + [False] * agents  # the untimed warm-up games, then the timed ones
    assert gc.isenabled()


def test_the_density_score_summary_leaves_out_the_board_without_a_safe_cell():
    """At density 1 every game is won before a move: the summary read "0.97 at 0.1 -> 1.00 at 1" for every
    agent, hiding a falling curve."""
    from sweeplab.commands.report import _comparison

    df = run("001-density-score", preset="smoke")
    assert (df.loc[df["density"] == 1.0, "mean_score"] == 1.0).all()  # the artefact itself
    lines = _comparison("001-density-score", df)
    curves = [line for line in lines if "→" in line]
    assert curves and all(line.split("→")[1].split(" at ")[1].startswith("0.5") for line in curves)
    assert any("no cell is safe" in line for line in lines)


def test_summary_lines_say_what_was_run_one_density_one_level():
    """A review of the report: a series of one density read "0.65 at density 0.1 → 0.65 at 0.1", and the
    014-reach text said "On the three levels" when only beginner was played."""
    from sweeplab.commands.report import _comparison, _game_level

    df = run("004-density-score", preset="smoke")
    single = [line for line in _comparison("004-density-score", df) if "clues under" in line]
    assert single and all("→" not in line and "at density 0.1 (" in line for line in single)
    reach = run("014-reach", preset="smoke", levels="beginner", use_totals=(True, False), densities=(),
                methods="trivial", games=2)
    text = [line for line in _game_level("014-reach", reach) if "with and without the total" in line]
    assert text and text[0].startswith("On beginner (first click ") and "three" not in text[0]


def test_a_full_report_keeps_its_resumable_sweeps_in_its_own_folder(tmp_path, monkeypatch):
    """A review of the report: the full preset's sweep folders ("sweeps/014-reach") were relative to where
    the command ran, so two full reports from one place shared (or were refused by) one sweep folder."""
    from sweeplab import experiments
    from sweeplab.commands.report import build_report

    seen = {}

    def spy(name, **kwargs):
        seen[name] = kwargs.get("out")
        raise RuntimeError("stop here")

    monkeypatch.setattr(experiments, "run", spy)
    build_report(tmp_path / "rep", preset="full", only=["014-reach", "014-cascade", "000-win-rates"])
    assert seen == {"014-reach": str(tmp_path / "rep" / "sweeps" / "014-reach"),
                    "014-cascade": str(tmp_path / "rep" / "sweeps" / "014-cascade"), "000-win-rates": None}
    build_report(tmp_path / "rep", preset="full", only=["014-reach"], overrides={"out": "elsewhere"})
    assert seen["014-reach"] == "elsewhere"  # a folder given with --set stands
    # another seed or other --set values: a folder of their own (rev51b: the first run's folder refused
    # them as another run, and the failed experiment lost its earlier table)
    build_report(tmp_path / "rep", preset="full", only=["014-reach"], seed=1)
    assert seen["014-reach"] == str(tmp_path / "rep" / "sweeps" / "014-reach-seed1")
    build_report(tmp_path / "rep", preset="full", only=["014-reach"], seed=1, overrides={"games": 500})
    assert seen["014-reach"].startswith(str(tmp_path / "rep" / "sweeps" / "014-reach-seed1-set"))


def test_summaries_refuse_one_game_counted_twice():
    """A review of the game-level results: pd.concat([a, a]) (or first_move="auto" beside the cell it
    chooses, the same boards under one label) doubled the sample and narrowed the interval."""
    from sweeplab import play
    from sweeplab.reach import reach_games, reach_summary
    from sweeplab.stats import summarize

    a = reach_games(method="trivial", level="beginner", games=4, seed=0)
    b = reach_games(method="trivial", level="beginner", games=4, seed=0, first_move=(2, 2))  # "auto" here
    for rows in (pd.concat([a, a]), pd.concat([a, b])):
        with pytest.raises(ValueError, match=r"reach_summary: 4 rows repeat a game of the same point "
                                             r"\(seed=0, game=0, method=trivial.*drop_duplicates"):
            reach_summary(rows)
    assert reach_summary(pd.concat([a, reach_games(method="trivial", level="beginner", games=4, seed=1)])
                         )["games"].tolist() == [8]  # other seeds: other games
    p = play("trivial", level="beginner", games=4, seed=0)
    with pytest.raises(ValueError, match="summarize: 4 rows repeat a game of the same point"):
        summarize(pd.concat([p, p]))
    both = pd.concat([p, play("csp", level="beginner", games=4, seed=0)])
    assert summarize(both)["games"].tolist() == [4, 4]  # two agents on the same games: two points
    assert summarize(both, by=["level"])["games"].tolist() == [8]  # pooled on purpose: still distinct
    versions = pd.concat([p.assign(version="old"), p.assign(version="new")])  # a column of the user's own
    assert summarize(versions, by=["agent", "version"])["games"].tolist() == [4, 4]  # a review: refused


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_a_figure_refuses_a_table_it_cannot_draw_naming_its_experiment(name):
    import matplotlib

    matplotlib.use("Agg")
    figure = FIGURES[name]
    empty = f"{figure.__name__} draws the table of .*{name}.*got an empty table"
    with pytest.raises(ValueError, match=empty):
        figure(pd.DataFrame())
    with pytest.raises(ValueError, match="got list"):
        figure([1, 2])
    with pytest.raises(ValueError, match=r"needs the columns \[.*\], which the table lacks .*'unrelated'"):
        figure(pd.DataFrame({"unrelated": [1.0, 2.0]}))


def test_a_figure_takes_its_table_by_name_too():
    import matplotlib

    matplotlib.use("Agg")
    with pytest.raises(ValueError, match="methods_figure draws the table of 006-methods"):
        FIGURES["006-methods"](rows=pd.DataFrame())
    with pytest.raises(TypeError):
        FIGURES["006-methods"]()


def test_the_published_rates_are_those_the_sources_give():
    """The figures every comparison is made against (issue 13's table; report 000's Intermediate rates)."""
    from sweeplab.experiments import PUBLISHED_000, PUBLISHED_BEST

    assert dict(PUBLISHED_BEST) == {
        ("beginner", "safe"): 0.9169, ("intermediate", "safe"): 0.7823, ("expert", "safe"): 0.4113,
        ("beginner", "zero"): 0.9717, ("intermediate", "zero"): 0.8908, ("expert", "zero"): 0.543}
    assert dict(PUBLISHED_000) == {"random": 0.0, "trivial": 0.5825, "csp": 0.712, "lstsq": 0.68}


@pytest.mark.filterwarnings("error::DeprecationWarning")
def test_the_box_plots_draw_without_seaborns_deprecation_warning():
    """seaborn 0.13.2 passes ``vert=`` to Matplotlib 3.11, which warned in every report run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = pd.DataFrame({"level": ["beginner"] * 3 + ["expert"] * 3, "revealed": [0.1, 0.5, 0.9] * 2,
                          "nullity": [1, 2, 3, 4, 5, 6], "log10_layouts": [1.0, 2.0, 3.0] * 2,
                          "components": [1, 2, 1, 3, 2, 1]})
    fig = FIGURES["014-geometry"](table)
    assert len(fig.axes) == 3 and fig.axes[0].get_title() == "nullity of the frontier's clue matrix"
    plt.close(fig)


def test_board_generation_runs_every_method_before_it_times_a_case(monkeypatch: pytest.MonkeyPatch):
    """The first case of 014-boards was timed with the loading of the methods' code and compiled kernels
    (beginner boards solvable by trivial read 5 a second, 60 on a second run): every method of the cascade
    and of the cases now runs once before the first timed case."""
    import sweeplab.boards
    import sweeplab.noguess

    calls: list[tuple[str, str]] = []
    solve, generate = sweeplab.noguess.solve_layout, sweeplab.boards.generate_boards

    def spy_solve(layout, first, method, *args, **kwargs):
        calls.append(("solve", method))
        return solve(layout, first, method, *args, **kwargs)

    def spy_generate(*args, **kwargs):
        calls.append(("generate", kwargs.get("method", "")))
        return generate(*args, **kwargs)

    monkeypatch.setattr(sweeplab.noguess, "solve_layout", spy_solve)
    monkeypatch.setattr(sweeplab.boards, "generate_boards", spy_generate)
    from sweeplab import experiments

    experiments.board_generation(cases=(("beginner", "rref"),), count=1)
    first = calls.index(next(c for c in calls if c[0] == "generate"))
    warmed = {m for kind, m in calls[:first] if kind == "solve"}
    assert warmed >= {*sweeplab.noguess.CASCADE, "rref"}, calls[:first]


def test_the_briefs_guess_share_reads_as_the_bound_it_is(monkeypatch: pytest.MonkeyPatch):
    """Issue 11 quotes "guessed <2%": the figure's bar of the brief's shares and the index's table say "<2%"
    (the bar once read "2%"), and the rest of that bar, which the brief does not cover, is named.  The bar
    and the column say the shares are the brief's, with no source (a reviewer: not a measurement)."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    from sweeplab.commands.report import _comparison
    from sweeplab.figures import cascade_figure

    df = run("014-cascade", preset="smoke")
    ax = cascade_figure(df).axes[0]
    texts = {t.get_text() for t in ax.texts}
    assert texts >= {"88%", "8%", "<2%"} and "2%" not in texts
    assert "brief: not stated" in ax.get_legend_handles_labels()[1]
    assert [t.get_text() for t in ax.get_xticklabels()][-1] == "brief\n(no source)"
    rows = {line.split(" | ")[0]: line for line in _comparison("014-cascade", df) if line.startswith("| ")}
    assert rows["| guess"].endswith("| <2% |") and rows["| trivial"].endswith("| 88% |")
    assert any(line.startswith("| source |") and line.endswith("| brief (no source) |")
               for line in _comparison("014-cascade", df))


def test_the_methods_section_says_its_numbers_are_with_the_total(monkeypatch: pytest.MonkeyPatch):
    """006's bullets and figure count with the total only; they say so, and the index gives the wrong
    claims without it (lstsq's 3 wrong claims at the quick preset were 23 in the table)."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    from sweeplab.commands.report import _comparison
    from sweeplab.figures import methods_figure

    df = run("006-methods", preset="smoke", methods=("trivial", "lstsq", "enumerate"))
    lines = _comparison("006-methods", df)
    ok = df[df["status"] == "ok"]
    without = ok[~ok["use_total"]].groupby("method")["wrong"].sum()
    wrong = ", ".join(f"{m} {int(n)}" for m, n in without.items() if n) or "none"
    assert lines[0] == f"With the total (the table has the runs without it too; their wrong claims: {wrong}):"
    withtotal = ok[ok["use_total"]].groupby("method")["wrong"].sum()
    for m in ("trivial", "lstsq", "enumerate"):
        assert f"- {m}: " in "\n".join(lines) and f"wrong claims {int(withtotal[m])}," in next(
            line for line in lines if line.startswith(f"- {m}: "))
    fig = methods_figure(df)
    assert "wrong claims with the total" in fig.texts[0].get_text()
    assert all("with the total" in ax.get_title() for ax in fig.axes[:2])


def test_each_proof_size_table_says_whether_it_is_with_the_total():
    """The two by-level tables of 015 had the same caption, with the total and without it."""
    from sweeplab.commands.report import _comparison

    df = run("015-proofs", preset="smoke", methods=("trivial",), slices=("beginner",))
    captions = [line for line in _comparison("015-proofs", df) if line and not line.startswith("|")]
    assert captions == [
        "Proof sizes with the total (SPEC §6: combining steps, distinct rows; median / 90th percentile / max "
        "over the proved cells; every proof checked):",
        "Median [90th percentile] distinct rows per proof, by level, with the total:",
        "Proof sizes without the total (SPEC §6: combining steps, distinct rows; median / 90th percentile / "
        "max over the proved cells; every proof checked):",
        "Median [90th percentile] distinct rows per proof, by level, without the total:"]


def test_figures_with_error_bars_say_what_interval_they_draw(monkeypatch: pytest.MonkeyPatch):
    """Every panel with error bars names them (000, 011, 003 and 014-reach drew bare bars; 001 and 004
    already said "95% interval")."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    rates = pd.DataFrame({"agent": ["trivial", "csp"], "games": [100, 100], "win_rate": [0.6, 0.7],
                          "ci_low": [0.5, 0.6], "ci_high": [0.7, 0.8], "report": [0.5825, 0.712]})
    labels = [FIGURES["000-win-rates"](rates).axes[0].get_ylabel()]
    scaling = FIGURES["003-scaling"](run("003-scaling", preset="smoke"))
    labels += [ax.get_ylabel() for ax in scaling.axes if ax.containers]
    reach = FIGURES["014-reach"](run("014-reach", preset="smoke"))
    labels += [ax.get_ylabel() for ax in reach.axes[:2]]
    assert len(labels) == 5 and all("95% interval" in label or "Wilson 95%" in label for label in labels)


def test_rate_axes_read_in_percent_as_the_bars_labels_do(monkeypatch: pytest.MonkeyPatch):
    """000's and 011's bars and 014-cascade's are labelled "35.5%": their axes read 0%-100%, not 0-1."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    rates = pd.DataFrame({"agent": ["trivial"], "games": [100], "win_rate": [0.355], "ci_low": [0.31],
                          "ci_high": [0.40], "report": [0.5825]})
    figures = [FIGURES["000-win-rates"](rates), FIGURES["014-cascade"](run("014-cascade", preset="smoke"))]
    axes = [figures[0].axes[0], *figures[1].axes]
    for fig in figures:
        fig.canvas.draw()
    for ax in axes:
        ticks = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
        assert "0%" in ticks and "100%" in ticks and all(t.endswith("%") for t in ticks), ticks
    assert "35.5%" in {t.get_text() for t in axes[0].texts}


def test_the_reach_figure_says_what_its_dashed_lines_and_heat_map_show(monkeypatch: pytest.MonkeyPatch):
    """The density panel's dashed lines (no total) and the heat map's use of the total were unsaid."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    df = run("014-reach", preset="smoke", use_totals=(True, False))
    fig = FIGURES["014-reach"](df)
    density, cells = fig.axes[1], fig.axes[2]
    assert {line.get_linestyle() for line in density.lines} >= {"-", "--"}
    assert density.get_title().endswith("(first click zero; dashed: no total)")
    assert cells.get_title().endswith("(first click zero, with the total)")
    alone = FIGURES["014-reach"](df[df["use_total"]]).axes[1]
    assert "dashed" not in alone.get_title()



def test_the_grades_legend_hides_no_bar(monkeypatch: pytest.MonkeyPatch):
    """014-boards' legend sat over the right ends of the beginner bars (their subset grades at quick)."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    cases = [("beginner", m) for m in ("trivial", "subset", "rref", "bounded")] + [("expert", "rref")]
    df = pd.DataFrame({"level": [lv for lv, _ in cases], "solvable_by": [m for _, m in cases],
                       "boards_per_second": [200.0, 300, 40, 30, 1], "grade_trivial": [5, 3, 3, 3, 0],
                       "grade_subset": [0, 2, 2, 2, 3], "grade_rref": [0, 0, 0, 0, 2]})
    fig = FIGURES["014-boards"](df)
    fig.canvas.draw()
    grades = fig.axes[1]
    legend = grades.get_legend().get_window_extent()
    bars = [bar.get_window_extent() for bar in grades.patches if bar.get_width()]
    assert len(bars) == 9 and not any(legend.overlaps(bar) for bar in bars)


def test_the_quick_presets_description_gives_its_real_game_counts():
    """It said "hundreds to thousands of games per point" while report 004's curves play 12 a point."""
    from sweeplab.experiments import PRESET_PURPOSES

    curves = ["001-density-score", "003-scaling", "004-density-score"]
    counts = [EXPERIMENTS[n].parameters("quick")["games"] for n in curves]
    counts.append(EXPERIMENTS["014-reach"].parameters("quick")["density_games"])
    rates = [EXPERIMENTS[n].parameters("quick")["games"] for n in ("000-win-rates", "011-best", "014-reach")]
    assert PRESET_PURPOSES["quick"].startswith(
        f"{min(counts)} to {max(counts)} games per point on the curves against density or area, "
        f"{min(rates)} to {max(rates)} per win rate;")


def test_density_scores_give_each_agents_paired_difference_from_the_first():
    """The ``diff`` columns are the paired t interval of the agents' scores on the same boards, recomputed
    here from games played by ``sweeplab.play`` on the boards the table names."""
    import sweeplab
    from sweeplab.experiments import density_scores
    from sweeplab.stats import paired_mean_difference

    agents = {"basic": ("trivial", {}), "improved": ("probability", {"use_total": False})}
    df = density_scores(agents=agents, densities=(0.3,), games=12, seed=5)
    assert df["baseline"].eq("basic").all() and df.loc[df["agent"] == "basic", "diff"].isna().all()
    board_seed = 5 + int(round(1000 * 0.3))
    scores = [sweeplab.play(name, shape=(10, 10), density=0.3, games=12, seed=board_seed, first_click="none",
                            mode="score", **options)["score"].to_numpy()
              for name, options in agents.values()]
    row = df[df["agent"] == "improved"].iloc[0]
    assert (row["diff"], row["diff_low"], row["diff_high"]) == pytest.approx(paired_mean_difference(*scores))
    basic = df.loc[df["agent"] == "basic", "mean_score"].iloc[0]
    assert row["diff"] == pytest.approx(row["mean_score"] - basic)


def test_score_differences_against_any_agent_are_paired_on_the_same_boards():
    """Notebook 8 quotes intervals against the advanced agent (a reviewer could not see them): with
    ``baseline="advanced"`` each difference is the default table's, seen from the other side."""
    from sweeplab.experiments import difference_table

    first = run("001-density-score", preset="smoke")
    other = run("001-density-score", preset="smoke", baseline="advanced")
    assert set(other["baseline"]) == {"advanced"}
    key = ["density"]
    forward = first[first["agent"] == "advanced"].set_index(key)
    backward = other[other["agent"] == "basic"].set_index(key)
    assert np.allclose(forward["diff"], -backward["diff"])
    assert np.allclose(forward["diff_low"], -backward["diff_high"])
    assert (first.drop(columns=["baseline", "diff", "diff_low", "diff_high"])
            .equals(other.drop(columns=["baseline", "diff", "diff_low", "diff_high"])))
    table = difference_table(other)
    assert "advanced" not in table.columns and list(table.index) == sorted(set(first["density"]))
    with pytest.raises(ValueError, match="baseline 'nobody'.*choose from"):
        run("001-density-score", preset="smoke", baseline="nobody")


def test_report_takes_parameters_beside_the_preset(tmp_path: Path, capsys: pytest.CaptureFixture):
    """A researcher could rebuild the README's 1,000-game reach table only from Python: --set gives any
    parameter on the command line, and the record and the index say the run was not the preset's."""
    out = tmp_path / "r"
    argv = ["report", "--preset", "smoke", "--only", "014-reach", "--set", "games=6",
            "--set", "densities=[0.1]", "--out", str(out)]
    assert main(argv) == 0
    table = pd.read_csv(out / "tables" / "014-reach.csv")
    assert set(table.loc[table["sweep"] == "level", "games"]) == {6}
    assert table.loc[table["sweep"] == "density", "density"].round(1).unique().tolist() == [0.1]
    manifest = json.loads((out / "manifest.json").read_text())
    parameters = manifest["experiments"][0]["parameters"]
    assert manifest["preset"] == "smoke, games=6, densities=[0.1]" and parameters["games"] == "6"
    assert parameters["densities"] == "(0.1,)"  # a JSON list read as the tuple the presets give
    assert "| smoke, games=6, densities=[0.1] | 0 |" in (out / "index.md").read_text()
    # refused before anything runs: an experiment that has no such parameter, the seed, a bad form
    for bad, message in ((["--set", "games=6"], "'000-first-cell' has no parameter 'games'.*--only"),
                         (["--only", "014-reach", "--set", "seed=3"], "--seed"),
                         (["--only", "014-reach", "--set", "games"], "KEY=VALUE")):
        fresh = tmp_path / "fresh"
        assert main(["report", "--preset", "smoke", *bad, "--out", str(fresh)]) == 2
        assert re.search(message, capsys.readouterr().err) and not (fresh / "tables").exists()


def test_set_takes_one_value_where_a_list_is_taken_and_refuses_other_kinds(tmp_path, capsys):
    """An adversarial review: --set levels=expert ran with the levels 'e', 'x', 'p'... ("unknown level 'e'"),
    use_totals=true failed with a TypeError, and games=abc ran the report to a FAILED exit 1."""
    from sweeplab.experiments import _as_parameter, check_override_values

    assert _as_parameter("014-reach", "levels", "expert", ("beginner",)) == ("expert",)
    assert _as_parameter("014-reach", "use_totals", True, (True, False)) == (True,)
    assert _as_parameter("014-reach", "densities", 0.1, (0.1, 0.2)) == (0.1,)
    assert _as_parameter("x", "cases", [["a", "b"]], (("c", "d"),)) == (("a", "b"),)
    for name, exp in EXPERIMENTS.items():  # each preset's own values, as JSON gives them back, pass
        for preset in PRESETS:
            own = json.loads(json.dumps(exp.parameters(preset)))
            for chosen in (None, *PRESETS):
                checked = check_override_values(name, own, preset=chosen)
                assert json.dumps(checked) == json.dumps(exp.parameters(preset))
    for value, message in [("abc", "games takes a whole number"), ("-3", "games takes a count, at least 0"),
                           ("[10]", "games takes a whole number")]:
        assert main(["report", "--only", "014-reach", "--preset", "smoke", "--set", f"games={value}",
                     "--out", str(tmp_path / "r")]) == 2
        assert message in capsys.readouterr().err
    assert not (tmp_path / "r").exists()
    df = run("014-reach", preset="smoke", levels="beginner", methods="trivial")
    assert set(df["level"].dropna()) == {"beginner"} and set(df["method"]) == {"trivial"}


def test_set_values_are_checked_against_the_preset_that_runs(tmp_path, capsys):
    """Session 47's re-read: --set was checked against any preset's value (None where one preset gives
    None passed anything) and converted again against the chosen preset's inside the run, so
    --set slices=3 passed the early check and failed the experiment (exit 1, a half-written report)."""
    from sweeplab.experiments import check_override_values

    assert check_override_values("015-proofs", {"slices": None}, preset="smoke") == {"slices": None}
    one = check_override_values("015-proofs", {"slices": "expert"}, preset="smoke")
    assert one == {"slices": ("expert",)}
    with pytest.raises(ValueError, match="slices takes a JSON list"):
        check_override_values("015-proofs", {"slices": 3}, preset="smoke")
    assert main(["report", "--only", "015-proofs", "--preset", "smoke", "--set", "slices=3",
                 "--out", str(tmp_path / "r")]) == 2
    assert "slices takes a JSON list" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_one_value_for_a_list_parameter_is_a_list_of_one_whatever_the_preset_gives():
    """A review of the check against the preset that runs: where that preset and the default give None,
    --set methods=rref passed as the string 'rref' and the experiment tried the methods 'r', 'r', 'e', 'f'."""
    from sweeplab.experiments import check_override_values

    for preset in PRESETS:
        one = check_override_values("014-reach", {"methods": "rref"}, preset=preset)
        assert one == {"methods": ("rref",)}
        assert check_override_values("006-methods", {"methods": "trivial"}, preset=preset) == {
            "methods": ("trivial",)}
        assert check_override_values("006-methods", {"methods": None}, preset=preset) == {"methods": None}
    with pytest.raises(ValueError, match="per_slice takes a whole number"):
        check_override_values("015-proofs", {"per_slice": "abc"}, preset="full")
    for key, value, message in [("levels", [3], "levels takes a JSON list whose items are each a name"),
                                ("use_totals", [1], "use_totals takes a JSON list whose items are each true"),
                                ("density_shape", 16, "density_shape takes a pair of whole numbers")]:
        with pytest.raises(ValueError, match=message):  # ran, then failed inside the experiment
            check_override_values("014-reach", {key: value}, preset="quick")
    mixed = check_override_values("014-reach", {"densities": [0.1, 1]}, preset="quick")
    assert mixed == {"densities": (0.1, 1)}


def test_set_checks_pairs_signs_and_empty_lists_before_anything_runs(tmp_path, capsys):
    """Session 48's note: --set first_move=[3,3] was refused (the annotation said a name), and
    budget_seconds=-1, shape=[0,0], shape=[-1,10] and levels=[] passed, to fail inside their experiment
    after the earlier ones had run."""
    from sweeplab.experiments import check_override_values

    assert check_override_values("000-win-rates", {"first_move": [3, 3]}, preset="smoke") == {
        "first_move": (3, 3)}
    assert check_override_values("000-win-rates", {"first_move": "random"}) == {"first_move": "random"}
    assert check_override_values("001-game-steps", {"shape": [5, 6]}) == {"shape": (5, 6)}
    assert check_override_values("014-reach", {"densities": []}, preset="quick") == {"densities": ()}
    for name, key, value, message in [
            ("000-win-rates", "first_move", [3], r"first_move takes a pair of whole numbers, each at least 0 "
                                                 r"\(such as \[3, 3\]\)"),
            ("000-win-rates", "first_move", [3, -1], "first_move takes a pair"),
            ("001-game-steps", "shape", [0, 0], r"shape takes a pair of whole numbers, each at least 1"),
            ("001-game-steps", "shape", [-1, 10], "shape takes a pair"),
            ("001-game-steps", "shape", [5.5, 6], "shape takes a pair"),
            ("006-methods", "budget_seconds", -1.0, "budget_seconds takes a number, at least 0"),
            ("001-game-steps", "density", -0.5, "density takes a number, at least 0"),
            ("014-reach", "levels", [], r"levels takes at least one item \(such as \[\"beginner\"\]\)"),
            ("006-methods", "methods", [], r"methods takes at least one item, got \[\]$"),
            ("014-boards", "cases", [], "cases takes at least one item"),
            ("001-density-score", "densities", [0.1, -0.1], "densities takes a JSON list of numbers, each at "
                                                            "least 0"),
            ("014-cascade", "move_bins", [-1], "move_bins takes a JSON list of numbers, each at least 0")]:
        with pytest.raises(ValueError, match=message):
            check_override_values(name, {key: value}, preset="smoke")
    # a list may be empty only where a preset or the default runs on none (003-scaling's areas)
    with pytest.raises(ValueError, match="densities takes at least one item"):  # its only axis
        check_override_values("001-density-score", {"densities": []}, preset="smoke")
    assert check_override_values("003-scaling", {"areas": []}, preset="smoke") == {"areas": ()}
    with pytest.raises(ValueError, match=r"methods takes a JSON list, got \{\}$"):  # no "such as []"
        check_override_values("006-methods", {"methods": {}}, preset="smoke")
    assert main(["report", "--only", "000-win-rates", "--preset", "smoke", "--set", "first_move=[3,3]",
                 "--set", 'agents=["trivial"]', "--out", str(tmp_path / "ok")]) == 0
    assert main(["report", "--only", "014-reach", "--preset", "smoke", "--set", "levels=[]",
                 "--out", str(tmp_path / "r")]) == 2
    assert "levels takes at least one item" in capsys.readouterr().err and not (tmp_path / "r").exists()


def test_set_counts_of_zero_are_refused_where_one_is_needed(tmp_path, capsys):
    """A review of the command line: --set games=0 (or workers=0, areas=[36,0]) passed the check ("at least
    0") and failed inside its experiment, exit 1, deleting the table and figures of an earlier good run."""
    from sweeplab.experiments import check_override_values

    for name, key, value, message in [
            ("014-reach", "games", 0, r"games takes a whole number, at least 1 \(such as 4\), got 0"),
            ("014-reach", "workers", 0, "workers takes a whole number, at least 1"),
            ("003-scaling", "areas", [36, 0], "areas takes a JSON list of whole numbers, each at least 1"),
            ("000-first-cell", "games_per_cell", 0, "games_per_cell takes a whole number, at least 1")]:
        with pytest.raises(ValueError, match=message):
            check_override_values(name, {key: value}, preset="smoke")
    assert check_override_values("014-dominance", {"random": 0}, preset="smoke") == {"random": 0}
    assert main(["report", "--only", "014-reach", "--preset", "smoke", "--set", "games=0",
                 "--out", str(tmp_path / "r")]) == 2
    assert "games takes a whole number, at least 1" in capsys.readouterr().err


def test_set_values_naming_what_does_not_exist_are_refused_before_anything_runs(tmp_path, capsys):
    """The review of today's --set checks: agent, baseline, cases, first_move words, noise, slices, corpus and
    move_bins still failed inside their experiment (exit 1), removing the earlier good table."""
    from sweeplab.experiments import check_override_values

    for name, override, message in [
            ("000-convergence", {"agent": "nope"}, "agent names an unknown agent 'nope'"),
            ("011-best", {"baseline": "nope"}, r"baseline 'nope' is no agent it compares; choose from"),
            ("001-density-score", {"baseline": "best"}, r"baseline 'best' is no agent it .*\['advanced'"),
            ("014-boards", {"cases": [["beginner", "nope"]]}, r"cases takes pairs \[level, method\]"),
            ("000-win-rates", {"first_move": "nope"}, "first_move must be one of"),
            ("004-density-score", {"noise": {"x": ["nope", 0.5]}}, "noise 'x': noise kind must be one of"),
            ("004-density-score", {"noise": {"x": ["lost", 1.5]}}, "noise 'x': noise probability must be"),
            ("015-proofs", {"slices": ["nope"]}, r"slices \['nope'\] are not in corpus 'small'"),
            ("006-methods", {"corpus": "nope"}, "corpus 'nope' is neither a preset"),
            ("014-cascade", {"move_bins": [5, 2]}, "move_bins takes increasing move numbers from 1"),
            ("001-density-score", {"noise_densities": {"under 0.5": [2]}}, r"from 0 to 1, got"),
            ("001-game-steps", {"agent": "trivial"}, r"no option 'better_decisions'.*give --set options="),
            ("001-density-score", {"agents": {"x": ["trivial", {"nope": 1}]}}, "has no option 'nope'"),
            ("014-boards", {"cases": [["beginner", "lstsq"]]}, r"a sound method \(bounded"),
            ("006-methods", {"corpus": __file__}, "nor a corpus file"),
            ("001-density-score", {"agents": {"x": "trivial"}}, r"agents takes labels of \[agent, options\]"),
            ("003-scaling", {"agents": {"x": ["trivial", {}]}}, "agents takes labels of agents"),
            ("001-game-steps", {"agent": "trivial", "options": {"first_move": [30, 30]}},
             r"first_move \[30, 30\] is off the 5x5 board$")]:
        with pytest.raises(ValueError, match=message):
            check_override_values(name, override, preset="smoke")
    for name, override in [("011-best", {"baseline": "best-v1"}),
                           ("001-game-steps", {"agent": "trivial", "options": {}}),
                           ("001-density-score", {"agents": {"x": ["trivial", None]}}),  # None: no options
                           ("001-density-score", {"baseline": "basic"}),
                           ("014-boards", {"cases": [["expert", "rref"]]}),
                           ("015-proofs", {"slices": ["expert"]}),
                           ("004-density-score", {"noise": {"x": None, "y": ["lost", 0.5]}})]:
        check_override_values(name, override, preset="smoke")  # what exists passes
    out = tmp_path / "r"
    assert main(["report", "--only", "000-convergence", "--preset", "smoke", "--out", str(out)]) == 0
    assert main(["report", "--only", "000-convergence", "--preset", "smoke", "--set", "agent=nope",
                 "--out", str(out)]) == 2
    assert "unknown agent 'nope'" in capsys.readouterr().err
    assert (out / "tables" / "000-convergence.csv").is_file()  # the good table stays


def test_set_densities_above_one_are_refused_before_anything_runs():
    """Session 49's note: --set density=2.0 passed the check and failed inside its experiment."""
    from sweeplab.experiments import check_override_values

    assert check_override_values("001-density-score", {"densities": [0.1, 1.0]}) == {"densities": (0.1, 1.0)}
    for name, key, value in [("001-game-steps", "density", 2.0), ("003-scaling", "density", 1.01),
                             ("001-density-score", "densities", [0.1, 1.5]), ("014-reach", "densities", [3]),
                             ("004-density-score", "noise_densities", {"lost 0.2": [0.1, 1.5]})]:
        with pytest.raises(ValueError, match=f"{key} takes mine densities from 0 to 1"):
            check_override_values(name, {key: value}, preset="smoke")


def test_set_names_and_first_moves_are_checked_before_anything_runs(tmp_path, capsys):
    """--set level=nope, agents=["bets"] and an off-board first_move=[99,99] passed the check and failed
    inside their experiment (exit 1, after the earlier experiments had run)."""
    from sweeplab.experiments import check_override_values

    for name, key, value, message in [
            ("000-win-rates", "level", "nope", "unknown level 'nope'; choose from beginner, expert"),
            ("000-win-rates", "agents", ["best", "bets"], "unknown agent 'bets'; choose from best, best-v1"),
            ("014-reach", "methods", "rreff", "unknown method 'rreff'; choose from bounded"),
            ("014-reach", "density_first_clicks", ["x"], "unknown first-click rule 'x'; choose from none"),
            ("003-scaling", "agents", {"a": "nope"}, "unknown agent 'nope'"),
            ("001-density-score", "agents", {"a": ["nope", {}]}, "unknown agent 'nope'"),
            ("000-win-rates", "first_move", [99, 99], r"first_move \[99, 99\] is off the intermediate board "
                                                      r"\(16x16\): rows 0..15, columns 0..15")]:
        with pytest.raises(ValueError, match=message):
            check_override_values(name, {key: value}, preset="smoke")
    with pytest.raises(ValueError, match="off the beginner board"):  # the level it plays, overridden too
        check_override_values("000-win-rates", {"first_move": [15, 15], "level": "beginner"}, preset="smoke")
    assert check_override_values("000-win-rates", {"first_move": [15, 15]}, preset="smoke") == {
        "first_move": (15, 15)}
    assert main(["report", "--only", "000-win-rates", "--preset", "smoke", "--set", "level=nope",
                 "--out", str(tmp_path / "r")]) == 2
    assert "unknown level 'nope'" in capsys.readouterr().err and not (tmp_path / "r").exists()


def test_a_report_folder_is_locked_while_a_report_writes_it(tmp_path: Path, capsys):
    """A review of reproducibility: two reports into one folder left a manifest and an index describing
    the other run's preset and seed beside the tables on disk."""
    from sweeplab.commands.report import build_report
    from sweeplab.run_directory import _DirectoryLock

    held = _DirectoryLock(tmp_path, "sweep")  # a sweep (or another report) writing there: named as it is
    try:
        with pytest.raises(ValueError, match=r"in use by another process \(a sweep, pid \d+"):
            build_report(tmp_path, preset="smoke", only=FAST[:1], progress=False)
        assert main(["report", "--preset", "smoke", "--only", FAST[0], "--out", str(tmp_path)]) == 2
        assert "in use by another process" in capsys.readouterr().err
        assert not (tmp_path / "manifest.json").exists()
    finally:
        held.release()
    build_report(tmp_path, preset="smoke", only=FAST[:1], progress=False)  # released: it runs
    assert (tmp_path / "tables" / f"{FAST[0]}.csv").is_file()


def test_report_seed_is_added_to_each_experiments_own_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """--seed 3 replaced 001-game-steps' preset seed 3, so --seed 0 and --seed 3 gave the same table
    labelled as two seeds; the help says the seed is added."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    from sweeplab.commands.report import build_report

    assert EXPERIMENTS["001-game-steps"].parameters("smoke")["seed"] == 3
    seen = []
    real = run

    def record(name, **kwargs):
        seen.append(kwargs.get("seed"))
        return real(name, **kwargs)

    monkeypatch.setattr("sweeplab.experiments.run", record)
    for seed in (0, 3):
        build_report(tmp_path / str(seed), preset="smoke", only=["001-game-steps", "000-convergence"],
                     seed=seed, progress=False)
    assert seen == [None, None, 6, 3]  # the presets' own, then 3 + 3 and 0 + 3
    tables = [(tmp_path / s / "tables" / "001-game-steps.csv").read_text() for s in ("0", "3")]
    assert tables[0] != tables[1]


def test_a_ctrl_c_while_a_table_and_figures_are_written_leaves_neither(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch):
    """A review: Ctrl-C after an experiment's table was rewritten and before its figures were saved left
    the new table beside the earlier run's figures, and the manifest said the earlier seed."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    from sweeplab.commands.report import build_report

    build_report(tmp_path, preset="smoke", only=FAST[:1], progress=False)
    table, figure = tmp_path / "tables" / f"{FAST[0]}.csv", tmp_path / "figures" / f"{FAST[0]}.png"
    assert table.exists() and figure.exists()

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("sweeplab.figures.save_figure", stopped)
    with pytest.raises(KeyboardInterrupt):
        build_report(tmp_path, preset="smoke", only=FAST[:1], seed=2, progress=False)
    assert not table.exists() and not figure.exists()
    record = json.loads((tmp_path / "manifest.json").read_text())["experiments"][0]
    assert record["seed"] == 2 and record["error"].startswith("stopped while its table and figures were")
    assert main(["report", "--preset", "smoke", "--only", FAST[0], "--out", str(tmp_path)]) == 130


def test_a_report_killed_while_it_writes_leaves_a_record_that_says_so(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch):
    """A review (rev51b): a SIGKILL or SIGTERM after the new table was written left it beside the earlier
    run's figures, and the manifest and index kept the earlier run's record (seed, numbers) for good."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    from sweeplab.commands.report import build_report

    build_report(tmp_path, preset="smoke", only=FAST[:1], progress=False)
    figure = tmp_path / "figures" / f"{FAST[0]}.png"
    on_disk = []

    def killed(*args, **kwargs):  # what a SIGKILL here leaves: read, then stop without clean-up
        record = json.loads((tmp_path / "manifest.json").read_text())["experiments"][0]
        on_disk.append((record, figure.exists(), (tmp_path / "index.md").read_text()))
        raise KeyboardInterrupt

    monkeypatch.setattr("sweeplab.figures.save_figure", killed)
    with pytest.raises(KeyboardInterrupt):
        build_report(tmp_path, preset="smoke", only=FAST[:1], seed=2, progress=False)
    (record, figure_there, index), = on_disk
    assert record["seed"] == 2 and "table" not in record and not figure_there  # no figure of seed 0 stays
    assert "being written when the report was killed" in record["error"] and "**failed**" in index


def test_an_experiment_with_nothing_to_compare_is_printed_as_such(tmp_path: Path, capsys):
    """A review: --set areas=[] ran 003-scaling, then the command died on its summary (KeyError: 'error')."""
    assert main(["report", "--only", "003-scaling", "--preset", "smoke", "--set", "areas=[]",
                 "--out", str(tmp_path)]) == 0
    assert "003-scaling:\n  (no lines to compare)" in capsys.readouterr().out


def test_a_registered_sound_method_with_wrong_claims_in_the_methods_table_is_a_bug_and_its_code_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture):
    """An adversarial review: 006-methods runs every registered method, listed a sound one's wrong claims
    as it lists lstsq's, exited 0, and recorded no fingerprint of the method's code in the manifest."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    import sweeplab

    def reckless(obs, *, use_total=True):
        covered = np.argwhere(obs.grid == sweeplab.COVERED)
        return {tuple(int(v) for v in covered[0])} if len(covered) else set(), set()

    sweeplab.register_method("test-reckless", reckless, sound=True, complete=False)
    try:
        code = main(["report", "--preset", "smoke", "--out", str(tmp_path), "--only", "006-methods"])
    finally:
        sweeplab.unregister_method("test-reckless")
    assert code == 1
    assert "methods registered sound claimed wrong cells" in capsys.readouterr().err
    record = json.loads((tmp_path / "manifest.json").read_text())["experiments"][0]
    assert "test-reckless" in record["methods"] and record["bugs"].startswith("'test-reckless' ")
    assert "**bugs**: methods registered sound claimed wrong cells: 'test-reckless'" in (
        tmp_path / "index.md").read_text()
    assert (tmp_path / "tables" / "006-methods.csv").exists()  # the table is kept, with its wrong column
