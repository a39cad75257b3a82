"""Sweep directories with one writer, chunks that prove their identity, workers that die with their parent,
and ``play`` on any executor (issue 14)."""

import importlib
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
import pyarrow.parquet as pq
import pytest

import sweeplab
from sweeplab.cli import main
from sweeplab.sweeps import CHUNK_KEY, load_results, run_sweep

POINT = {"agent": "trivial", "level": "beginner"}


def outcome(df):
    """The rows without their timing columns (seconds, seconds_<method>)."""
    return df.drop(columns=[c for c in df.columns if c.startswith("seconds")]).reset_index(drop=True)


def cli(out, *extra, games=60, seed=5, workers=1, chunk_size=2):
    """The command line of a sweep, as a subprocess argument list."""
    return [sys.executable, "-m", "sweeplab.cli", "sweep", "--agent", "trivial", "--level", "intermediate",
            "--games", str(games), "--seed", str(seed), "--chunk-size", str(chunk_size),
            "--workers", str(workers), "--out", str(out), "--no-progress", *extra]


def wait_for(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


# --- one writer per directory ------------------------------------------------------------------------------


@pytest.mark.parametrize("trial", range(3))
def test_concurrent_sweeps_with_different_seeds_never_mix(tmp_path, trial):
    out = tmp_path / "fresh"
    start = threading.Barrier(2)
    outcomes = {}

    def sweep(seed):
        start.wait()
        try:
            outcomes[seed] = run_sweep([POINT], games=40, seed=seed, chunk_size=2, out=out, workers=1,
                                       progress=False)
        except ValueError as exc:
            outcomes[seed] = exc

    threads = [threading.Thread(target=sweep, args=(seed,)) for seed in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    errors = [str(v) for v in outcomes.values() if isinstance(v, ValueError)]
    assert len(errors) == 1, outcomes  # one sweep ran, the other was refused
    assert str(out) in errors[0]
    assert "in use by another process" in errors[0] or "holds another sweep" in errors[0]
    manifest = json.loads((out / "manifest.json").read_text())
    df = load_results(out)
    assert len(df) == 40 and df["game"].is_unique and set(df["seed"]) == {manifest["seed"]}


def test_running_sweep_locks_its_directory_and_a_killed_one_is_taken_over(tmp_path, capsys):
    out = tmp_path / "sweep"
    point = {"agent": "trivial", "level": "intermediate"}
    proc = subprocess.Popen(cli(out, games=4000), start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: len(list((out / "chunks").glob("*.parquet"))) >= 2)
        with pytest.raises(ValueError, match="in use by another process") as exc:  # the same sweep
            run_sweep([point], games=4000, seed=5, chunk_size=2, out=out, workers=1, progress=False)
        assert str(out) in str(exc.value) and f"pid {proc.pid}" in str(exc.value)
        assert main(cli(out, games=4000, seed=6)[3:]) == 2  # another sweep, from the command line
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and err.startswith("sweeplab sweep: error:")
        assert "in use by another process" in err and f"pid {proc.pid}" in err
        assert proc.poll() is None
    finally:
        kill_group(proc)
    assert (out / ".lock").read_text().startswith(f"a sweep, pid {proc.pid}")  # stale: its holder is dead
    # the lock is taken over: this call gets as far as the manifest, which holds the other seed
    with pytest.raises(ValueError, match="holds another sweep"):
        run_sweep([point], games=4000, seed=6, chunk_size=2, out=out, workers=1, progress=False)
    assert (out / ".lock").read_text() == ""  # released
    assert not list((out / "chunks").glob(".*"))  # the killed sweep's temporary files are gone


def test_manifest_mismatch_names_the_file_and_the_keys(tmp_path):
    run_sweep([POINT], games=2, seed=1, out=tmp_path, workers=1, progress=False)
    with pytest.raises(ValueError, match="seed") as exc:
        run_sweep([POINT], games=2, seed=2, out=tmp_path, workers=1, progress=False)
    assert str(tmp_path / "manifest.json") in str(exc.value) and "games" not in str(exc.value)
    with pytest.raises(ValueError, match=r"'points', 'games' differ") as exc:
        run_sweep([POINT, {**POINT, "first_click": "zero"}], games=3, seed=1, out=tmp_path, workers=1,
                  progress=False)
    with pytest.raises(ValueError, match="chunk_size"):
        run_sweep([POINT], games=2, seed=1, out=tmp_path, chunk_size=2, workers=1, progress=False)
    assert len(run_sweep([POINT], games=2, seed=1, out=tmp_path, workers=1, progress=False)) == 2


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"points": []}', "", '{"points": [], "games": '
                                  '"2", "seed": 1, "chunk_size": 1}'])
def test_corrupt_manifest_is_a_clear_error_naming_it(tmp_path, text):
    (tmp_path / "manifest.json").write_text(text)
    with pytest.raises(ValueError) as exc:
        run_sweep([POINT], games=2, seed=1, out=tmp_path, workers=1, progress=False)
    assert str(tmp_path / "manifest.json") in str(exc.value)
    with pytest.raises(ValueError, match="manifest.json"):
        load_results(tmp_path)


# --- chunks carry their identity --------------------------------------------------------------------------


@pytest.fixture()
def finished(tmp_path):
    """A finished sweep of 2 points x 6 games in chunks of 2, and its rows."""
    points = [POINT, {**POINT, "first_click": "zero"}]
    df = run_sweep(points, games=6, seed=3, chunk_size=2, out=tmp_path / "s", workers=1, progress=False)
    return points, tmp_path / "s", df


def test_chunk_metadata_names_point_games_seed_and_code(finished):
    import pyarrow.parquet as pq

    points, out, _ = finished
    manifest = json.loads((out / "manifest.json").read_text())
    meta = pq.read_schema(out / "chunks" / "p0001-g000000004.parquet").metadata[b"sweeplab.chunk"]
    assert json.loads(meta) == {"point": 1, "params": points[1], "start": 4, "games": 2, "seed": 3,
                                "code": manifest["code"], "methods": manifest["methods"],
                                "environment": manifest["environment"], "rows_digest": True}


def damage_swap(chunks, other):
    shutil.copy(chunks / "p0000-g000000000.parquet", chunks / "p0000-g000000002.parquet")


def damage_point(chunks, other):
    shutil.copy(chunks / "p0001-g000000002.parquet", chunks / "p0000-g000000002.parquet")


def damage_truncate(chunks, other):
    path = chunks / "p0000-g000000002.parquet"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def damage_garbage(chunks, other):
    (chunks / "p0000-g000000002.parquet").write_bytes(b"PAR1" + os.urandom(300))


def damage_other_sweep(chunks, other):
    shutil.copy(other / "chunks" / "p0000-g000000002.parquet", chunks / "p0000-g000000002.parquet")


def damage_games(chunks, other):
    """The chunk keeps its identity (point 0, games 2..3) but holds game 2 twice."""
    import pyarrow as pa

    path = chunks / "p0000-g000000002.parquet"
    table = pq.read_table(path)
    field = table.schema.get_field_index("game")
    games = table.column("game").to_pylist()
    twice = pa.array([games[0]] * len(games), type=table.schema.field(field).type)
    pq.write_table(table.set_column(field, "game", twice), path)
    assert b"sweeplab.chunk" in pq.read_schema(path).metadata  # the identity is still right


@pytest.mark.parametrize("damage", [damage_swap, damage_point, damage_truncate, damage_garbage,
                                    damage_other_sweep, damage_games])
def test_foreign_or_broken_chunk_is_refused_then_recomputed(finished, tmp_path, damage, caplog):
    points, out, expected = finished
    other = tmp_path / "other"
    run_sweep(points, games=6, seed=4, chunk_size=2, out=other, workers=1, progress=False)  # another seed
    damage(out / "chunks", other)
    bad = out / "chunks" / "p0000-g000000002.parquet"
    with pytest.raises(ValueError, match="p0000-g000000002.parquet"):
        load_results(out)
    with caplog.at_level(logging.WARNING, logger="sweeplab.sweeps"):
        resumed = run_sweep(points, games=6, seed=3, out=out, workers=1, progress=False)
    assert any(str(bad) in r.getMessage() and "recomputing" in r.getMessage() for r in caplog.records)
    pd.testing.assert_frame_equal(outcome(resumed), outcome(expected))
    pd.testing.assert_frame_equal(outcome(load_results(out)), outcome(expected))


def test_missing_chunk_only_is_rerun(finished, caplog):
    points, out, expected = finished
    (out / "chunks" / "p0001-g000000000.parquet").unlink()
    stray = out / "chunks" / "p0009-g000000000.parquet"  # not in the plan: not read, and said so
    said = r"p0009-g000000000\.parquet is not among the planned chunks of this sweep"
    shutil.copy(out / "chunks" / "p0000-g000000000.parquet", stray)
    with caplog.at_level(logging.WARNING, logger="sweeplab.sweeps"), pytest.warns(UserWarning, match=said):
        resumed = run_sweep(points, games=6, seed=3, out=out, workers=1, progress=False)
    assert not caplog.records  # nothing recomputed but the missing chunk
    pd.testing.assert_frame_equal(outcome(resumed), outcome(expected))
    (out / "chunks" / "notes.txt").write_text("mine")
    with pytest.warns(UserWarning, match=r"notes\.txt, p0009-g000000000\.parquet are not among"):
        pd.testing.assert_frame_equal(outcome(load_results(out)), outcome(expected))
    stray.unlink()
    (out / "chunks" / "notes.txt").unlink()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_results(out)


# --- children die with their parent -----------------------------------------------------------------------


def test_sigkill_of_the_parent_leaves_no_process_behind(tmp_path):
    proc = subprocess.Popen(cli(tmp_path / "s", games=2000, workers=2), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: len(list((tmp_path / "s" / "chunks").glob("*.parquet"))) >= 2)
        children = psutil.Process(proc.pid).children(recursive=True)
        assert len(children) >= 2  # the workers (off Linux also a forkserver and the resource tracker)
        proc.send_signal(signal.SIGKILL)  # the parent only, not its process group
        proc.wait()

        def gone():
            return not [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]

        assert wait_for(gone, timeout=5), [c.cmdline() for c in children if c.is_running()]
    finally:
        kill_group(proc)


