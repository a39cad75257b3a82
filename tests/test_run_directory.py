"""The on-disk format of resumable runs (sweeplab.run_directory), pinned: directories written before the
sweep and run_games code shared it must still resume, so its names and keys are spelled out here."""

import json
import logging
import os
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sweeplab.reach import run_games
from sweeplab.sweeps import run_sweep

REACH = {"method": "trivial", "level": "beginner"}
SWEEP = {"agent": "trivial", "level": "beginner"}


def run(kind, out):
    if kind == "sweep":
        return run_sweep([SWEEP], games=4, seed=3, chunk_size=2, out=out, workers=1, progress=False)
    return run_games("reach", [REACH], games=4, seed=3, chunk_size=2, out=out)


@pytest.mark.parametrize(("kind", "key", "extra", "params"), [
    ("sweep", b"sweeplab.chunk", {}, SWEEP),
    ("reach", b"sweeplab.games_chunk", {"kind": "reach"}, REACH),
])
def test_the_format_is_unchanged_and_a_finished_run_resumes_without_replaying(tmp_path, caplog, kind, key,
                                                                               extra, params):
    run(kind, tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert list(manifest) == [*extra, "points", "games", "seed", "chunk_size", "version", "git_commit",
                              "git_dirty", "code", "environment", "methods", "chunk_fingerprints",
                              "chunk_digests", "created"]
    chunk = tmp_path / "chunks" / "p0000-g000000002.parquet"
    identity = json.loads(pq.read_schema(chunk).metadata[key])
    assert identity == {**extra, "point": 0, "params": params, "start": 2, "games": 2, "seed": 3,
                        "code": manifest["code"], "methods": {}, "environment": manifest["environment"],
                        "rows_digest": True}
    assert list(identity) == [*extra, "point", "params", "start", "games", "seed", "code", "methods",
                              "environment", "rows_digest"]
    assert len(pq.read_schema(chunk).metadata[key + b".rows"]) == 64  # SHA-256, hex
    # a chunk written before chunks carried the code's fingerprints still resumes under a manifest
    # written before then too (on its word)
    table = pq.read_table(chunk)
    legacy = {k: v for k, v in identity.items() if k not in ("code", "methods", "environment", "rows_digest")}
    pq.write_table(table.replace_schema_metadata({**table.schema.metadata, key: json.dumps(legacy).encode()}),
                   chunk)
    # git_dirty is recorded since 2026-11-28, chunk digests since 2026-11-29
    del manifest["chunk_fingerprints"], manifest["git_dirty"], manifest["chunk_digests"]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    files = {p: p.stat().st_mtime_ns for p in (tmp_path / "chunks").glob("*.parquet")}
    with caplog.at_level(logging.WARNING):
        run(kind, tmp_path)
    assert not caplog.records
    assert {p: p.stat().st_mtime_ns for p in files} == files


def test_a_run_games_chunk_whose_rows_belong_to_another_seed_is_recomputed(tmp_path, caplog):
    expected = run("reach", tmp_path)
    chunk = tmp_path / "chunks" / "p0000-g000000000.parquet"
    table = pq.read_table(chunk)
    seeds = pa.array([9] * len(table), type=table.schema.field("seed").type)
    pq.write_table(table.set_column(table.schema.get_field_index("seed"), "seed", seeds), chunk)
    assert b"sweeplab.games_chunk" in pq.read_schema(chunk).metadata  # its identity is still right
    with caplog.at_level(logging.WARNING, logger="sweeplab.reach"):
        resumed = run("reach", tmp_path)
    assert any(str(chunk) in r.getMessage() and "recomputing" in r.getMessage() for r in caplog.records)
    assert resumed.drop(columns="seconds").equals(expected.drop(columns="seconds"))


def test_a_run_games_chunk_with_a_column_renamed_is_recomputed(tmp_path, caplog):
    """The audit's case: a column name corrupted in a chunk's footer was read back, and the results
    lost that measure (sweep chunks had their columns checked; run_games chunks had not)."""
    expected = run("reach", tmp_path)
    chunk = tmp_path / "chunks" / "p0000-g000000000.parquet"
    table = pq.read_table(chunk)
    renamed = table.rename_columns([("wom" if n == "won" else n) for n in table.column_names])
    pq.write_table(renamed.replace_schema_metadata(table.schema.metadata), chunk)  # its identity kept
    with caplog.at_level(logging.WARNING, logger="sweeplab.reach"):
        resumed = run("reach", tmp_path)
    assert any(str(chunk) in r.getMessage() and "columns are not those of a reach run" in r.getMessage()
               for r in caplog.records)
    assert resumed.drop(columns="seconds").equals(expected.drop(columns="seconds"))


def test_a_commit_is_recorded_only_for_the_checkout_whose_top_holds_sweeplab(tmp_path):
    """An installed sweeplab in ``project/.venv`` must not record the project's commit as its own."""
    import subprocess

    from sweeplab.provenance import checkout_commit

    def git(*args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, check=True,
                       capture_output=True)

    git("init", "-q")
    (tmp_path / "a.txt").write_text("a")
    git("add", "a.txt")
    git("commit", "-qm", "a")
    inside = tmp_path / ".venv" / "lib" / "site-packages"
    inside.mkdir(parents=True)
    commit, dirty = checkout_commit(tmp_path)
    assert commit is not None and len(commit) == 40 and dirty is False
    assert checkout_commit(inside) == (None, None)
    (tmp_path / "a.txt").write_text("b")
    assert checkout_commit(tmp_path) == (commit, True)
    assert checkout_commit(tmp_path.parent / "no-such-folder") == (None, None)


def test_a_run_in_a_directory_of_the_other_kind_is_one_line_naming_both_kinds(tmp_path):
    from sweeplab.sweeps import load_results

    run("reach", tmp_path / "reach")
    run("sweep", tmp_path / "sweep")
    held = (r"holds a run of run_games \(kind 'reach': run_games with its arguments reads it back\), "
            r"not a sweep")
    for attempt in (lambda: run("sweep", tmp_path / "reach"), lambda: load_results(tmp_path / "reach")):
        with pytest.raises(ValueError, match=held):
            attempt()
    with pytest.raises(ValueError, match=r"holds a sweep \(sweeplab.load_results reads it\), not a run of "
                                         r"run_games"):
        run("reach", tmp_path / "sweep")


@pytest.mark.parametrize("key", ["environment", "methods"])
@pytest.mark.parametrize("value", [["numpy"], "numpy 2", {"numpy": 2}])
def test_a_manifest_with_malformed_fingerprints_is_one_line_naming_it(tmp_path, key, value):
    run("sweep", tmp_path)
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), key: value}))
    with pytest.raises(ValueError, match=f"manifest.json: sweep manifest has a malformed '{key}'"):
        run("sweep", tmp_path)


