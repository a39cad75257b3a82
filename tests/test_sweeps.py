"""Sweeps: same results on every executor, resumable after SIGKILL, CLI."""

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from sweeplab.cli import main
from sweeplab.sweeps import expand_grid, load_results, plan_chunks, run_sweep

POINTS = expand_grid({"agent": ["trivial", "random"], "level": "beginner", "first_click": ["safe", "zero"]})


def outcome(df):
    """The rows without their timing columns (seconds, seconds_<method>)."""
    return df.drop(columns=[c for c in df.columns if c.startswith("seconds")]).reset_index(drop=True)


@pytest.fixture(scope="module")
def serial():
    return run_sweep(POINTS, games=24, seed=11, workers=1, progress=False)


def test_grid_and_chunks():
    assert len(POINTS) == 4
    chunks = plan_chunks(2, 10, 4)
    assert [(c.point, c.start, c.games) for c in chunks] == [
        (0, 0, 4), (0, 4, 4), (0, 8, 2), (1, 0, 4), (1, 4, 4), (1, 8, 2)]


def test_process_pool_matches_serial(serial, tmp_path):
    pooled = run_sweep(POINTS, games=24, seed=11, workers=2, chunk_size=5, out=tmp_path, progress=False)
    pd.testing.assert_frame_equal(outcome(serial), outcome(pooled))
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["seed"] == 11 and manifest["games"] == 24 and manifest["chunk_size"] == 5
    assert {"version", "git_commit", "points"} <= set(manifest)


def test_dask_cluster_matches_serial(serial):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        dask = run_sweep(POINTS, games=24, seed=11, scheduler=cluster.scheduler_address, chunk_size=7,
                         progress=False)
    pd.testing.assert_frame_equal(outcome(serial), outcome(dask))


def test_other_sweep_in_same_directory_is_refused(tmp_path):
    run_sweep(POINTS[:1], games=2, seed=1, out=tmp_path, workers=1, progress=False)
    with pytest.raises(ValueError, match="another sweep"):
        run_sweep(POINTS[:1], games=3, seed=1, out=tmp_path, workers=1, progress=False)


def test_results_say_which_code_and_seed_played_them(tmp_path):
    """A researcher: the frame load_results returns carried nothing of the code or the seed, and the
    manifest had the commit but not whether the checkout held local changes."""
    from sweeplab.provenance import made_by

    run_sweep([{"agent": "trivial", "level": "beginner"}], games=4, seed=11, out=tmp_path, workers=1,
              progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    df = load_results(tmp_path)
    assert df.attrs["made_by"] == {key: manifest[key] for key in df.attrs["made_by"]}
    assert df.attrs["made_by"]["seed"] == 11 and {**df.attrs["made_by"], **made_by()} == df.attrs["made_by"]
    # a plugin's code too (rev51f: the frame named only sweeplab's, which two plugin versions share)
    import sweeplab.example_plugin  # noqa: F401 - registers rref-reversed

    run_sweep([{"agent": "chain", "methods": ["rref-reversed"], "level": "beginner"}], games=2, seed=11,
              out=tmp_path / "plugin", workers=1, progress=False)
    held = load_results(tmp_path / "plugin").attrs["made_by"]["methods"]
    assert list(held) == ["rref-reversed"] and len(held["rref-reversed"]) == 16


def test_resume_after_sigkill(tmp_path):
    out = tmp_path / "sweep"
    args = [sys.executable, "-m", "sweeplab.cli", "sweep", "--agent", "trivial", "--level", "intermediate",
            "--games", "80", "--seed", "5", "--chunk-size", "2", "--workers", "2", "--out", str(out),
            "--no-progress"]
    proc = subprocess.Popen(args, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    chunks = out / "chunks"
    deadline = time.time() + 60
    while time.time() < deadline and len(list(chunks.glob("*.parquet"))) < 3:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = len(list(chunks.glob("*.parquet")))
    assert 3 <= before < 40, "the sweep should have been stopped half-way"
    resume = args[3:]
    resume[resume.index("--workers") + 1] = "1"
    assert main(resume) == 0  # the same sweep (here on one worker) resumes
    resumed = load_results(out)
    assert len(resumed) == 80 and resumed["game"].is_unique
    fresh = run_sweep([{"agent": "trivial", "level": "intermediate"}], games=80, seed=5, workers=1,
                      progress=False)
    pd.testing.assert_frame_equal(outcome(resumed), outcome(fresh))


def test_cli_play_prints_win_rate_table(capsys):
    assert main(["play", "--agent", "trivial", "--level", "beginner", "--games", "20", "--workers", "1",
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "95% CI" in text and "trivial" in text and "beginner" in text


def test_cli_sweep_config_file(tmp_path, capsys):
    config = tmp_path / "grid.toml"
    config.write_text('games = 6\nseed = 2\n[grid]\nagent = "random"\nlevel = "beginner"\n'
                      'noise = [false, ["lost", 0.5]]\n')
    out = tmp_path / "out"
    assert main(["sweep", "--config", str(config), "--out", str(out), "--workers", "1", "--no-progress"]) == 0
    df = load_results(out)
    assert len(df) == 12 and set(df["noise"].dropna()) == {"lost"}
    assert "lost" in capsys.readouterr().out


@pytest.mark.parametrize(("flags", "games", "seed", "chunks", "agent"), [
    ([], 6, 2, ["g000000000", "g000000003"], "random"),
    (["--games", "4", "--seed", "9", "--chunk-size", "2", "--agent", "trivial"], 4, 9,
     ["g000000000", "g000000002"], "trivial"),
])
def test_cli_sweep_flags_take_precedence_over_the_config(tmp_path, flags, games, seed, chunks, agent):
    config = tmp_path / "grid.toml"
    config.write_text('games = 6\nseed = 2\nchunk_size = 3\n[grid]\nagent = "random"\nlevel = "beginner"\n')
    out = tmp_path / "out"
    assert main(["sweep", str(config), "--out", str(out), "--workers", "1", "--no-progress", *flags]) == 0
    df = load_results(out)
    assert len(df) == games and set(df["seed"]) == {seed} and set(df["agent"]) == {agent}
    assert set(df["level"]) == {"beginner"}
    assert sorted(p.stem.split("-")[1] for p in (out / "chunks").glob("*.parquet")) == chunks
