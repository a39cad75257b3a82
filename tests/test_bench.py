"""The bench's accounting on a tiny corpus: enumerate is exact, counts add up, wrong methods are caught."""

from __future__ import annotations

import json
import time

import numpy as np
import pandas as pd
import pytest

import sweeplab
from sweeplab import METHODS, MethodRefused
from sweeplab import bench as bench_module
from sweeplab.bench import run_bench, scaling_study, score_claims, summarize
from sweeplab.cli import main
from sweeplab.corpus import Slice, generate_corpus, save_corpus
from sweeplab.methods import MethodInfo


@pytest.fixture(scope="module")
def tiny():
    slices = [Slice("beginner", level="beginner", games=1, per_game=3),
              Slice("intermediate", level="intermediate", games=1, per_game=1)]
    return generate_corpus(seed=11, slices=slices, examples=False)


def _fake(monkeypatch, name: str, forced_cells, *, sound: bool = True) -> MethodInfo:
    """A method outside the registry, passed to the bench directly."""
    return MethodInfo(name, sound, False, "test double", "none", forced_cells)


def test_score_claims_arithmetic():
    s = score_claims({(0, 0), (5, 5)}, {(1, 1), (0, 1)}, frozenset({(0, 0), (2, 2)}), frozenset({(1, 1)}))
    assert (s["forced"], s["found"], s["missed"], s["wrong"], s["claims"]) == (3, 2, 1, 2, 4)
    assert (s["found_safe"], s["found_mines"], s["wrong_safe"], s["wrong_mines"]) == (1, 1, 1, 1)


def test_enumerate_is_exact_and_counts_add_up(tiny):
    rows = run_bench(tiny, methods=["enumerate", "trivial"])
    assert len(rows) == len(tiny) * 2 * 2 and (rows.status == "ok").all()
    assert (rows.found + rows.missed == rows.forced).all()
    assert (rows.found + rows.wrong == rows.claims).all()
    assert (rows.found_safe + rows.found_mines == rows.found).all()
    enum = rows[rows.method == "enumerate"]
    assert (enum.found == enum.forced).all() and (enum.wrong == 0).all()
    assert (rows[rows.method == "trivial"].wrong == 0).all()
    table = summarize(rows)
    for (_, use_total), g in table[table.slice != "all"].groupby(["method", "use_total"]):
        whole = table[(table.method == g.method.iat[0]) & (table.use_total == use_total)
                      & (table.slice == "all")].iloc[0]
        assert g.forced.sum() == whole.forced and g.found.sum() == whole.found
        assert g.positions.sum() == whole.positions == len(tiny)
    e = table[table.method == "enumerate"]
    assert (e.recall == 1).all() and (e.wrong == 0).all() and (e.progress_share == 1).all()
    assert (e.x_enumerate == 1).all()
    t = table[(table.method == "trivial") & (table.slice == "all") & table.use_total].iloc[0]
    assert t.found + t.missed == t.forced and 0 < t.recall <= 1


def test_a_wrong_method_is_caught(tiny, monkeypatch):
    # claims every truly forced mine as safe, and every truly forced safe cell as a mine
    def flipped(obs, *, use_total=True):
        p = next(p for p in tiny if p.obs == obs)
        safe, mines = p.truth(use_total=use_total)
        return set(mines), set(safe)

    liar = _fake(monkeypatch, "_test_liar", flipped)
    rows = run_bench(tiny, methods=[liar, "enumerate"], totals=[True])
    liar_rows = rows[rows.method == "_test_liar"]
    expected = sum(len(p.truth_safe) + len(p.truth_mines) for p in tiny)
    assert liar_rows.wrong.sum() == expected > 0
    assert liar_rows.found.sum() == 0
    table = summarize(rows, infos=[liar])
    row = table[(table.method == "_test_liar") & (table.slice == "all")].iloc[0]
    assert row.wrong == expected and row.recall == 0 and row.progress_share == 0