@pytest.mark.parametrize("kind", ["sweep", "reach"])
def test_a_damaged_manifest_says_to_delete_it_alone_and_that_rerun_keeps_every_chunk(tmp_path, kind):
    """A review (rev51b): a truncated manifest said "delete the directory", hours of finished games, where
    deleting the manifest alone and running the same command again keeps every chunk."""
    first = run(kind, tmp_path)
    path = tmp_path / "manifest.json"
    path.write_text(path.read_text()[:100])
    with pytest.raises(ValueError, match=r"delete that file \(not the folder\) and run the command that made "
                                         r"the run again: its finished chunks are checked and kept"):
        run(kind, tmp_path)
    path.unlink()
    def chunks():
        return {p: p.stat().st_mtime_ns for p in (tmp_path / "chunks").iterdir()}

    kept = chunks()
    again = run(kind, tmp_path)
    assert again.equals(first) and chunks() == kept  # none played again


def test_a_manifest_without_points_is_refused_not_read_as_no_results(tmp_path):
    from sweeplab.sweeps import load_results

    run("sweep", tmp_path)
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "points": []}))
    for attempt in (lambda: run("sweep", tmp_path), lambda: load_results(tmp_path)):
        with pytest.raises(ValueError, match="manifest has malformed points"):
            attempt()