def test_forked_workers_do_not_hold_the_sweep_lock(tmp_path):
    """Workers are forked on Linux: the lock's descriptor must stay with the sweep, or a worker outliving a
    killed sweep would keep its directory locked."""
    import multiprocessing

    from sweeplab.run_directory import prepare_output

    lock = prepare_output(tmp_path, "sweep")
    parent, child = multiprocessing.Pipe()

    def probe():  # the descriptor's number may be reused in the child (stdin goes to /dev/null)
        try:
            child.send("inherited" if os.fstat(lock.fd).st_ino == os.stat(lock.path).st_ino else "closed")
        except OSError:
            child.send("closed")

    worker = multiprocessing.get_context("fork").Process(target=probe)
    worker.start()
    assert parent.recv() == "closed"
    worker.join()
    os.fstat(lock.fd)  # still open here
    lock.release()


# --- play on any executor ---------------------------------------------------------------------------------


def test_play_with_workers_gives_the_same_rows():
    one = sweeplab.play("trivial", level="beginner", games=30, seed=9, first_click="zero")
    two = sweeplab.play("trivial", level="beginner", games=30, seed=9, first_click="zero", workers=2)
    pd.testing.assert_frame_equal(outcome(one), outcome(two))
    shifted = sweeplab.play("trivial", level="beginner", games=10, seed=9, first_click="zero", start=20,
                            workers=2)
    pd.testing.assert_frame_equal(outcome(shifted), outcome(one.iloc[20:]))


def test_play_on_a_dask_cluster_gives_the_same_rows():
    distributed = pytest.importorskip("distributed")
    one = sweeplab.play("random", shape=(6, 7), mines=8, games=12, seed=2, noise=("lost", 0.2))
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=2,
                                  dashboard_address=":0") as cluster:  # any free port: none clashes
        dask = sweeplab.play("random", shape=(6, 7), mines=8, games=12, seed=2, noise=("lost", 0.2),
                             scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(outcome(one), outcome(dask))


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_play_refuses_bad_worker_counts(workers):
    with pytest.raises(ValueError, match="workers must be a positive integer"):
        sweeplab.play("trivial", level="beginner", games=2, workers=workers)


def test_unreachable_scheduler_is_a_quick_clear_error(monkeypatch, tmp_path):
    pytest.importorskip("distributed")
    monkeypatch.setattr("sweeplab.executor.CONNECT_TIMEOUT", 1.0)
    t0 = time.monotonic()
    with pytest.raises(ValueError, match=r"cannot connect to the Dask scheduler 'tcp://127.0.0.1:9'"):
        sweeplab.play("trivial", level="beginner", games=2, scheduler="tcp://127.0.0.1:9")
    with pytest.raises(ValueError, match="cannot connect"):
        run_sweep([POINT], games=2, out=tmp_path / "s", scheduler="tcp://127.0.0.1:9", progress=False)
    assert time.monotonic() - t0 < 15
    assert not Path(tmp_path / "s").exists()  # nothing written before the scheduler answered


def test_a_resume_under_other_code_is_refused(tmp_path):
    """Games of two versions of an agent must not be counted as one sample (resume with other code)."""
    from sweeplab.provenance import code_fingerprint

    out = tmp_path / "run"
    first = run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    assert manifest["code"] == code_fingerprint()
    (out / "chunks" / sorted(p.name for p in (out / "chunks").glob("*.parquet"))[1]).unlink()
    manifest_path.write_text(json.dumps({**manifest, "code": "0123456789abcdef"}))  # started by other code
    with pytest.raises(ValueError, match="started by other sweeplab code") as exc:
        run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    assert "0123456789abcdef" in str(exc.value) and code_fingerprint() in str(exc.value)
    assert len(list((out / "chunks").glob("*.parquet"))) == 1  # nothing was played
    assert main(["sweep", "--agent", "trivial", "--level", "beginner", "--games", "4", "--seed", "1",
                 "--chunk-size", "2", "--out", str(out)]) == 2
    # a manifest from before fingerprints were recorded: nothing says which code played its games
    del manifest["code"]
    manifest_path.write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="from before runs recorded its fingerprint"):
        run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    assert len(list((out / "chunks").glob("*.parquet"))) == 1  # nothing was played
    manifest_path.write_text(json.dumps({**manifest, "code": code_fingerprint()}))  # this code's run
    again = run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    pd.testing.assert_frame_equal(outcome(first), outcome(again))


def test_a_resume_under_other_package_versions_is_refused(tmp_path):
    """numpy does not promise the same random draws across releases: a sweep resumed after an upgrade
    would pool games of two environments.  The manifest records the versions that can change games."""
    from sweeplab.provenance import environment

    out = tmp_path / "run"
    first = run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    assert manifest["environment"] == environment() and {"numpy", "numba"} <= set(manifest["environment"])
    (out / "chunks" / sorted(p.name for p in (out / "chunks").glob("*.parquet"))[1]).unlink()
    older = {**manifest["environment"], "numpy": "1.0.0"}
    manifest_path.write_text(json.dumps({**manifest, "environment": older}))
    with pytest.raises(ValueError, match=r"other versions of packages .*numpy 1\.0\.0 there") as exc:
        run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    assert environment()["numpy"] in str(exc.value)
    assert len(list((out / "chunks").glob("*.parquet"))) == 1  # nothing was played
    del manifest["environment"]  # a manifest from before versions were recorded resumes as before
    manifest_path.write_text(json.dumps(manifest))
    again = run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    pd.testing.assert_frame_equal(outcome(first), outcome(again))


@pytest.mark.parametrize(("stamp", "module", "source", "other"), [
    ("code", "provenance", "code_fingerprint", lambda real: "0123456789abcdef"),  # read by made_by()
    ("environment", "run_directory", "environment", lambda real: {**real, "numpy": "1.0.0"}),
])
def test_chunks_of_other_code_or_versions_are_recomputed_when_the_manifest_is_gone(
        monkeypatch, tmp_path, caplog, stamp, module, source, other):
    """Deleting a manifest that refused a resume must not let the old code's (or the old package
    versions') games join the new run: every chunk carries the fingerprints and versions that played it."""
    import importlib

    where = importlib.import_module(f"sweeplab.{module}")
    out = tmp_path / "run"
    real = getattr(where, source)()
    monkeypatch.setattr(where, source, lambda: other(real))  # old code or versions
    run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    monkeypatch.undo()
    with pytest.raises(ValueError, match="started by other sweeplab code|started with other versions"):
        run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    (out / "manifest.json").unlink()
    with caplog.at_level("WARNING", logger="sweeplab"):
        again = run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    recomputed = [r for r in caplog.records if "recomputing" in r.getMessage()]
    assert len(recomputed) == 2 and all(stamp in r.getMessage() for r in recomputed)
    assert len(again) == 4
    for chunk in (out / "chunks").glob("*.parquet"):  # now stamped with what played them
        assert json.loads(pq.read_schema(chunk).metadata[CHUNK_KEY])[stamp] == real


def test_chunks_without_fingerprints_are_recomputed_under_a_new_manifest(monkeypatch, tmp_path, caplog):
    """Chunks from before chunks carried fingerprints, left by other code whose manifest was deleted
    after a refused resume: the new manifest vouches only for its own code, so they are recomputed."""
    import pyarrow.parquet as pq

    import sweeplab.provenance

    out = tmp_path / "run"
    monkeypatch.setattr(sweeplab.provenance, "code_fingerprint", lambda: "0123456789abcdef")  # old code
    run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    monkeypatch.undo()
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["chunk_fingerprints"]  # and its format: chunks without fingerprints
    (out / "manifest.json").write_text(json.dumps(manifest))
    for chunk in (out / "chunks").glob("*.parquet"):
        table = pq.read_table(chunk)
        identity = json.loads(table.schema.metadata[CHUNK_KEY])
        old = {k: v for k, v in identity.items() if k not in ("code", "methods")}
        pq.write_table(table.replace_schema_metadata({CHUNK_KEY: json.dumps(old).encode()}), chunk)
    with pytest.raises(ValueError, match="started by other sweeplab code"):
        run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    (out / "manifest.json").unlink()
    with caplog.at_level("WARNING", logger="sweeplab"):
        again = run_sweep([POINT], games=4, seed=1, chunk_size=2, out=out, workers=1, progress=False)
    assert len([r for r in caplog.records if "recomputing" in r.getMessage()]) == 2
    assert len(again) == 4
    for chunk in (out / "chunks").glob("*.parquet"):
        assert json.loads(pq.read_schema(chunk).metadata[CHUNK_KEY])["code"] != "0123456789abcdef"


def test_the_code_fingerprint_sees_every_source_file(tmp_path):
    from sweeplab.provenance import code_fingerprint

    def tree(name, files):
        root = tmp_path / name
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
        return code_fingerprint(root)

    base = {"a.py": "x = 1\n", "sub/b.py": "y = 2\n", "notes.txt": "ignored"}
    assert tree("same", base) == tree("copy", base)
    assert tree("edited", {**base, "sub/b.py": "y = 3\n"}) != tree("same", base)
    renamed = {"a.py": "x = 1\n", "sub/c.py": "y = 2\n", "notes.txt": "ignored"}
    assert tree("renamed", renamed) != tree("same", base)
    assert tree("other text", {**base, "notes.txt": "changed"}) == tree("same", base)


def test_a_dask_worker_with_other_code_is_refused(monkeypatch, tmp_path):
    """A cluster worker with another sweeplab install must not add its games to this sample."""
    distributed = pytest.importorskip("distributed")
    import sweeplab.provenance

    # a worker process of its own: it imports sweeplab afresh and reports the real fingerprint
    with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as cluster:  # any free port: none clashes
        same = run_sweep([POINT], games=2, seed=3, out=tmp_path / "same", scheduler=cluster.scheduler_address,
                         progress=False)
        assert len(same) == 2
        # this process now stands for another install than the worker's
        real = sweeplab.provenance.code_fingerprint()
        monkeypatch.setattr(sweeplab.provenance, "code_fingerprint", lambda: "0123456789abcdef")
        with pytest.raises(ValueError, match="a Dask worker runs other sweeplab code") as exc:
            run_sweep([POINT], games=2, seed=3, out=tmp_path / "other", scheduler=cluster.scheduler_address,
                      progress=False)
    assert f"fingerprint {real}, 0123456789abcdef here" in str(exc.value)
    assert not list((tmp_path / "other" / "chunks").glob("*.parquet"))  # nothing counted


