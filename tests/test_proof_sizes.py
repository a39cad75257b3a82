"""Proof size as a measure of difficulty (issue 10 item 4): the bench with proofs, its summary and CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import sweeplab
from sweeplab import Observation
from sweeplab.bench import format_table, proof_cells, run_bench, summarize
from sweeplab.cli import main
from sweeplab.corpus import Slice, generate_corpus, label, save_corpus

METHODS = ["trivial", "rref", "gfp", "enumerate"]
# without the total, (1,3) is a mine that enumerate proves only by cases (tests/test_proofs.py)
NEEDS_SPLIT = Observation.from_text("????\n*?3?\n2?2?\n???2\n122?", mines=7)
ONE_TWO_ONE = Observation.from_text("???\n121", mines=2)


@pytest.fixture(scope="module")
def tiny():
    slices = [Slice("beginner", level="beginner", games=1, per_game=2),
              Slice("intermediate", level="intermediate", games=1, per_game=1)]
    corpus = generate_corpus(seed=11, slices=slices, examples=False)
    corpus.append(label(NEEDS_SPLIT, id="split-0", slice="teaching", source="example"))
    corpus.append(label(ONE_TWO_ONE, id="121-0", slice="teaching", source="example"))
    return corpus


@pytest.fixture(scope="module")
def rows(tiny):
    return run_bench(tiny, methods=METHODS, proofs=True)


def test_default_bench_has_no_proof_columns(tiny):
    plain = run_bench(tiny[:1], methods=["trivial"], totals=[True])
    assert "proof_sizes" not in plain.columns and "proved" not in plain.columns
    assert "proof_rows_median" not in summarize(plain).columns


def test_sizes_match_the_proofs_of_deduce(tiny, rows):
    by_id = {p.id: p for p in tiny}
    assert (rows.status == "ok").all()
    for r in rows.itertuples():
        d = sweeplab.deduce(by_id[r.id].obs, r.method, use_total=r.use_total, proofs=True)
        expected = sorted([c[0], c[1], p.value, p.size.steps, p.size.rows, int(p.case_analysis)]
                          for c, p in d.proofs.items())
        assert json.loads(r.proof_sizes) == expected, (r.id, r.method, r.use_total)
        assert r.proved == len(d.proofs) and r.over_budget == len(d.over_budget)
        assert r.unproved == len(d.unproved)
        # sound methods: every claim is proved or over budget
        assert r.proved + r.over_budget == r.claims
        if r.proved:
            steps = [s[3] for s in expected]
            sizes = [s[4] for s in expected]
            assert r.proof_steps_max == max(steps) and r.proof_rows_max == max(sizes)
            assert math.isclose(r.proof_steps_mean, np.mean(steps))
            assert math.isclose(r.proof_rows_mean, np.mean(sizes))
            assert 0 <= r.case_share <= 1 and r.case_cells == sum(s[5] for s in expected)
        else:
            assert math.isnan(r.case_share) and r.case_cells == 0
        assert r.ms >= 0 and r.proof_ms >= 0


def test_split_position_counts_as_case_analysis(rows):
    split = rows[(rows.id == "split-0") & (rows.method == "enumerate") & ~rows.use_total].iloc[0]
    cells = {(c[0], c[1]): c for c in json.loads(split.proof_sizes)}
    assert cells[(1, 3)][5] == 1  # the mine at (1,3) needs a case analysis
    assert split.case_cells >= 1 and 0 < split.case_share <= 1
    one = rows[(rows.id == "121-0") & (rows.method == "rref")]
    assert (one.case_cells == 0).all() and (one.proof_steps_max == 1).all()  # single linear steps


def test_summary_per_method_and_slice(rows):
    table = summarize(rows)
    cells = proof_cells(rows)
    assert len(cells) == rows.proved.sum()
    assert set(cells.columns) >= {"row", "col", "value", "steps", "proof_rows", "case"}
    for (method, use_total, sl), g in table.groupby(["method", "use_total", "slice"]):
        row = g.iloc[0]
        mine = cells[(cells.method == method) & (cells.use_total == use_total)]
        if sl != "all":
            mine = mine[mine.slice == sl]
        assert row.proved == len(mine)
        if len(mine):
            assert row.proof_rows_median == np.median(mine.proof_rows)
            assert row.proof_rows_p90 == np.percentile(mine.proof_rows, 90)
            assert row.proof_steps_max == mine.steps.max()
            assert math.isclose(row.case_share, mine.case.mean())
            assert 0 <= row.case_share <= 1
        else:
            assert math.isnan(row.case_share)
    whole = table[(table.method == "enumerate") & ~table.use_total & (table.slice == "all")].iloc[0]
    assert whole.case_share > 0  # the split position
    assert whole.over_budget == 0
    assert "proof sizes" in format_table(table)
    with pytest.raises(ValueError, match="proofs=True"):
        proof_cells(rows.drop(columns="proof_sizes"))


def test_cli_bench_proofs(tiny, tmp_path, capsys):
    corpus = tmp_path / "tiny.jsonl.gz"
    save_corpus(tiny, corpus)
    out = tmp_path / "bench"
    assert main(["bench", "--corpus", str(corpus), "--methods", "rref,enumerate", "--total", "without",
                 "--proofs", "--no-progress", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "proof sizes (combining steps, distinct rows), use_total=False" in printed
    assert "case_share" in printed and "over_budget" in printed
    meta = json.loads((out / "manifest.json").read_text())
    assert meta["proofs"] is True
    assert main(["bench", "--corpus", str(corpus), "--methods", "rref", "--total", "with", "--no-progress",
                 "--out", str(out)]) == 0
    assert "proof sizes" not in capsys.readouterr().out