def test_a_method_given_directly_keeps_its_promises_under_a_registered_name(tiny, monkeypatch):
    """An unsound MethodInfo named "rref" was summarised as sound, the registered rref's promise."""
    def rref(obs, *, use_total=True):
        d = sweeplab.deduce(obs, "lstsq", use_total=use_total)
        return d.safe, d.mines

    mine = _fake(monkeypatch, "rref", rref, sound=False)
    table = summarize(run_bench(tiny[:2], methods=[mine], totals=[True]), infos=[mine])
    assert set(table.method) == {"rref"} and not table.sound.any()


def test_two_methods_of_one_name_are_refused(tiny, monkeypatch, tmp_path, capsys):
    """Rows are kept by method name: a MethodInfo named "rref" benched beside the registered rref gave rows
    no table could tell apart (and one shared time budget); "rref" given twice counted its positions twice."""
    mine = _fake(monkeypatch, "rref", lambda obs, *, use_total=True: (set(), set()))
    with pytest.raises(ValueError, match="'rref' by two methods.*name of its own"):
        run_bench(tiny[:1], methods=[mine, "rref"], totals=[True])
    with pytest.raises(ValueError, match="'trivial' twice"):
        run_bench(tiny[:1], methods=["trivial", "rref", "trivial"], totals=[True])
    corpus = save_corpus(tiny[:1], tmp_path / "c.jsonl")
    assert main(["bench", "--corpus", str(corpus), "--methods", "rref,rref", "--out", str(tmp_path / "b"),
                 "--no-progress"]) == 2
    assert "'rref' twice" in capsys.readouterr().err


def test_refusals_and_errors_are_counted_not_raised(tiny, monkeypatch):
    def refuse(obs, *, use_total=True):
        raise MethodRefused("too large for this test")

    def crash(obs, *, use_total=True):
        raise RuntimeError("boom")

    def shape_bug(obs, *, use_total=True):  # a plain ValueError is a bug, not a refusal (issue 9)
        return np.zeros(2) @ np.zeros(3)

    infos = [_fake(monkeypatch, "_test_refuse", refuse), _fake(monkeypatch, "_test_crash", crash),
             _fake(monkeypatch, "_test_shape_bug", shape_bug)]
    rows = run_bench(tiny, methods=infos, totals=[True])
    assert set(rows[rows.method == "_test_refuse"].status) == {"refused"}
    assert set(rows[rows.method == "_test_crash"].status) == {"error"}
    assert set(rows[rows.method == "_test_shape_bug"].status) == {"error"}
    table = summarize(rows, infos=infos)
    all_rows = table[table.slice == "all"].set_index("method")
    assert all_rows.loc["_test_refuse", "refused"] == len(tiny)
    assert all_rows.loc["_test_crash", "errors"] == len(tiny)
    assert all_rows.loc["_test_refuse", "forced"] == 0


def test_budget_skips_the_rest_of_a_slice(tiny, monkeypatch):
    def slow(obs, *, use_total=True):
        time.sleep(0.02)
        return set(), set()

    slow_info = _fake(monkeypatch, "_test_slow", slow)
    rows = run_bench(tiny, methods=[slow_info], totals=[True], budget_seconds=0.01)
    per_slice = rows.groupby("slice").status.apply(list)
    assert all(s[0] == "ok" and set(s[1:]) <= {"skipped"} for s in per_slice)


def test_default_covers_every_method(tiny):
    rows = run_bench(tiny[:2], totals=[True, False])
    assert set(rows.method) == set(METHODS)
    sound = rows[rows.method.map(lambda m: METHODS[m].sound) & (rows.status == "ok")]
    assert (sound.wrong == 0).all()
    complete = rows[rows.method.map(lambda m: METHODS[m].complete) & (rows.status == "ok")]
    assert (complete.found == complete.forced).all()