def test_a_dask_worker_with_other_package_versions_is_refused(monkeypatch, tmp_path):
    """numpy's draws may differ across releases: a worker with another numpy must not add its games."""
    distributed = pytest.importorskip("distributed")
    import sweeplab.provenance

    real = sweeplab.provenance.environment()
    with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as cluster:  # any free port: none clashes
        monkeypatch.setattr(sweeplab.provenance, "environment", lambda: {**real, "numpy": "1.0.0"})
        with pytest.raises(ValueError, match="a Dask worker runs other versions of packages") as exc:
            run_sweep([POINT], games=2, seed=3, out=tmp_path / "other", scheduler=cluster.scheduler_address,
                      progress=False)
    assert f"numpy {real['numpy']} there, 1.0.0 here" in str(exc.value)
    assert not list((tmp_path / "other" / "chunks").glob("*.parquet"))  # nothing counted


# --- the code of methods that are not sweeplab's own -------------------------------------------------------

PLUGIN_SOURCE = '''
import sweeplab

def first_rule(obs, *, use_total=True):
    return sweeplab.deduce(obs, "trivial", use_total=use_total).safe, set()

sweeplab.register_method("resume-plugin", first_rule, sound=True, complete=False, replace=True)
'''


def _main_function(body):
    """A method defined as in a script or notebook (module ``__main__``, no source file)."""
    namespace = {"__name__": "__main__", "sweeplab": sweeplab}
    exec(f"def claims(obs, *, use_total=True):\n    {body}\n", namespace)
    return namespace["claims"]


@pytest.fixture
def plugin_module(tmp_path, monkeypatch):
    """A plugin module file on sys.path, loaded as --plugin loads it; unregistered afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(sweeplab.methods.PLUGINS_ENV, "")  # restored afterwards: later workers skip it
    path = tmp_path / "resume_plugin_module.py"
    path.write_text(PLUGIN_SOURCE)
    sweeplab.methods.load_plugins(["resume_plugin_module"])
    yield path
    sys.modules.pop("resume_plugin_module", None)
    if "resume-plugin" in sweeplab.METHODS:
        sweeplab.unregister_method("resume-plugin")


def test_a_resume_after_a_plugin_method_changed_is_refused(tmp_path, plugin_module):
    """Games played by two versions of a plugin method must not be counted as one sample."""
    point = {"agent": "chain", "methods": ["resume-plugin"], "level": "beginner"}
    out = tmp_path / "run"
    first = run_sweep([point], games=4, seed=2, chunk_size=2, out=out, workers=1, progress=False)
    manifest = json.loads((out / "manifest.json").read_text())
    assert list(manifest["methods"]) == ["resume-plugin"]
    # the plugin's columns come back from the chunks (they were refused as not the games named)
    pd.testing.assert_frame_equal(load_results(out), first)
    assert first["certain_resume_plugin"].dtype == "int64" and first["certain_resume_plugin"].sum() > 0
    chunk = sorted((out / "chunks").glob("*.parquet"))[1]
    chunk.unlink()
    # the same source resumes, and replays the removed chunk identically
    again = run_sweep([point], games=4, seed=2, chunk_size=2, out=out, workers=1, progress=False)
    pd.testing.assert_frame_equal(outcome(first), outcome(again))
    chunk.unlink()
    plugin_module.write_text(PLUGIN_SOURCE.replace('"trivial"', '"subset"'))  # an edit of the plugin
    # this process still runs the code it imported: recorded as the new code's, its games would have
    # joined a later resume by the new code (a researcher's review)
    with pytest.raises(ValueError, match=r"resume_plugin_module.*is not what this process runs \(first_rule "
                                         r"differs\): the file changed since this process imported it.*"
                                         r"restart the process .*register again, with replace=True"):
        run_sweep([point], games=4, seed=2, chunk_size=2, out=out, workers=1, progress=False)
    importlib.reload(sys.modules["resume_plugin_module"])  # as a new process would: the new code registered
    with pytest.raises(ValueError, match="started by other code of method 'resume-plugin'"):
        run_sweep([point], games=4, seed=2, chunk_size=2, out=out, workers=1, progress=False)
    assert len(list((out / "chunks").glob("*.parquet"))) == 1  # nothing was played
    sweeplab.unregister_method("resume-plugin")
    with pytest.raises(ValueError, match="unknown method 'resume-plugin'"):
        run_sweep([point], games=4, seed=2, chunk_size=2, out=out, workers=1, progress=False)


def test_a_resume_after_a_notebook_method_changed_is_refused(tmp_path):
    point = {"agent": "chain", "methods": ["resume-notebook"], "level": "beginner"}
    out = tmp_path / "run"
    sweeplab.register_method("resume-notebook", _main_function("return set(), set()"), sound=True,
                             complete=False)
    try:
        run_sweep([point], games=2, seed=2, chunk_size=1, out=out, workers=1, progress=False)
        next((out / "chunks").glob("*.parquet")).unlink()
        # registered again from the same text (a notebook cell run twice): the same code, it resumes
        sweeplab.register_method("resume-notebook", _main_function("return set(), set()"), sound=True,
                                 complete=False, replace=True)
        assert len(run_sweep([point], games=2, seed=2, chunk_size=1, out=out, workers=1, progress=False)) == 2
        next((out / "chunks").glob("*.parquet")).unlink()
        sweeplab.register_method("resume-notebook", _main_function("return {(0, 0)} - {(0, 0)}, set()"),
                                 sound=True, complete=False, replace=True)
        with pytest.raises(ValueError, match="other code of method 'resume-notebook'"):
            run_sweep([point], games=2, seed=2, chunk_size=1, out=out, workers=1, progress=False)
    finally:
        sweeplab.unregister_method("resume-notebook")


def test_method_fingerprints_cover_only_the_methods_a_run_names():
    from sweeplab.provenance import method_fingerprints

    sweeplab.register_method("fp-a", _main_function("return set(), set()"), sound=True, complete=False)
    sweeplab.register_method("fp-b", _main_function("return set(), set()"), sound=True, complete=False)
    try:
        named = method_fingerprints([{"agent": "chain", "methods": ["trivial", "fp-a"], "level": "beginner"}])
        assert list(named) == ["fp-a"]  # not the built-in, not fp-b
        assert method_fingerprints({"method": "fp-b"}).keys() == {"fp-b"}
        agent = sweeplab.agents.make_agent("chain", methods=("subset", "fp-b"))  # tasks may hold agents
        assert method_fingerprints([{"agent": agent, "seed": 1}]).keys() == {"fp-b"}
        assert named["fp-a"] == method_fingerprints(["fp-b"])["fp-b"]  # same code, same fingerprint
    finally:
        sweeplab.unregister_method("fp-a")
        sweeplab.unregister_method("fp-b")


def test_method_fingerprints_cover_the_methods_a_registered_agent_plays_by_default():
    """A notebook agent whose default chain holds a notebook method: a change to that method must be seen
    on resume, though the run's points name only the agent."""
    import dataclasses

    from sweeplab.agents.basic import ChainAgent
    from sweeplab.provenance import method_fingerprints

    sweeplab.register_method("fp-default", _main_function("return set(), set()"), sound=True, complete=False)
    agent = dataclasses.make_dataclass("DefaultChain", [("methods", tuple, ("fp-default",))],
                                       bases=(ChainAgent,), frozen=True, namespace={"name": "fp-chain"})
    sweeplab.register_agent("fp-chain", agent)
    try:
        found = method_fingerprints([{"agent": "fp-chain", "level": "beginner"}])
        assert found.keys() == {"fp-default", "agent fp-chain"}
    finally:
        sweeplab.unregister_agent("fp-chain")
        sweeplab.unregister_method("fp-default")


def test_a_long_lived_dask_worker_runs_the_method_as_the_client_has_it_now(monkeypatch, tmp_path):
    """A worker that registered a notebook method earlier takes the edited one, and a worker whose
    plugin code differs from the client's is refused."""
    distributed = pytest.importorskip("distributed")
    import sweeplab.provenance

    point = {"agent": "chain", "methods": ["dask-notebook"], "level": "beginner"}
    with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as cluster:  # any free port: none clashes
        try:
            sweeplab.register_method("dask-notebook", _main_function("return set(), set()"), sound=True,
                                     complete=False)
            run_sweep([point], games=3, seed=4, scheduler=cluster.scheduler_address, progress=False)
            # the edit: now the single-clue rules; the worker must not keep the first version
            sweeplab.register_method("dask-notebook", _main_function(
                "return sweeplab.deduce(obs, 'trivial', use_total=use_total).safe, set()"), sound=True,
                complete=False, replace=True)
            there = run_sweep([point], games=3, seed=4, scheduler=cluster.scheduler_address, progress=False)
            here = run_sweep([point], games=3, seed=4, workers=1, progress=False)
            pd.testing.assert_frame_equal(outcome(there), outcome(here))
            # a worker whose code of the method differs (another plugin install) is refused
            monkeypatch.setattr(sweeplab.provenance, "method_fingerprints",
                                lambda points: {"dask-notebook": "0123456789abcdef"})
            with pytest.raises(ValueError, match="a Dask worker runs other code of method 'dask-notebook'"):
                run_sweep([point], games=3, seed=4, out=tmp_path / "other",
                          scheduler=cluster.scheduler_address, progress=False)
        finally:
            sweeplab.unregister_method("dask-notebook")


def test_a_registered_methods_columns_are_zero_where_it_never_ran(tmp_path):
    """Parts of a run whose games never called a registered method hold 0 for it, not NaN."""
    from sweeplab.simulate import concat_results

    calls = _main_function("return sweeplab.deduce(obs, 'trivial', use_total=use_total).safe, set()")
    sweeplab.register_method("zero-cols", calls, sound=True, complete=False)
    try:
        parts = [sweeplab.play("chain", methods=["zero-cols"], level="beginner", games=2, seed=1, workers=1),
                 sweeplab.play("trivial", level="beginner", games=2, seed=1, start=2, workers=1)]
        df = concat_results(parts)
        assert df["certain_zero_cols"].tolist()[2:] == [0, 0] and df["seconds_zero_cols"].notna().all()
        assert list(df.columns[-2:]) == ["certain_zero_cols", "seconds_zero_cols"]
        two = sweeplab.play("chain", methods=["zero-cols"], level="beginner", games=6, seed=1, workers=2)
        one = sweeplab.play("chain", methods=["zero-cols"], level="beginner", games=6, seed=1, workers=1)
        pd.testing.assert_frame_equal(outcome(two), outcome(one))
    finally:
        sweeplab.unregister_method("zero-cols")


