"""``sweeplab report`` in the smoke preset writes its index, tables and figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sweeplab.cli import main
from sweeplab.experiments import EXPERIMENTS, PRESETS, run

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
    assert "wrote 3 experiments" in capsys.readouterr().out


def test_index_puts_the_reports_number_beside_ours(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    from sweeplab.commands.report import build_report

    results = build_report(tmp_path, preset="smoke", only=["000-win-rates"], progress=False)
    assert "error" not in results[0]
    index = (tmp_path / "index.md").read_text()
    assert "report **58.2%**" in index or "report **58.3%**" in index
    assert "report **71.2%**" in index and "report **68.0%**" in index


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
    assert list(a.columns) == ["game", "won", "win_rate", "ci_low", "ci_high", "agent"]
    assert (a["ci_low"] <= a["win_rate"]).all() and (a["win_rate"] <= a["ci_high"]).all()


@pytest.mark.slow
def test_whole_report_in_smoke_preset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    assert main(["report", "--preset", "smoke", "--out", str(tmp_path)]) == 0
    assert len(list((tmp_path / "figures").glob("*.svg"))) == len(EXPERIMENTS)