def test_cli_bench_writes_table_and_manifest(tiny, tmp_path, capsys):
    corpus = save_corpus(tiny, tmp_path / "c.jsonl")
    out = tmp_path / "bench"
    assert main(["bench", "--corpus", str(corpus), "--methods", "enumerate,trivial", "--out", str(out),
                 "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "enumerate" in printed and "recall" in printed
    meta = json.loads((out / "manifest.json").read_text())
    assert meta["methods"] == ["enumerate", "trivial"] and len(meta["corpus_sha256"]) == 64
    assert {"version", "git_commit", "machine"} <= set(meta)
    assert (out / "bench.csv").read_text().startswith("method,use_total,slice")
    assert main(["bench", "--corpus", str(corpus), "--methods", "nope", "--out", str(out)]) == 2


@pytest.mark.parametrize("flags, named", [
    (["--corpus", "tiny", "--areas", "100", "--seed", "4"], "--areas, --seed are options of the scaling"),
    (["--scaling", "--total", "without"], "--total is an option of the corpus bench"),
    (["--scaling", "--slices", "nosuch", "--proofs", "--peer"], "--slices, --proofs, --peer are options"),
])
def test_cli_bench_refuses_the_flags_of_the_mode_it_does_not_run(flags, named, tmp_path, capsys):
    """An adversarial review: they were accepted and dropped; --scaling --total without measured with the
    total, and said nothing."""
    assert main(["bench", *flags, "--methods", "trivial", "--out", str(tmp_path / "b"), "--no-progress"]) == 2
    assert named in capsys.readouterr().err
    assert not (tmp_path / "b").exists()


def test_cli_bench_reads_a_corpus_preset_by_name(tmp_path, capsys, monkeypatch):
    """As the Python functions do: a committed preset is read (and hashed), another one generated."""
    monkeypatch.chdir(tmp_path)  # no file named like a preset here
    assert main(["bench", "--corpus", "tiny", "--methods", "trivial", "--out", "t", "--no-progress",
                 "--slices", "beginner"]) == 0
    meta = json.loads((tmp_path / "t" / "manifest.json").read_text())
    assert (meta["corpus"], meta["corpus_preset"], meta["corpus_seed"]) == (None, "tiny", 0)
    assert set(pd.read_csv(tmp_path / "t" / "bench_positions.csv")["slice"]) == {"beginner"}
    assert main(["bench", "--corpus", "small", "--methods", "trivial", "--out", "s", "--no-progress",
                 "--slices", "beginner"]) == 0
    meta = json.loads((tmp_path / "s" / "manifest.json").read_text())
    assert meta["corpus"].endswith("corpus-small.jsonl.gz") and len(meta["corpus_sha256"]) == 64
    assert main(["bench", "--corpus", "tiny", "--slices", "nope", "--out", "n", "--no-progress"]) == 2
    assert "its slices are: beginner" in capsys.readouterr().err


def test_bench_and_report_leave_a_sweeps_folder_alone_and_bench_writes_under_a_lock(tmp_path, capsys,
                                                                                   monkeypatch):
    """A review (rev51b): bench --out and report --out on a sweep's folder replaced its manifest (its
    games could be neither loaded nor resumed); two benches on one folder, or one killed between its three
    files, left a table of one run beside the manifest of another."""
    from sweeplab.run_directory import _DirectoryLock

    run = tmp_path / "run"
    assert main(["play", "--agent", "trivial", "--level", "beginner", "--games", "3", "--out", str(run),
                 "--no-progress"]) == 0
    manifest = (run / "manifest.json").read_text()
    assert main(["bench", "--corpus", "tiny", "--methods", "trivial", "--out", str(run),
                 "--no-progress"]) == 2
    assert "holds a sweep's (or play's or compare's) run manifest.json" in capsys.readouterr().err
    assert main(["report", "--preset", "smoke", "--only", "000-convergence", "--out", str(run)]) == 2
    assert f"--out {run} holds a sweep's" in capsys.readouterr().err
    assert (run / "manifest.json").read_text() == manifest and not (run / "tables").exists()
    assert main(["bench", "--scaling", "--areas", "81", "--densities", "0.1", "--positions", "1", "--methods",
                 "trivial", "--no-progress", "--out", str(run)]) == 0  # its own files: no manifest.json
    assert (run / "manifest.json").read_text() == manifest and (run / "scaling.csv").exists()

    rows = pd.DataFrame({"method": ["trivial"]})
    meta = {"corpus_sha256": None, "methods": ["trivial"]}
    bench_module.write_bench(tmp_path / "b", rows=rows, summary=rows, meta=meta)
    held = _DirectoryLock(tmp_path / "b", "sweep")
    try:
        with pytest.raises(ValueError, match="in use by another process"):
            bench_module.write_bench(tmp_path / "b", rows=rows, summary=rows, meta=meta)
    finally:
        held.release()
    writes = []

    def killed_after_the_first(path, write):
        if writes:
            raise KeyboardInterrupt
        writes.append(path)
        write(path)

    monkeypatch.setattr(bench_module, "atomic_write", killed_after_the_first)
    with pytest.raises(KeyboardInterrupt):
        bench_module.write_bench(tmp_path / "b", rows=rows, summary=rows, meta=meta)
    assert not (tmp_path / "b" / "manifest.json").exists()  # the earlier manifest went first


def test_scaling_study_small_boards():
    table = scaling_study(shapes=[(9, 9), (16, 16)], densities=[0.15], positions=1,
                          methods=["trivial", "rref-components", "rref-whole-dense"], cap_seconds=30)
    assert len(table) == 2 * 3 and (table.status == "ok").all()
    assert (table.sparse_bytes > 0).all() and set(table.area) == {81, 256}
    assert "density 0.15" in bench_module.format_scaling(table)
    reach = bench_module.scaling_reach(table, limit_ms=60_000)
    assert len(reach) == 3 and (reach.reach_area == 256).all()


def test_scaling_cap_stops_and_skips_larger_boards(monkeypatch):
    def stuck(name, obs):
        time.sleep(10)

    monkeypatch.setattr(bench_module, "_rref_variant", stuck)
    table = scaling_study(shapes=[(9, 9), (12, 12)], densities=[0.15], positions=1,
                          methods=["rref-components"], cap_seconds=0.5)
    assert table.status.tolist() == ["timeout", "skipped"]


def test_peer_side_by_side(tiny):
    pytest.importorskip("ms_toollib")
    table = bench_module.peer_compare(tiny, repeats=1)
    readable = [p for p in tiny if bench_module._toollib_board(p.obs) is not None and p.obs.mines is not None]
    assert 0 < len(table) == len(readable)
    # probabilities are exact on both sides; ms-toollib's forced cells can miss a few, so only report them
    assert (table.max_probability_diff < 1e-9).all() and table.forced_agree.dtype == bool
    assert "ratio" in bench_module.format_peer(table)


def test_cli_bench_reports_a_method_that_raises(tiny, tmp_path, capsys):
    """The table had no errors column: a method raising on every position looked clean."""
    def crashes(obs, *, use_total=True):
        raise RuntimeError("boom")

    sweeplab.register_method("test-crashes", crashes, sound=True, complete=False)
    try:
        corpus = save_corpus(tiny, tmp_path / "c.jsonl")
        code = main(["bench", "--corpus", str(corpus), "--methods", "trivial,test-crashes", "--out",
                     str(tmp_path / "bench"), "--no-progress"])
    finally:
        sweeplab.unregister_method("test-crashes")
    cap = capsys.readouterr()
    assert code == 1
    header, *rows = cap.out.split("use_total=True\n")[1].split("\n\n")[0].splitlines()
    errors = header.split().index("errors")
    counts = {row.split()[0]: int(row.split()[errors]) for row in rows if row.split()[1] == "all"}
    assert counts == {"trivial": 0, "test-crashes": len(tiny)}
    # with and without the total
    assert f"'test-crashes' in {2 * len(tiny)} calls" in cap.err and "bug" in cap.err


def test_summarize_counts_positions_with_any_wrong_claim():
    """wrong_positions counts positions with one wrong claim or more (here 1, 2 and 0 wrong claims)."""
    base = {"slice": "s", "method": "trivial", "use_total": True, "status": "ok", "ms": 1.0, "forced": 2,
            "found": 1, "missed": 1, "claims": 2}
    rows = pd.DataFrame([{**base, "id": "s-0", "wrong": 1}, {**base, "id": "s-1", "wrong": 2},
                         {**base, "id": "s-2", "wrong": 0}])
    s = summarize(rows).set_index("slice").loc["all"]
    assert s.wrong == 3 and s.wrong_positions == 2


def test_scaling_reach_needs_every_position_answered():
    """A board where one position timed out is past the reach, though the others were fast."""
    rows = [{"method": "m", "use_total": True, "density": 0.15, "area": area, "status": status, "ms": ms}
            for area, status, ms in [(81, "ok", 1.0), (81, "ok", 2.0), (256, "ok", 1.0),
                                     (256, "timeout", float("nan")), (256, "ok", 1.0)]]
    reach = bench_module.scaling_reach(pd.DataFrame(rows), limit_ms=100)
    assert reach.reach_area.tolist() == [81] and reach.median_ms_there.tolist() == [1.5]


def test_recall_by_board_and_density_add_up_to_the_rows(tiny):
    from sweeplab.bench import recall_by_board, recall_by_density
    from sweeplab.figures import methods_density_figure, methods_time_figure

    rows = run_bench(tiny, methods=["trivial", "enumerate"], totals=[True, False])
    density = {p.id: p.obs.mines / p.obs.grid.size for p in tiny}  # as experiments.method_power adds it
    rows["density"] = rows["id"].map(density).round(3)
    by_board = recall_by_board(rows)
    assert list(by_board.index) == ["trivial", "enumerate"] and list(by_board.columns) == ["9x9", "16x16"]
    assert (by_board.loc["enumerate"] == 1).all()  # complete: every forced cell
    on_9x9 = rows[rows["use_total"] & (rows["height"] == 9) & (rows["method"] == "trivial")]
    assert by_board.loc["trivial", "9x9"] == pytest.approx(on_9x9["found"].sum() / on_9x9["forced"].sum())
    by_density = recall_by_density(rows)  # no 30x30 slice here: the game positions' densities
    assert by_density.attrs["slices"] == ["beginner", "intermediate"]
    assert list(by_density.columns) == sorted(rows["density"].unique())
    assert (by_density.loc["enumerate"] == 1).all()
    density_axes = methods_density_figure(rows).axes[0]
    assert "(beginner, intermediate)" in density_axes.get_title()
    panels = [ax for ax in methods_time_figure(rows, columns=3).axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["trivial", "enumerate"]


def test_cli_bench_fails_when_a_method_registered_sound_claims_a_wrong_cell(tiny, tmp_path, capsys):
    """Its wrong claims were only a number in the table: the bench exited 0, as for a sound method."""
    def first_covered_safe(obs, *, use_total=True):
        return {tuple(int(v) for v in np.argwhere(obs.grid == sweeplab.COVERED)[0])}, set()

    corpus = save_corpus(tiny, tmp_path / "c.jsonl")
    codes = {}
    for sound in (True, False):
        sweeplab.register_method("test-liar", first_covered_safe, sound=sound, complete=False, replace=True)
        try:
            codes[sound] = main(["bench", "--corpus", str(corpus), "--methods", "trivial,test-liar",
                                 "--total", "with", "--out", str(tmp_path / "bench"), "--no-progress"])
        finally:
            sweeplab.unregister_method("test-liar")
        err = capsys.readouterr().err
        assert ("registered sound claimed wrong cells" in err and "'test-liar'" in err) == sound
    table = pd.read_csv(tmp_path / "bench" / "bench.csv")
    wrong = table.query("method == 'test-liar' and slice == 'all'").wrong
    assert codes == {True: 1, False: 0} and wrong.item() > 0  # measured, and a bug only when promised sound