def test_a_plugins_helper_modules_are_in_its_fingerprint(tmp_path, monkeypatch):
    """An edit of a module the plugin takes its rule from changes the method's fingerprint (a resume
    would have mixed two versions); the standard library and installed packages are not hashed."""
    from sweeplab._source_files import helper_modules
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "fp_helpers").mkdir()
    (tmp_path / "fp_helpers" / "__init__.py").write_text("")
    (tmp_path / "fp_helpers" / "rules.py").write_text("import json\nMETHOD = 'trivial'\n")
    (tmp_path / "fp_helpers" / "more.py").write_text("from fp_helpers import rules\n")
    (tmp_path / "fp_plugin.py").write_text(
        "import numpy as np\nimport sweeplab\nfrom fp_helpers import more\n\n"
        "def claims(obs, *, use_total=True):\n"
        "    return sweeplab.deduce(obs, more.rules.METHOD, use_total=use_total).safe, set()\n")
    try:
        import fp_plugin

        helpers = [p.name for _, p in helper_modules("fp_plugin")]
        assert helpers == ["__init__.py", "more.py", "rules.py"]  # not numpy, json
        before = function_fingerprint(fp_plugin.claims)
        (tmp_path / "fp_helpers" / "rules.py").write_text("import json\nMETHOD = 'subset'\n")
        with pytest.raises(ValueError, match=r"rules.py .module 'fp_helpers.rules'. is not what this process "
                                             r"runs \(METHOD"):
            function_fingerprint(fp_plugin.claims)  # the helper in memory is the old one
        for name in ("fp_plugin", "fp_helpers", "fp_helpers.rules", "fp_helpers.more"):
            sys.modules.pop(name, None)  # a new process
        import fp_plugin

        assert function_fingerprint(fp_plugin.claims) != before
    finally:
        for name in ("fp_plugin", "fp_helpers", "fp_helpers.rules", "fp_helpers.more"):
            sys.modules.pop(name, None)


@pytest.mark.parametrize("importing", ["import fp_inner_helper",
                                       # an adversarial review: this form was not hashed, and an edit of the
                                       # helper between runs pooled the games of two settings
                                       "importlib.import_module('fp_inner_helper')"])
def test_a_plugins_module_imported_in_a_function_body_is_in_its_fingerprint(tmp_path, monkeypatch, importing):
    """``import helper`` inside the method: before its first call too (a fresh run has not called it)."""
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "fp_inner_helper.py").write_text("ON = True\n")
    (tmp_path / "fp_inner_plugin.py").write_text(
        "import importlib\n\n\ndef claims(obs, *, use_total=True):\n"
        f"    {importing}\n"
        "    return set(), set()\n")
    try:
        import fp_inner_plugin

        before = function_fingerprint(fp_inner_plugin.claims)  # fp_inner_helper not imported yet
        assert "fp_inner_helper" not in sys.modules
        (tmp_path / "fp_inner_helper.py").write_text("ON = False\n")
        assert function_fingerprint(fp_inner_plugin.claims) != before
        fp_inner_plugin.claims(None)  # imported now: read from sys.modules, the same file
        assert function_fingerprint(fp_inner_plugin.claims) != before
    finally:
        for name in ("fp_inner_plugin", "fp_inner_helper"):
            sys.modules.pop(name, None)


def test_a_scripts_method_is_fingerprinted_with_what_it_reads():
    """A script's or notebook's method: its closure's values, the globals it reads and the helpers it
    calls count, so a resumed run of another version is refused (issue: games of two settings mixed)."""
    from sweeplab.provenance import function_fingerprint

    source = textwrap.dedent("""
        import numpy as np
        THRESHOLD = THRESHOLD_VALUE
        SCRATCH = [1, 2]

        def helper(k):
            return k > HELPER_LIMIT

        def make(flag):
            def mine(obs, *, use_total=True):
                if flag and helper(THRESHOLD) and SCRATCH and np.pi:
                    return set(), set()
                return set(), set()
            return mine
        method = make(FLAG)
    """)

    def fingerprint(flag=True, threshold=3, limit=1, scratch=None):
        namespace = {"__name__": "__main__"}
        exec(source.replace("THRESHOLD_VALUE", repr(threshold)).replace("HELPER_LIMIT", repr(limit))
             .replace("FLAG", repr(flag)), namespace)
        if scratch is not None:
            namespace["SCRATCH"].extend(scratch)  # mutable state: by its type only, never by its value
        return function_fingerprint(namespace["method"])

    same = fingerprint()
    assert fingerprint() == same
    assert fingerprint(flag=False) != same  # a value in its closure
    assert fingerprint(threshold=4) != same  # a global it reads
    assert fingerprint(limit=2) != same  # a helper function of the same script
    assert fingerprint(scratch=[3]) == same  # a list it may fill as it plays


def test_a_scripts_method_has_the_same_fingerprint_in_every_process(tmp_path):
    """Set literals, frozensets, partials holding functions: nothing whose text changes with the hash
    seed or a memory address (else every resume would be refused)."""
    script = tmp_path / "fp_script.py"
    script.write_text(textwrap.dedent("""
        import functools, sys
        import numba
        from sweeplab.provenance import function_fingerprint
        KINDS = frozenset({"alpha", "beta", "gamma", "delta"})

        @numba.njit
        def fast(x):
            return x + 1

        def helper(obs, *, use_total=True, names=frozenset({"x", "y", "z"})):
            return obs.noise not in {"none", "exact", "lost", "under"} and obs in KINDS and fast(1)

        def method(obs, *, use_total=True, level=0.5):
            return helper(obs), set()

        part = functools.partial(method, level=frozenset({"p", "q", "r", "s"}), other=helper)
        print(function_fingerprint(method), function_fingerprint(part))
    """))
    seen = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": os.pathsep.join(sys.path)}
        run = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stderr[-2000:]
        seen.add(run.stdout.strip())
    assert len(seen) == 1, seen


def test_a_scripts_method_fingerprint_sees_defaults_and_compiled_helpers():
    from sweeplab.provenance import function_fingerprint

    source = textwrap.dedent("""
        import numba

        @numba.njit
        def fast(x):
            return x + STEP

        def mine(obs, *, use_total=True, threshold=THRESHOLD):
            return fast(1), set()
    """)

    def fingerprint(step=1, threshold=0.5):
        namespace = {"__name__": "__main__"}
        exec(source.replace("STEP", repr(step)).replace("THRESHOLD", repr(threshold)), namespace)
        return function_fingerprint(namespace["mine"])

    same = fingerprint()
    assert fingerprint() == same and fingerprint(threshold=0.7) != same and fingerprint(step=2) != same


def test_a_run_refuses_when_sweeplab_changed_on_disk_since_import(tmp_path, monkeypatch):
    """A notebook that imported sweeplab before a `git pull` still runs the old code: its games must not
    be stamped with the new code's fingerprint (a later resume would pool the two)."""
    import sweeplab.provenance

    assert sweeplab.provenance.code_fingerprint() == sweeplab.provenance.IMPORTED_FINGERPRINT
    monkeypatch.setattr(sweeplab.provenance, "IMPORTED_FINGERPRINT", "0123456789abcdef")  # then
    with pytest.raises(ValueError, match="changed since this process imported it .*restart the kernel"):
        run_sweep([POINT], games=2, seed=1, out=tmp_path / "run", workers=1, progress=False)
    assert not list((tmp_path / "run").glob("chunks/*.parquet"))


def test_a_chunk_played_after_sweeplab_changed_on_disk_is_not_written(tmp_path, monkeypatch):
    """The check at the start of a run misses an edit made while it runs, and a worker that imports a module
    after the edit plays the new code: every chunk is checked before it is written."""
    import sweeplab.provenance
    import sweeplab.sweeps

    played = []
    run_chunk = sweeplab.sweeps.run_chunk

    def edited_after_the_first(point, chunk, seed):
        if played:  # the source changes on disk while the run goes on
            monkeypatch.setattr(sweeplab.provenance, "IMPORTED_FINGERPRINT", "0123456789abcdef")
        if chunk.games:  # not the sweep's zero-game check of the point
            played.append(chunk)
        return run_chunk(point, chunk, seed)

    monkeypatch.setattr(sweeplab.sweeps, "run_chunk", edited_after_the_first)
    with pytest.raises(ValueError, match="changed since this process imported it"):
        run_sweep([POINT], games=3, seed=1, out=tmp_path / "run", workers=1, chunk_size=1, progress=False)
    assert len(played) == 2 and len(list((tmp_path / "run").glob("chunks/*.parquet"))) == 1


def test_loading_a_sweep_with_chunks_still_missing_says_so(tmp_path):
    """A sweep still running (or stopped) loaded fewer games than planned without a word."""
    out = tmp_path / "run"
    run_sweep([POINT], games=4, seed=1, out=out, workers=1, chunk_size=2, progress=False)
    sorted((out / "chunks").glob("*.parquet"))[0].unlink()
    with pytest.warns(UserWarning, match="1 of 2 planned chunks are not written yet .*: 2 of 4 games"):
        assert len(load_results(out)) == 2