def test_a_chunk_with_a_flipped_bit_in_its_rows_is_refused_never_read_otherwise(tmp_path):
    from sweeplab.run_directory import Chunk, chunk_identity, read_chunk
    from sweeplab.sweeps import SWEEP as FORMAT

    run("sweep", tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    chunk = tmp_path / "chunks" / "p0000-g000000002.parquet"
    identity = chunk_identity(Chunk(0, 2, 2), SWEEP, 3, manifest)
    expected = read_chunk(chunk, FORMAT, identity)
    data = chunk.read_bytes()
    for offset in range(4, min(len(data) // 2, 6000), 3):  # the column pages (the footer comes last)
        chunk.write_bytes(data[:offset] + bytes([data[offset] ^ 1]) + data[offset + 1:])
        try:
            rows = read_chunk(chunk, FORMAT, identity)
        except ValueError:
            continue
        assert rows.equals(expected), offset


@pytest.mark.parametrize("kind", ["sweep", "reach"])
def test_rows_edited_with_the_identity_kept_are_recomputed_or_refused(tmp_path, caplog, kind):
    """Values changed in place (the identity and page checksums rewritten as they were, as a script that
    edits a chunk with pyarrow keeps them) were read as the run's games: the digest of the rows tells."""
    from sweeplab.sweeps import load_results

    expected = run(kind, tmp_path)
    chunk = tmp_path / "chunks" / "p0000-g000000000.parquet"
    original = pq.read_table(chunk)
    flipped = pa.array([not won for won in original.column("won").to_pylist()])
    edited = original.set_column(original.schema.get_field_index("won"), "won", flipped)
    pq.write_table(edited.replace_schema_metadata(original.schema.metadata), chunk, write_page_checksum=True)
    if kind == "sweep":
        with pytest.raises(ValueError, match="not those the run wrote"):
            load_results(tmp_path)
    with caplog.at_level(logging.WARNING):
        resumed = run(kind, tmp_path)
    assert any(str(chunk) in r.getMessage() and "digest differs" in r.getMessage() for r in caplog.records)
    timing = [c for c in expected.columns if c.startswith("seconds")]
    assert resumed.drop(columns=timing).equals(expected.drop(columns=timing))
    # the digest taken away with the edit: the identity still says there was one
    pq.write_table(edited.replace_schema_metadata({k: v for k, v in original.schema.metadata.items()
                                                   if not k.endswith(b".rows")}), chunk)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        run(kind, tmp_path)
    assert any(str(chunk) in r.getMessage() and "digest differs" in r.getMessage() for r in caplog.records)


def test_chunks_without_digests_resume_under_a_manifest_from_before_digests(tmp_path, caplog):
    run("sweep", tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    del manifest["chunk_digests"]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    for chunk in (tmp_path / "chunks").glob("*.parquet"):
        table = pq.read_table(chunk)
        metadata = {k: v for k, v in table.schema.metadata.items() if not k.endswith(b".rows")}
        identity = json.loads(metadata[b"sweeplab.chunk"])
        del identity["rows_digest"]
        metadata[b"sweeplab.chunk"] = json.dumps(identity).encode()
        pq.write_table(table.replace_schema_metadata(metadata), chunk)
    files = {p: p.stat().st_mtime_ns for p in (tmp_path / "chunks").glob("*.parquet")}
    with caplog.at_level(logging.WARNING):
        assert len(run("sweep", tmp_path)) == 4
    assert not caplog.records
    assert {p: p.stat().st_mtime_ns for p in files} == files


def test_a_chunk_with_corrupt_pandas_metadata_is_recomputed(tmp_path, caplog):
    expected = run("sweep", tmp_path)
    chunk = tmp_path / "chunks" / "p0000-g000000000.parquet"
    table = pq.read_table(chunk)
    pandas = json.loads(table.schema.metadata[b"pandas"])
    for column in pandas["columns"]:
        del column["pandas_type"]
    pq.write_table(table.replace_schema_metadata({**table.schema.metadata,
                                                  b"pandas": json.dumps(pandas).encode()}), chunk)
    with caplog.at_level(logging.WARNING, logger="sweeplab.sweeps"):
        resumed = run("sweep", tmp_path)
    assert any(str(chunk) in r.getMessage() and "recomputing" in r.getMessage() for r in caplog.records)
    timing = [c for c in expected.columns if c.startswith("seconds")]
    assert resumed.drop(columns=timing).equals(expected.drop(columns=timing))


@pytest.mark.parametrize("kind", ["sweep", "reach"])
def test_a_directory_no_run_wrote_is_refused_and_left_untouched(tmp_path, kind):
    """Files that no run writes and no manifest: a user's directory, never taken over or cleaned."""
    out = tmp_path / "mine"
    (out / "chunks").mkdir(parents=True)
    files = {out / "notes.txt": "keep", out / "chunks" / ".draft.tmp": "also kept"}
    for path, text in files.items():
        path.write_text(text)
    with pytest.raises(ValueError, match=r"holds notes\.txt: not a directory a .* nothing in it is touched"):
        run(kind, out)
    assert {p: p.read_text() for p in files} == files
    assert sorted(p.name for p in out.rglob("*")) == [".draft.tmp", "chunks", "notes.txt"]
    # another program's manifest.json: refused before anything is created
    (out / "notes.txt").unlink()
    (out / "manifest.json").write_text('{"preset": "quick", "experiments": []}')  # a report's
    with pytest.raises(ValueError, match=r"holds manifest\.json \(not a run's\)"):
        run(kind, out)
    assert sorted(p.name for p in out.rglob("*")) == [".draft.tmp", "chunks", "manifest.json"]
    # a folder Finder or Jupyter made: its hidden entries are no run's and never touched
    fresh = tmp_path / "fresh"
    (fresh / ".ipynb_checkpoints").mkdir(parents=True)
    (fresh / ".DS_Store").write_text("")
    assert len(run(kind, fresh)) == 4 and (fresh / ".DS_Store").exists()
    # a file named like the chunk folder
    (tmp_path / "clash").mkdir()
    (tmp_path / "clash" / "chunks").write_text("")
    with pytest.raises(ValueError, match=r"chunks' is a file; a .* keeps its chunks in a folder"):
        run(kind, tmp_path / "clash")
    # what a run leaves (lock, chunks, temporary files) is resumed, even with its manifest deleted
    run(kind, tmp_path / "run")
    (tmp_path / "run" / "manifest.json").unlink()
    (tmp_path / "run" / "chunks" / ".left-by-a-killed-run.tmp").write_text("")
    assert len(run(kind, tmp_path / "run")) == 4


@pytest.mark.parametrize("kind", ["sweep", "reach"])
def test_an_empty_output_name_is_refused_not_read_as_the_current_directory(tmp_path, kind, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=r"out=.. names no directory; give a path"):
        run(kind, "")
    assert not list(tmp_path.iterdir())


def test_seeds_of_2_to_the_64_or_more_are_refused_with_or_without_a_directory(tmp_path):
    with pytest.raises(ValueError, match=r"seed must be below 2\*\*64, got 18446744073709551616"):
        run_sweep([SWEEP], games=2, seed=2**64, out=tmp_path, workers=1, progress=False)
    with pytest.raises(ValueError, match=r"seed must be below 2\*\*64"):
        run_sweep([SWEEP], games=2, seed=2**64, workers=1, progress=False)
    assert len(run_sweep([SWEEP], games=2, seed=2**64 - 1, out=tmp_path, workers=1, progress=False)) == 2


def test_atomic_write_removes_what_killed_writers_of_this_host_left_and_nothing_else(tmp_path):
    """A review (rev51b): a corpus, bench or report killed while writing left its hidden .tmp file for good
    (a sweep removes its own on the next start)."""
    import socket
    import subprocess
    import sys

    from sweeplab.run_directory import atomic_write

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    host = socket.gethostname()
    names = {"killed": f".c.jsonl.gz.{host}-{dead}.0123456789ab.tmp",
             "running": f".c.jsonl.gz.{host}-{os.getpid()}.0123456789ab.tmp",
             "elsewhere": f".c.jsonl.gz.other-host-{dead}.0123456789ab.tmp",
             "another file's": f".d.jsonl.gz.{host}-{dead}.0123456789ab.tmp"}
    old = time.time() - 3600
    for name in names.values():
        (tmp_path / name).write_text("partial")
        os.utime(tmp_path / name, (old, old))
    names["recent"] = f".c.jsonl.gz.{host}-{dead}.abcdef012345.tmp"  # maybe a writer this pid cannot see
    (tmp_path / names["recent"]).write_text("partial")
    atomic_write(tmp_path / "c.jsonl.gz", lambda tmp: tmp.write_text("whole"))
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {"c.jsonl.gz", *(names[k] for k in ("running", "elsewhere", "another file's", "recent"))}