def test_a_callable_objects_attributes_and_a_read_only_table_are_in_its_fingerprint():
    """``register_method("rule", Rule(slack))``: the slack came from outside the source (an environment
    variable), and a resume by ``Rule(1)`` of a run by ``Rule(0)`` was accepted, mixing the two."""
    from types import MappingProxyType

    from sweeplab.provenance import function_fingerprint

    namespace: dict = {"__name__": "__main__", "MappingProxyType": MappingProxyType}
    exec(textwrap.dedent("""
        class Rule:
            __slots__ = ("slack",)
            def __init__(self, slack):
                self.slack = slack
            def __call__(self, obs, *, use_total=True):
                return set(), set()

        class Loose:
            def __init__(self, slack):
                self.slack, self.memo = slack, {}
            def __call__(self, obs, *, use_total=True):
                return set(), set()

        def tabled(obs, *, use_total=True):
            return set(), set() if TABLE["keep"] else set()
        """), namespace)
    Rule, Loose = namespace["Rule"], namespace["Loose"]
    assert function_fingerprint(Rule(0)) == function_fingerprint(Rule(0)) != function_fingerprint(Rule(1))
    filled = Loose(0)
    filled.memo[1] = 2  # what a method fills as it plays counts by type only: resumes stay possible
    assert function_fingerprint(Loose(0)) == function_fingerprint(filled) != function_fingerprint(Loose(1))
    prints = []
    for table in (MappingProxyType({"keep": 1}), MappingProxyType({"keep": 2}), {"keep": 1}, {"keep": 2}):
        namespace["TABLE"] = table
        prints.append(function_fingerprint(namespace["tabled"]))
    assert prints[0] != prints[1] and prints[2] == prints[3]  # a read-only table by value, a dict by type


def test_a_plugin_edited_under_the_process_refuses_until_reloaded(tmp_path, monkeypatch):
    """The module in memory is compared with its file: an edit not yet loaded refuses (the process runs the
    old code), a reload passes with the new file's fingerprint; a helper read only for a constant
    (``from helper import METHOD``) counts too."""
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "st_helper.py").write_text("METHOD = 'trivial'\n")
    plugin = ("from st_helper import METHOD\nimport sweeplab\n\n"
              "def rule(obs, *, use_total=True):\n    return sweeplab.deduce(obs, METHOD).safe, set()\n")
    (tmp_path / "st_plugin.py").write_text(plugin)
    try:
        import st_helper
        import st_plugin

        before = function_fingerprint(st_plugin.rule)
        (tmp_path / "st_plugin.py").write_text("# a comment moves the code down\n" + plugin)
        assert function_fingerprint(st_plugin.rule) != before  # the file is what is recorded ...
        importlib.reload(st_plugin)  # ... and lines moved are no change of code: no refusal before or after
        (tmp_path / "st_helper.py").write_text("METHOD = 'subset'\n")
        with pytest.raises(ValueError, match=r"st_helper.py .module 'st_helper'. is not what this process "
                                             r"runs \(METHOD differs\): the file changed"):
            function_fingerprint(st_plugin.rule)
        importlib.reload(st_helper)
        importlib.reload(st_plugin)  # now it runs what its files hold
        assert st_plugin.METHOD == "subset"
        reloaded = function_fingerprint(st_plugin.rule)
        for name in ("st_plugin", "st_helper"):
            sys.modules.pop(name)
        import st_plugin as fresh  # as a new process imports it

        assert function_fingerprint(fresh.rule) == reloaded != before
    finally:
        for name in ("st_plugin", "st_helper"):
            sys.modules.pop(name, None)


def test_a_bound_method_and_a_counting_object_are_fingerprinted_by_what_they_play_with():
    from sweeplab.provenance import function_fingerprint

    namespace: dict = {"__name__": "__main__"}
    exec(textwrap.dedent("""
        class Rules:
            def __init__(self, method):
                self.method, self._calls = method, 0
            def claims(self, obs, *, use_total=True):
                self._calls += 1
                return set(), set()
            __call__ = claims
        """), namespace)
    Rules = namespace["Rules"]
    trivial, subset = Rules("trivial"), Rules("subset")
    assert function_fingerprint(trivial.claims) != function_fingerprint(subset.claims)  # was one constant
    first = function_fingerprint(trivial), function_fingerprint(trivial.claims)
    trivial(None)
    trivial.claims(None)  # what it keeps as it plays, under a leading underscore, is no other code
    assert (function_fingerprint(trivial), function_fingerprint(trivial.claims)) == first
    trivial.method = "subset"  # a setting changed between two runs is
    assert function_fingerprint(trivial) == function_fingerprint(subset) != first[0]


def test_the_registered_code_itself_must_be_the_files_and_unchanged_files_never_refuse(tmp_path, monkeypatch):
    """A second review: a reload could leave the registry holding the old function (a guarded
    registration, or rules registered from another module) while the new file was recorded; and a
    constant set twice, or counted in a function, refused a file nobody had edited."""
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "rc_rules.py").write_text(
        "import sweeplab\nCALLS = 0\nN = 100\nN = 10\n\n"
        "def solve(obs, *, use_total=True, method='trivial'):\n"
        "    global CALLS\n    CALLS += 1\n"
        "    return sweeplab.deduce(obs, method, use_total=use_total).safe, set()\n\n"
        "class Holder:\n    method = 'trivial'\n")
    try:
        import rc_rules

        held = rc_rules.solve
        rc_rules.solve(sweeplab.Observation.from_text("1?\n??", mines=1))  # counts: CALLS is 1 now
        first = function_fingerprint(held)  # N set twice, CALLS counted: an unchanged file passes
        edits = [("method='trivial'", "method='subset'"), ("    method = 'trivial'", "    method = 'x'")]
        for old, new in edits:
            source = (tmp_path / "rc_rules.py").read_text()
            (tmp_path / "rc_rules.py").write_text(source.replace(old, new))
            with pytest.raises(ValueError, match="changed since this process imported it"):
                function_fingerprint(held)  # a default, a class attribute: not the code in memory
            importlib.reload(rc_rules)
        assert function_fingerprint(rc_rules.solve) != first
        with pytest.raises(ValueError, match="the registered solve is not what the file now holds"):
            function_fingerprint(held)  # the module is reloaded, but this is the function from before
    finally:
        sys.modules.pop("rc_rules", None)


def test_a_registered_agent_class_whose_option_default_was_edited_is_refused(tmp_path, monkeypatch):
    """A researcher's review: after editing a dataclass field's default (an option, the method chain) and
    reloading (register_agent then refused the new class without replace=True), the registry held the old
    class, whose functions were still the file's: a sweep played it under the new file's fingerprint, and
    a fresh process resumed it with the new one (130 games of 3,000 differed)."""
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "rc_agent.py").write_text(
        "from dataclasses import dataclass\nfrom sweeplab.agents import Agent\n\n@dataclass(frozen=True)\n"
        "class Corner(Agent):\n    corner_size: int = 2\n    methods: tuple = ('trivial', 'enumerate')\n\n"
        "    class Inner:\n        size = 1\n")
    try:
        import rc_agent

        for old, new, name in [("corner_size: int = 2", "corner_size: int = 3", "Corner.corner_size"),
                               ("('trivial', 'enumerate')", "('trivial',)", "Corner.methods"),
                               ("size = 1", "size = 2", "Corner.Inner.size")]:
            held, inner = rc_agent.Corner, rc_agent.Corner.Inner
            function_fingerprint(held)  # as the file holds it: no refusal
            source = (tmp_path / "rc_agent.py").read_text()
            (tmp_path / "rc_agent.py").write_text(source.replace(old, new))
            importlib.reload(rc_agent)
            stale = inner if "Inner" in name else held
            with pytest.raises(ValueError, match=f"the registered {name} is not what the file now holds"):
                function_fingerprint(stale)
            function_fingerprint(rc_agent.Corner)  # the reloaded class is the file's
    finally:
        sys.modules.pop("rc_agent", None)


def test_an_agent_default_given_by_field_or_a_module_constant_is_checked_too(tmp_path, monkeypatch):
    """The review of the fix above: a default written as field(default=...) or as a module constant is no
    literal of the class body, so an edit to it still let a resume mix two agents (0 then 135 subset claims
    in one point of 40 games)."""
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "rc_field.py").write_text(
        "import dataclasses\nfrom sweeplab.agents import Agent\nFIRST = 'corner'\nDEPTH = 2\n\n"
        "@dataclasses.dataclass(frozen=True, slots=True)\nclass Chained(Agent):\n"
        "    methods: tuple = dataclasses.field(default=('trivial',))\n    first_move: object = FIRST\n"
        "    max_nodes: int = DEPTH + 1\n")
    try:
        import rc_field

        edits = [("default=('trivial',))", "default=('trivial', 'subset'))", False, "methods"),
                 ("default=('trivial', 'subset'))", "default=('trivial', 'rref'))", True, "methods"),
                 ("FIRST = 'corner'", "FIRST = 'centre'", True, "first_move"),
                 ("DEPTH = 2", "DEPTH = 5", True, "max_nodes")]  # arithmetic on a constant; slots=True
        for old, new, reload, field in edits:
            held = rc_field.Chained
            function_fingerprint(held)
            source = (tmp_path / "rc_field.py").read_text()
            (tmp_path / "rc_field.py").write_text(source.replace(old, new))
            if not reload:  # the module in memory is stale: refused as the module's
                with pytest.raises(ValueError, match="Chained.methods differs"):
                    function_fingerprint(held)
            importlib.reload(rc_field)
            with pytest.raises(ValueError, match=f"the registered Chained.{field} is not what the file"):
                function_fingerprint(held)  # the class from before the reload
            function_fingerprint(rc_field.Chained)
    finally:
        sys.modules.pop("rc_field", None)


def test_an_agent_default_read_from_a_helper_module_or_by_a_subscript_is_checked_too(tmp_path, monkeypatch):
    """Noticed in session 50: a default taken from a helper module (``hconf.CHAIN``) stayed old when only
    the helper was edited and reloaded, and one computed by a subscript (``CHAIN[:1]``) was never compared:
    the old class played under the new files' fingerprint."""
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "rc_hconf.py").write_text("CHAIN = ('trivial', 'subset')\nLIMIT = 3\n")
    (tmp_path / "rc_helped.py").write_text(
        "import dataclasses\nimport rc_hconf\nimport rc_hconf as hc\nfrom sweeplab.agents import Agent\n"
        "CHAIN = ('trivial', 'enumerate')\nLIMIT = hc.LIMIT * 2\n\n@dataclasses.dataclass(frozen=True)\n"
        "class Helped(Agent):\n    methods: tuple = rc_hconf.CHAIN\n\n@dataclasses.dataclass(frozen=True)\n"
        "class Sliced(Agent):\n    methods: tuple = CHAIN[:1]\n")
    try:
        import rc_hconf
        import rc_helped

        for held in (rc_helped.Helped, rc_helped.Sliced):
            function_fingerprint(held)  # nothing edited: no refusal
        source = (tmp_path / "rc_hconf.py").read_text()
        (tmp_path / "rc_hconf.py").write_text(source.replace("'subset'", "'rref'"))
        importlib.reload(rc_hconf)  # the helper only: the plugin's class keeps the old chain
        held = rc_helped.Helped
        with pytest.raises(ValueError, match="Helped.methods differs .reload 'rc_helped' after its helpers"):
            function_fingerprint(held)
        importlib.reload(rc_helped)
        with pytest.raises(ValueError, match="the registered Helped.methods is not what the file now holds"):
            function_fingerprint(held)  # the class from before the plugin's reload
        function_fingerprint(rc_helped.Helped)
        (tmp_path / "rc_hconf.py").write_text(source.replace("'subset'", "'rref'").replace("= 3", "= 4"))
        importlib.reload(rc_hconf)
        with pytest.raises(ValueError, match="LIMIT differs .reload 'rc_helped' after its helpers"):
            function_fingerprint(rc_helped.Helped)  # a module constant taken from the helper (as hc)
        importlib.reload(rc_helped)
        held = rc_helped.Sliced
        source = (tmp_path / "rc_helped.py").read_text()
        (tmp_path / "rc_helped.py").write_text(source.replace("('trivial', 'enumerate')", "('subset',)"))
        importlib.reload(rc_helped)
        with pytest.raises(ValueError, match="the registered Sliced.methods is not what the file now holds"):
            function_fingerprint(held)
        function_fingerprint(rc_helped.Sliced)
    finally:
        sys.modules.pop("rc_helped", None)
        sys.modules.pop("rc_hconf", None)


def test_classes_nobody_edited_are_never_refused_as_stale(tmp_path, monkeypatch):
    """The second review of the stale-class check: classes made in a loop (or one name defined twice) were
    refused in a fresh process, and an unedited reload refused defaults of nan, an enum, a dataclass of
    the module or an array factory, with advice (restart) that could not help."""
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "rc_plain.py").write_text(textwrap.dedent("""
        import dataclasses, enum, math
        import numpy as np
        from sweeplab.agents import Agent

        class Mode(enum.Enum):
            A = 1

        @dataclasses.dataclass(frozen=True)
        class Weights:
            w: float = 1.0

        MADE = []
        for _depth in (1, 2, 3):
            @dataclasses.dataclass(frozen=True)
            class Deep(Agent):
                depth: int = _depth
            MADE.append(Deep)

        @dataclasses.dataclass(frozen=True)
        class Twice(Agent):
            knob: int = 1
        FIRST_TWICE = Twice

        @dataclasses.dataclass(frozen=True)
        class Twice(Agent):
            knob: int = 2

        @dataclasses.dataclass(frozen=True)
        class Mixed(Agent):
            depth: int = 1
        FIRST_MIXED = Mixed
        for _depth in (2, 3):
            @dataclasses.dataclass(frozen=True)
            class Mixed(Agent):
                depth: int = _depth

        @dataclasses.dataclass(frozen=True)
        class Odd(Agent):
            threshold: float = math.nan
            mode: Mode = Mode.A
            weights: Weights = Weights()
            prior: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(3))
        """))
    try:
        import rc_plain

        classes = [*rc_plain.MADE, rc_plain.FIRST_TWICE, rc_plain.Twice, rc_plain.FIRST_MIXED, rc_plain.Mixed,
                   rc_plain.Odd]
        for klass in classes:
            function_fingerprint(klass)
        importlib.reload(rc_plain)  # no edit: the classes from before are what the file holds
        for klass in classes:
            function_fingerprint(klass)
    finally:
        sys.modules.pop("rc_plain", None)


def test_enum_and_frozen_dataclass_settings_count_by_value():
    import dataclasses
    import enum
    import functools

    from sweeplab.provenance import function_fingerprint

    class Kind(enum.Enum):
        TRIVIAL = "trivial"
        SUBSET = "subset"

    @dataclasses.dataclass(frozen=True)
    class Settings:
        method: str

    def rule(obs, *, use_total=True, kind=None):
        return set(), set()

    kinds = (Kind.TRIVIAL, Kind.SUBSET, Settings("trivial"), Settings("subset"), Settings("trivial"))
    prints = [function_fingerprint(functools.partial(rule, kind=k)) for k in kinds]
    assert len(set(prints[:4])) == 4 and prints[2] == prints[4]


def test_a_partials_list_dict_set_and_array_arguments_count_by_value():
    """Noticed in session 50: ``partial(rule, methods=[...])`` counted its list by type, so a resume under
    another list pooled the games of two settings."""
    import functools

    from sweeplab.provenance import function_fingerprint

    def rule(obs, *, use_total=True, methods=None):
        return set(), set()

    settings = (["rref", "trivial"], ["trivial", "rref"], ["rref"], {"a": [1, 2]}, {"a": [1, 3]},
                {"rref", "trivial"}, np.array([1, 2]), np.array([1, 3]), np.array([1.0, 2.0]),
                (["rref"], 1), (["trivial"], 1))
    prints = [function_fingerprint(functools.partial(rule, methods=m)) for m in settings]
    assert len(set(prints)) == len(settings)
    again = [["rref", "trivial"], {"a": [1, 2]}, {"trivial", "rref"}, np.array([1, 2])]
    assert [function_fingerprint(functools.partial(rule, methods=m)) for m in again] == [
        prints[0], prints[3], prints[5], prints[6]]
    assert function_fingerprint(functools.partial(rule, ["rref"])) != function_fingerprint(
        functools.partial(rule, ["trivial"]))
    weights = [function_fingerprint(functools.partial(rule, methods=pd.Series(w))) for w in ([1, 2], [3, 4])]
    assert weights[0] != weights[1]  # a review (rev51e): pandas arguments counted by type
    itself: list = ["rref"]
    itself.append(itself)  # a list holding itself: a fingerprint, not a RecursionError
    assert function_fingerprint(functools.partial(rule, methods=itself))


def test_a_computed_constant_edited_under_the_process_refuses(tmp_path, monkeypatch):
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "cc_rules.py").write_text("LIMIT = 2 * 10\nif True:\n    NAME = 'tri' + 'vial'\n\n"
                                          "def rule(obs, *, use_total=True):\n    return set(), set()\n")
    try:
        import cc_rules

        function_fingerprint(cc_rules.rule)  # computed, and as in memory
        for old, new in [("2 * 10", "2 * 20"), ("'vial'", "'via'")]:
            (tmp_path / "cc_rules.py").write_text((tmp_path / "cc_rules.py").read_text().replace(old, new))
            with pytest.raises(ValueError, match=r"is not what this process runs \((LIMIT|NAME) differs"):
                function_fingerprint(cc_rules.rule)
            importlib.reload(cc_rules)
            function_fingerprint(cc_rules.rule)
    finally:
        sys.modules.pop("cc_rules", None)


def test_a_directory_where_a_chunk_belongs_is_named_not_read_or_deleted(tmp_path):
    """An adversarial review: a directory at a chunk's path was read as the table of the files in it, or
    (holding another file) named unreadable, and the resume it advised died deleting it (Errno 21)."""
    out = tmp_path / "s"
    point = {"agent": "trivial", "level": "beginner"}
    run_sweep([point], games=4, seed=3, chunk_size=2, out=out, workers=1, progress=False)
    chunk = out / "chunks" / "p0000-g000000002.parquet"
    inside = chunk.with_suffix(".moved")
    chunk.rename(inside)
    chunk.mkdir()
    inside.rename(chunk / "part.parquet")  # a valid chunk inside: pyarrow read the directory as it
    resume = {"games": 4, "seed": 3, "chunk_size": 2, "out": out, "workers": 1, "progress": False}
    for call in (lambda: load_results(out), lambda: run_sweep([point], **resume)):
        with pytest.raises(ValueError, match="a directory where a chunk file belongs: move it .*then resume"):
            call()
        assert (chunk / "part.parquet").is_file()


def test_a_dask_worker_that_cannot_import_a_plugin_says_so(tmp_path, plugin_module):
    """A review: a worker without the plugin on its path could not unpickle the first task and stopped
    answering, so the sweep waited for ever (also for a worker joining later); a scheduler without it
    gave a raw 48-line traceback.  The task now travels as bytes, read in the worker."""
    distributed = pytest.importorskip("distributed")

    point = {"agent": "chain", "methods": ["resume-plugin", "enumerate"], "level": "beginner"}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # sweeplab is installed; the plugin not
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=":0") as cluster:
        command = [sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address,
                   "--nthreads", "1", "--no-dashboard"]
        worker = subprocess.Popen(command, env=env, cwd="/", stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        try:
            with pytest.raises(ValueError, match=r"the Dask worker tcp://\S+ cannot import the plugin "
                                                 r"'resume_plugin_module' \(ModuleNotFoundError"):
                run_sweep([point], games=2, seed=1, out=tmp_path / "run", scheduler=cluster.scheduler_address,
                          progress=False)  # the worker joins while the tasks wait
        finally:
            worker.terminate()
            worker.wait(timeout=30)
    assert not list((tmp_path / "run" / "chunks").glob("*.parquet"))



TWO_RULES = '''
import sweeplab

def claims_safe(obs, *, use_total=True):
    return sweeplab.deduce(obs, "trivial", use_total=use_total).safe, set()

def claims_nothing(obs, *, use_total=True):
    return set(), set()

def rule_up_to(limit, *, method="trivial"):
    def rule(obs, *, use_total=True):
        return set(sorted(sweeplab.deduce(obs, method, use_total=use_total).safe)[:limit]), set()
    return rule

def calls_itself(limit):
    def rule(obs, *, use_total=True, depth=0):
        return rule(obs, depth=depth + 1) if depth < limit else (set(), set())
    return rule

LAMBDAS = (lambda obs, *, use_total=True: (set(), set()),
           lambda obs, *, use_total=True: (sweeplab.deduce(obs, "trivial").safe, set()))

sweeplab.register_method("swap-rule", claims_safe, sound=True, complete=False, replace=True)
'''


def test_two_functions_of_one_plugin_file_are_two_codes(tmp_path, monkeypatch):
    """A review: a method's fingerprint was its file's, so two functions of one plugin shared it; a Dask
    worker kept the function registered first when the client swapped in the other (20% of the games
    otherwise, no error), and a resume pooled the games of both."""
    distributed = pytest.importorskip("distributed")
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(sweeplab.methods.PLUGINS_ENV, "")
    (tmp_path / "two_rules_plugin.py").write_text(TWO_RULES)
    sweeplab.methods.load_plugins(["two_rules_plugin"])
    module = sys.modules["two_rules_plugin"]
    try:
        assert function_fingerprint(module.claims_safe) != function_fingerprint(module.claims_nothing)
        # what a factory of the file made them with, and which lambda: a review of the fix above
        made = [module.rule_up_to(1), module.rule_up_to(2), module.rule_up_to(1, method="subset"),
                *module.LAMBDAS, module.calls_itself(1), module.calls_itself(2)]  # (no endless recursion)
        assert len({function_fingerprint(f) for f in made}) == len(made)
        assert function_fingerprint(module.rule_up_to(1)) == function_fingerprint(made[0])
        point = {"agent": "chain", "methods": ["swap-rule", "enumerate"], "level": "beginner"}
        out = tmp_path / "run"
        run_sweep([point], games=4, seed=2, chunk_size=2, out=out, workers=1, progress=False)
        sorted((out / "chunks").glob("*.parquet"))[1].unlink()
        sweeplab.register_method("swap-rule", module.claims_nothing, sound=True, complete=False, replace=True)
        with pytest.raises(ValueError, match="swap-rule"):  # the other function's games must not join
            run_sweep([point], games=4, seed=2, chunk_size=2, out=out, workers=1, progress=False)
        with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1,
                                      dashboard_address=":0") as cluster:
            claimed = []
            for rule in (module.claims_safe, module.claims_nothing):  # the worker follows the swap
                sweeplab.register_method("swap-rule", rule, sound=True, complete=False, replace=True)
                here = run_sweep([point], games=3, seed=1, workers=1, progress=False)
                there = run_sweep([point], games=3, seed=1, scheduler=cluster.scheduler_address,
                                  progress=False)
                pd.testing.assert_frame_equal(outcome(here), outcome(there))
                claimed.append(int(there["certain_swap_rule"].sum()))
            assert claimed[0] > 0 and claimed[1] == 0
    finally:
        sys.modules.pop("two_rules_plugin", None)
        sweeplab.unregister_method("swap-rule")


WRAPPED_AND_BOUND = '''
import functools
import sweeplab

def base_claims(obs, *, use_total=True):
    return sweeplab.deduce(obs, "trivial", use_total=use_total).safe, set()

def silence(function):
    @functools.wraps(function)
    def wrapper(obs, *, use_total=True):
        return set(), set()
    return wrapper

def pass_through(function):
    @functools.wraps(function)
    def wrapper(obs, *, use_total=True):
        return function(obs, use_total=use_total)
    return wrapper

silenced = silence(base_claims)
passed = pass_through(base_claims)

class Rule:
    kind = "trivial"

    def helper(self, obs):
        return sweeplab.deduce(obs, self.kind).safe

    def __call__(self, obs, *, use_total=True):
        return self.helper(obs), set()

    @classmethod
    def claims(cls, obs, *, use_total=True):
        return sweeplab.deduce(obs, cls.kind).safe, set()

class Off(Rule):
    kind = "subset"

    def helper(self, obs):
        return set()
'''


def test_decorated_bound_and_class_methods_of_a_plugin_are_told_apart(tmp_path, monkeypatch):
    """A review of the fingerprints: a functools.wraps decorator that changes the answer, a classmethod of a
    subclass with other attributes, and a bound method or callable object of a subclass that overrides a
    helper each had the fingerprint of the other, so a resume pooled the games of both."""
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "wrapped_plugin.py").write_text(WRAPPED_AND_BOUND)
    module = importlib.import_module("wrapped_plugin")
    try:
        pairs = [(module.silenced, module.passed), (module.silenced, module.base_claims),
                 (module.Rule.claims, module.Off.claims), (module.Rule().__call__, module.Off().__call__),
                 (module.Rule(), module.Off())]
        for one, other in pairs:
            assert function_fingerprint(one) != function_fingerprint(other), (one, other)
        assert function_fingerprint(module.Rule()) == function_fingerprint(module.Rule())  # the same code
        again = module.pass_through(module.base_claims)
        assert function_fingerprint(module.passed) == function_fingerprint(again)
    finally:
        sys.modules.pop("wrapped_plugin", None)


def test_a_value_set_in_memory_is_named_as_such_not_only_as_an_edited_file(tmp_path, monkeypatch):
    """A review (rev51b): ``mymod.LIMIT = 1`` in a notebook was refused as "the file changed since this
    process imported it", and the advice (restart, reload) silently undid the user's setting."""
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "mem_rules.py").write_text("LIMIT = 3\n\ndef rule(obs, *, use_total=True):\n"
                                           "    return set(), set()\n")
    try:
        import mem_rules

        function_fingerprint(mem_rules.rule)
        mem_rules.LIMIT = 1
        with pytest.raises(ValueError, match=r"\(LIMIT differs\).*or a value of the module was set in "
                                             r"memory \(mem_rules.NAME = \.\.\.\).*belongs in an agent's or "
                                             r"a method's options"):
            function_fingerprint(mem_rules.rule)
    finally:
        sys.modules.pop("mem_rules", None)


def test_a_notebook_agents_helpers_and_constants_and_cached_or_partial_helpers_count(clean_registry):
    """A researcher's review (rev51f): a notebook agent was fingerprinted by its own methods' code only (a
    helper its guess calls, or a constant it reads, edited and re-registered: a resume mixed two agents),
    and a notebook method's helper made by functools.cache or partial counted by its type only."""
    from sweeplab.provenance import function_fingerprint

    source = textwrap.dedent("""
        import dataclasses, functools
        from sweeplab.agents import Agent
        WIDTH = WIDTH_VALUE

        def edge(shape):
            return SIDE_VALUE

        @functools.cache
        def depth(n):
            return 0 if n == 0 else depth(n - 1) + CACHED_VALUE

        rule_name = functools.partial(str, PARTIAL_VALUE)

        @dataclasses.dataclass(frozen=True)
        class EdgeFirst(Agent):
            def guess(self, obs, rng):
                assert isinstance(self, EdgeFirst)
                return super().guess(obs, rng) if edge(obs.shape) else WIDTH

        def method(obs, *, use_total=True):
            return set(), {(0, depth(2))} if rule_name() else set()
    """)

    def fingerprints(**values):
        values = {"WIDTH_VALUE": 1, "SIDE_VALUE": "'edge'", "CACHED_VALUE": 1, "PARTIAL_VALUE": "'trivial'",
                  **values}
        text = source
        for key, value in values.items():
            text = text.replace(key, str(value))
        namespace = {"__name__": "__main__"}
        exec(text, namespace)
        return function_fingerprint(namespace["EdgeFirst"]), function_fingerprint(namespace["method"])

    agent, method = fingerprints()
    assert fingerprints() == (agent, method)  # the same code: the same fingerprints (no recursion either)
    assert fingerprints(WIDTH_VALUE=3)[0] != agent  # a constant the agent reads
    assert fingerprints(SIDE_VALUE="'centre'")[0] != agent  # a helper its guess calls
    assert fingerprints(CACHED_VALUE=2)[1] != method  # a functools.cache helper
    assert fingerprints(PARTIAL_VALUE="'subset'")[1] != method  # a helper made by partial


def test_a_helper_in_a_folder_without_init_is_the_plugins_own(tmp_path, monkeypatch):
    """A researcher's review (rev51f): ``from lib import rules`` with no lib/__init__.py (a namespace
    package) was never hashed, so a resume after editing lib/rules.py mixed two versions."""
    from sweeplab._source_files import helper_modules
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "nslib").mkdir()
    (tmp_path / "nslib" / "rules.py").write_text("BASE = 'trivial'\n")
    (tmp_path / "ns_plugin.py").write_text("from nslib import rules\n\ndef rule(obs, *, use_total=True):\n"
                                           "    return set(), set() if rules.BASE else set()\n")
    try:
        import ns_plugin

        assert [name for name, _ in helper_modules("ns_plugin")] == ["nslib.rules"]
        before = function_fingerprint(ns_plugin.rule)
        (tmp_path / "nslib" / "rules.py").write_text("BASE = 'subset'\n")
        for name in ("ns_plugin", "nslib.rules", "nslib"):
            sys.modules.pop(name, None)
        import ns_plugin as fresh  # as a new process would import it

        assert function_fingerprint(fresh.rule) != before
    finally:
        for name in ("ns_plugin", "nslib.rules", "nslib"):
            sys.modules.pop(name, None)


def test_an_installed_plugin_packages_own_submodules_are_its_helpers(tmp_path, monkeypatch):
    """A researcher's review (rev51f): a plugin installed as a package (pip install .) was hashed by its top
    module only; an edit to a submodule it calls, reinstalled, let a resume mix two versions."""
    from sweeplab import _source_files
    from sweeplab._source_files import helper_modules

    site = tmp_path / "site-packages"
    (site / "instplug").mkdir(parents=True)
    (site / "instplug" / "__init__.py").write_text("import sweeplab\nfrom . import rules\n")
    (site / "otherlib").mkdir()  # an installed library, not a plugin (it imports no sweeplab): by version
    (site / "otherlib" / "__init__.py").write_text("")
    (site / "otherlib" / "a.py").write_text("from . import b\n")
    (site / "otherlib" / "b.py").write_text("X = 1\n")
    (site / "instplug" / "rules.py").write_text("from . import core\n\ndef rule(obs, *, use_total=True):\n"
                                                "    return core.step(obs)\n")
    (site / "instplug" / "core.py").write_text("import json\n\ndef step(obs):\n    return set(), set()\n")
    monkeypatch.syspath_prepend(str(site))
    roots = _source_files._outside_roots()
    monkeypatch.setattr(_source_files, "_outside_roots", lambda: (*roots, site.resolve()))  # installed
    try:
        import instplug  # noqa: F401

        assert [name for name, _ in helper_modules("instplug.rules")] == ["instplug", "instplug.core"]
        assert not [name for name, _ in helper_modules("sweeplab.example_plugin")]  # sweeplab's own: none
        import otherlib.a  # noqa: F401

        assert not helper_modules("otherlib.a")  # a rev51g review: pandas' 280 files were walked
    finally:
        for name in ("instplug", "instplug.rules", "instplug.core", "otherlib", "otherlib.a", "otherlib.b"):
            sys.modules.pop(name, None)


def test_notebook_agents_are_not_refused_for_attribute_names_counters_or_installed_bases():
    """A review of today's fingerprint changes (rev51g): attribute names (obs.shape) were read as notebook
    globals (a global `shape` changed the agent's fingerprint: refused on Dask and on an in-kernel
    resume), a counter the agent assigns counted by value, a helper class based on pandas' DataFrame had
    pandas' files checked (refused every time), and a partial holding a DataFrame of lists crashed."""
    import functools

    from sweeplab.provenance import function_fingerprint

    namespace: dict = {"__name__": "__main__"}
    exec(textwrap.dedent("""
        import dataclasses
        import pandas as pd
        from sweeplab.agents import Agent
        guesses = 0

        class Log(pd.DataFrame):
            pass

        @dataclasses.dataclass(frozen=True)
        class EdgeFirst(Agent):
            def guess(self, obs, rng):
                global guesses
                guesses += 1
                Log()
                return super().guess(obs, rng) if obs.shape[0] else None
    """), namespace)
    agent = namespace["EdgeFirst"]
    before = function_fingerprint(agent)
    namespace["shape"] = (16, 30)  # a later cell's global of the same name as an attribute
    namespace["guesses"] = 7  # as after seven guesses
    assert function_fingerprint(agent) == before

    def rule(obs, *, table, use_total=True):
        return set(), set()

    tables = [pd.DataFrame({"cells": [[(0, 0), (0, 1)], [(0, 0)]]}), pd.DataFrame({"cells": [[(0, 0)], []]})]
    prints = [function_fingerprint(functools.partial(rule, table=t)) for t in tables]
    assert prints[0] != prints[1]


def test_a_plugin_with_a_set_literal_is_not_refused_under_any_hash_seed(tmp_path):
    """A review (rev51g): the code check hashed a set literal by its repr, whose order follows the string
    hashes: an untouched plugin loaded before sweeplab was refused under some PYTHONHASHSEED values."""
    (tmp_path / "setplug.py").write_text(
        "def kinds_rule(obs, *, use_total=True):\n"
        "    label = 'edge'\n"
        "    return set(), set() if label in {'edge', 'corner', 'border', 'centre', 'inner'} else set()\n")
    script = ("import setplug, sweeplab\nfrom sweeplab.provenance import function_fingerprint\n"
              "print(function_fingerprint(setplug.kinds_rule))\n")
    prints = set()
    for seed in (17, 18, 20, 0):
        env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONDONTWRITEBYTECODE": "1",
               "PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path(sweeplab.__file__).parents[1])])}
        run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stderr[-1500:]
        prints.add(run.stdout.strip())
    assert len(prints) == 1


def test_a_notebook_agents_helpers_held_in_tables_objects_or_class_body_wrappers_count():
    """A review (rev51g): helpers reached through a tuple or a read-only mapping of functions, a helper
    object or its bound method, and a class body's partial, cached_property or lru_cache method counted by
    type only: edited, a resume mixed two versions of the agent."""
    from sweeplab.provenance import function_fingerprint

    source = textwrap.dedent("""
        import dataclasses, functools
        from types import MappingProxyType
        from sweeplab.agents import Agent

        def rule_a(obs):
            return RULE_A

        class Scorer:
            def __init__(self, weight):
                self.weight = weight
            def rate(self, obs):
                return self.weight * RATE

        def choose(cells, k):
            return CHOOSE

        CHAIN = (rule_a, len)
        RULES = MappingProxyType({"a": rule_a})
        scorer = Scorer(WEIGHT)
        rate = scorer.rate

        @dataclasses.dataclass(frozen=True)
        class Picky(Agent):
            pick = functools.partial(choose, k=PARTIAL)

            @functools.cached_property
            def side(self):
                return CACHED

            @functools.lru_cache
            def depth(self, n):
                return n * LRU

            def guess(self, obs, rng):
                return CHAIN[0](obs), RULES["a"](obs), scorer, rate(obs), self.side, self.depth(1)
    """)
    values = {"RULE_A": "1", "RATE": "1", "CHOOSE": "cells[k]", "WEIGHT": "2", "PARTIAL": "0",
              "CACHED": "'rows'", "LRU": "2"}

    def fingerprint(**edits):
        text = source
        for key, value in {**values, **edits}.items():
            text = text.replace(key, value)
        namespace = {"__name__": "__main__"}
        exec(text, namespace)
        return function_fingerprint(namespace["Picky"])

    same = fingerprint()
    assert fingerprint() == same
    for key, edited in [("RULE_A", "2"), ("RATE", "3"), ("WEIGHT", "3"), ("CHOOSE", "cells[-1]"),
                        ("PARTIAL", "1"), ("CACHED", "'cols'"), ("LRU", "0")]:
        assert fingerprint(**{key: edited}) != same, key


def test_a_method_called_by_name_inside_another_counts_in_the_fingerprints(tmp_path, monkeypatch):
    """An adversarial review: a method that calls deduce(obs, "inner") was fingerprinted without the inner
    method, so a resume after the inner one changed pooled the games of two versions."""
    from sweeplab.provenance import method_fingerprints

    inner = _main_function("return sweeplab.deduce(obs, 'trivial', use_total=use_total).safe, set()")
    namespace = {"__name__": "__main__", "sweeplab": sweeplab}
    exec("def helper(obs):\n    return sweeplab.deduce(obs, 'test-fp-inner').safe\n"
         "def outer(obs, *, use_total=True):\n    return helper(obs), set()\n", namespace)
    sweeplab.register_method("test-fp-inner", inner, sound=True, complete=False)
    sweeplab.register_method("test-fp-outer", namespace["outer"], sound=True, complete=False)
    try:
        before = method_fingerprints([{"agent": "chain", "methods": ["test-fp-outer"]}])
        assert sorted(before) == ["test-fp-inner", "test-fp-outer"]  # through the helper it calls
        sweeplab.register_method("test-fp-inner", _main_function("return set(), set()"), sound=True,
                                 complete=False, replace=True)
        after = method_fingerprints([{"agent": "chain", "methods": ["test-fp-outer"]}])
        assert after["test-fp-inner"] != before["test-fp-inner"]
    finally:
        sweeplab.unregister_method("test-fp-outer")
        sweeplab.unregister_method("test-fp-inner")


@pytest.mark.parametrize(("one", "two"), [
    (np.int64(1), np.int64(0)), (np.float32(0.5), np.float32(0.25)), (np.bool_(True), np.bool_(False)),
    ((np.int64(1),), (np.int64(2),))])
def test_a_numpy_number_a_method_reads_counts_by_value(one, two):
    """An adversarial review: ENABLED = np.int64(1), then 0, gave one fingerprint (numpy scalars counted by
    type), and the resume pooled the games of both settings."""
    from sweeplab.provenance import function_fingerprint

    def method_reading(value):
        namespace = {"__name__": "__main__", "SETTING": value}
        exec("def method(obs, *, use_total=True):\n"
             "    return (set(), set()) if SETTING else ({(0, 0)}, set())\n", namespace)
        return namespace["method"]

    assert function_fingerprint(method_reading(one)) != function_fingerprint(method_reading(two))
    assert function_fingerprint(method_reading(one)) == function_fingerprint(method_reading(one))


def test_a_closure_variable_a_method_assigns_is_state_counted_by_type():
    """A method with a nonlocal counter changed its own fingerprint as it played: the same sweep, run again in
    the same process, was refused as "started by other code".  A closure constant still counts by value."""
    from sweeplab.provenance import function_fingerprint

    def make(threshold):
        calls = 0

        def method(obs, *, use_total=True):
            nonlocal calls
            calls += 1
            return (set(), set()) if calls > threshold else ({(0, 0)}, set())
        return method

    counting = make(3)
    before = function_fingerprint(counting)
    counting(None)
    assert function_fingerprint(counting) == before

    def lazy():
        table = None

        def method(obs, *, use_total=True):
            nonlocal table
            table = table if table is not None else {}  # filled on first use: None, then a dict
            return set(), set()
        return method

    filled = lazy()
    first = function_fingerprint(filled)
    filled(None)
    assert function_fingerprint(filled) == first

    def shadowing(threshold):  # a nested helper's own variable of the name: the method's still a constant
        def method(obs, *, use_total=True):
            def helper():
                threshold = 0

                def inner():
                    nonlocal threshold
                    threshold += 1
                return inner
            return (set(), set()) if threshold else (helper(), set())
        return method

    assert function_fingerprint(shadowing(1)) != function_fingerprint(shadowing(2))
    assert function_fingerprint(make(4)) != before  # the constant it reads, by value


def test_a_plugin_packages_helper_imported_by_a_relative_name_counts(tmp_path, monkeypatch):
    """A review of today's change: importlib.import_module(".helper", __package__) was not resolved, so
    an edit of the helper did not change the fingerprint before the method's first call, and did after."""
    from sweeplab.provenance import function_fingerprint

    monkeypatch.syspath_prepend(str(tmp_path))
    package = tmp_path / "relative_plugin_53"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import importlib\n\n\ndef method(obs, *, use_total=True):\n"
        "    return importlib.import_module('.helper', __package__).rule(obs)\n")
    (package / "helper.py").write_text("def rule(obs):\n    return set(), set()\n")
    module = importlib.import_module("relative_plugin_53")
    try:
        before = function_fingerprint(module.method)
        module.method(None)  # imports the helper
        assert function_fingerprint(module.method) == before
        sys.modules.pop("relative_plugin_53.helper")  # as a fresh process, which has not imported it yet
        (package / "helper.py").write_text("def rule(obs):\n    return {(0, 0)}, set()\n")
        assert function_fingerprint(module.method) != before
    finally:
        for name in ("relative_plugin_53", "relative_plugin_53.helper"):
            sys.modules.pop(name, None)
