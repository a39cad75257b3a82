"""The position corpus: determinism, file format, and truth labels checked by an independent oracle."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import numpy as np
import pytest
from oracle import forced

from sweeplab.cli import main
from sweeplab.corpus import (
    CorpusPosition,
    Slice,
    corpus_hash,
    generate_corpus,
    label,
    load_corpus,
    midgame_positions,
    save_corpus,
)
from sweeplab.positions import COVERED, InconsistentPositionError, Observation

COMMITTED = Path(__file__).resolve().parent.parent / "data" / "corpus" / "corpus-small.jsonl.gz"
TINY = [Slice("beginner", level="beginner", games=1, per_game=2),
        Slice("dense", shape=(12, 12), densities=(0.2,), games=1, per_game=1)]


@pytest.fixture(scope="module")
def tiny():
    return generate_corpus(seed=7, slices=TINY, examples=False)


def test_same_seed_same_corpus(tiny):
    again = generate_corpus(seed=7, slices=TINY, examples=False)
    assert [p.to_dict() for p in again] == [p.to_dict() for p in tiny]
    other = generate_corpus(seed=8, slices=TINY, examples=False)
    assert [p.to_dict() for p in other] != [p.to_dict() for p in tiny]


def test_positions_are_mid_game_and_well_formed(tiny):
    assert len(tiny) >= 4
    assert len({p.id for p in tiny}) == len(tiny)
    for p in tiny:
        assert p.seed == 7 and p.game_seed is not None and p.move is not None
        assert (p.obs.grid == COVERED).any() and (p.obs.grid >= 0).any()
        assert p.obs.mines is not None
        # truths are disjoint, within covered cells, and the total only adds information
        covered = {tuple(map(int, rc)) for rc in np.argwhere(p.obs.grid == COVERED)}
        assert not p.truth_safe & p.truth_mines
        assert p.truth_safe | p.truth_mines <= covered
        assert p.truth_safe_nototal <= p.truth_safe and p.truth_mines_nototal <= p.truth_mines


def test_truth_labels_match_the_sat_oracle(tiny):
    for p in tiny:
        for use_total in (True, False):
            safe, mines = forced(p.obs, use_total=use_total)
            assert p.truth(use_total=use_total) == (frozenset(safe), frozenset(mines)), (p.id, use_total)


@pytest.mark.parametrize("name", ["c.jsonl", "c.jsonl.gz"])
def test_save_load_round_trip(tiny, tmp_path, name):
    path = save_corpus(tiny, tmp_path / name)
    back = load_corpus(path)
    assert back == tiny
    assert load_corpus(path, slices=["dense"]) == [p for p in tiny if p.slice == "dense"]
    assert len(corpus_hash(path)) == 64
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt") as fh:
        first = json.loads(fh.readline())
    assert first["format"] == "sweeplab.position" and set(first["truth"]) == {"method", "with_total",
                                                                                "without_total"}


def test_bad_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_corpus(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    with pytest.raises(ValueError, match="not JSON"):
        load_corpus(bad)
    line = {"format": "sweeplab.position", "version": 1, "rows": ["?1"], "mines": 1}
    bad.write_text(json.dumps(line) + "\n")
    with pytest.raises(ValueError, match="lacks the key"):
        load_corpus(bad)
    with pytest.raises(ValueError, match="unknown preset"):
        generate_corpus(seed=1, preset="nope")


def test_label_refuses_inconsistent_positions():
    with pytest.raises(InconsistentPositionError):
        label(Observation.from_text("?3?\n.2."), id="x", slice="x", source="example")


def test_midgame_positions_reveal_the_requested_share():
    obs = midgame_positions(shape=(40, 40), density=0.15, n=2, reveal=0.5, seed=3)
    assert len(obs) == 2 and obs[0] != obs[1]
    for o in obs:
        revealed = np.count_nonzero(o.grid >= 0)
        assert 0.5 * (1600 - o.mines) <= revealed < 0.75 * (1600 - o.mines)
        forced(o, use_total=False)  # consistent


def test_committed_corpus():
    assert COMMITTED.exists() and COMMITTED.stat().st_size < 5e6
    corpus = load_corpus(COMMITTED)
    slices = {p.slice for p in corpus}
    assert {"beginner", "intermediate", "expert", "dense30", "large100", "examples"} <= slices
    assert len({p.source for p in corpus if p.slice == "expert"}) >= 3
    small = [p for p in corpus if p.obs.grid.size <= 480]
    rng = np.random.default_rng(0)
    for i in rng.choice(len(small), size=8, replace=False):
        p: CorpusPosition = small[int(i)]
        assert p.truth(use_total=True) == tuple(map(frozenset, forced(p.obs, use_total=True))), p.id


def test_cli_corpus(tmp_path, capsys):
    out = tmp_path / "c.jsonl"
    assert main(["corpus", "--seed", "3", "--out", str(out), "--preset", "tiny", "--slices", "beginner",
                 "--no-examples", "--no-progress"]) == 0
    corpus = load_corpus(out)
    assert corpus and {p.slice for p in corpus} == {"beginner"}
    assert "positions ->" in capsys.readouterr().out
    assert main(["corpus", "--seed", "3", "--out", str(out), "--preset", "tiny", "--slices", "nope"]) == 2
    # a corpus is rewritten (the same command again), anything else is kept
    again = ["corpus", "--seed", "4", "--preset", "tiny", "--slices", "beginner", "--no-examples",
             "--no-progress"]
    assert main([*again, "--out", str(out)]) == 0 and load_corpus(out) != corpus
    capsys.readouterr()
    position = tmp_path / "pos.txt"
    position.write_text("??1\n?21\n")
    assert main([*again, "--out", str(position)]) == 2
    assert "holds something other than a corpus" in capsys.readouterr().err
    assert position.read_text() == "??1\n?21\n"


def test_load_corpus_reads_slices_by_name_and_refuses_the_others(tmp_path):
    """A name given alone was matched as a substring ("expert-dense" read the "expert" slice), and an
    unknown slice gave an empty corpus."""
    path = save_corpus(generate_corpus(seed=3, preset="tiny", examples=False), tmp_path / "c.jsonl.gz")
    names = sorted({p.slice for p in load_corpus(path)})
    one = names[0]
    assert {p.slice for p in load_corpus(path, slices=one)} == {one}
    assert load_corpus(path, slices=one) == load_corpus(path, slices=[one])
    with pytest.raises(ValueError, match=f"holds no slice 'expert-dense'; its slices: {', '.join(names)}"):
        load_corpus(path, slices=[one, "expert-dense"])
    (tmp_path / "fake.gz").write_text("not gzip")
    with pytest.raises(ValueError, match="fake.gz: not a corpus file"):
        load_corpus(tmp_path / "fake.gz")
    with pytest.raises(ValueError, match="is a directory"):
        load_corpus(tmp_path)


@pytest.mark.parametrize("line", ['[1, 2]', '"text"', '{"slice": "x"}', '{"id": 3, "obs": null}', "[" * 5000])
def test_load_corpus_bad_lines_are_value_errors(tmp_path, line):
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(ValueError, match="bad.jsonl:1"):
        load_corpus(path)


def test_the_committed_corpora_are_found_and_ride_in_the_wheel():
    """Experiments read them by preset; an installed wheel carries them (pyproject's force-include)."""
    from sweeplab.corpus import PRESETS, committed_corpus

    for preset in ("small", "huge", "full"):
        path = committed_corpus(preset)
        assert path is not None and path.name == f"corpus-{preset}.jsonl.gz" and preset in PRESETS
    assert committed_corpus("tiny") is None


@pytest.mark.slow
def test_the_wheel_carries_the_corpora_the_types_marker_and_the_licence(tmp_path: Path):
    import subprocess
    import sys
    import zipfile

    root = Path(__file__).parents[1]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path), str(root)], check=True, capture_output=True)
    names = zipfile.ZipFile(next(tmp_path.glob("sweeplab-*.whl"))).namelist()
    for preset in ("small", "huge", "full"):
        assert f"sweeplab/_data/corpus/corpus-{preset}.jsonl.gz" in names
    assert "sweeplab/py.typed" in names and "sweeplab/static/board.js" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


@pytest.mark.parametrize("call, match", [
    (lambda: generate_corpus(seed=-1), "seed must be a non-negative integer, got -1"),
    (lambda: generate_corpus(seed=1, slices="beginner"), "slices are Slice objects.*preset='beginner'"),
    (lambda: midgame_positions(shape=(9, 9), density=0.1, n=1, seed=-1), "seed must be a non-negative"),
    (lambda: midgame_positions(shape=(9, 9), density=0.1, n=-1, seed=1), "n must be a non-negative"),
])
def test_corpus_arguments_are_named_when_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("kwargs, match", [
    ({"level": "beginner", "games": -1}, "games must be a non-negative integer, got -1"),
    ({"level": "beginner", "per_game": 0}, "per_game must be a positive integer"),
    ({"level": "begin"}, "unknown level 'begin'"),
    ({}, "a level or a shape"),
    ({"level": "beginner", "shape": (9, 9), "densities": (0.1,)}, "not both"),
    ({"shape": (9, 9)}, "needs densities"),
    ({"shape": (9, 9), "densities": (1.5,)}, "density must be a number within"),
    ({"level": "beginner", "player": "humans"}, r"player must be one of \('agents', 'safe-clicks'\)"),
    ({"level": "beginner", "reveal": (0.0,)}, r"reveal holds fractions within \(0, 1\]"),
    ({"level": "beginner", "noise": ("fuzzy", 0.1)}, "noise kind must be one of"),
])
def test_a_bad_slice_is_refused_when_built(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Slice("s", **kwargs)


def test_a_custom_slice_cycles_through_its_densities():
    sl = Slice("custom", shape=(9, 9), densities=(0.1, 0.2), reveal=(1,))
    assert [sl.board(g)[:2] for g in range(3)] == [((9, 9), 8), ((9, 9), 16), ((9, 9), 8)]


def test_every_position_has_a_clue_touching_a_covered_cell_even_under_lost_clues():
    """Positions without a frontier are dropped; with 90 % of the clues lost some positions an agent faces
    have none, so the check is done here by hand: some revealed number borders a covered cell."""
    noisy = Slice("lost", level="beginner", games=3, per_game=40, noise=("lost", 0.9))
    corpus = generate_corpus(seed=3, slices=[noisy], examples=False)
    assert corpus
    for p in corpus:
        g = p.obs.grid
        assert any((g[max(0, r - 1):r + 2, max(0, c - 1):c + 2] == COVERED).any()
                   for r, c in np.argwhere(g >= 0)), p.obs.to_text()


def _committed_line(n: int = 0) -> dict:
    with gzip.open(COMMITTED, "rt") as fh:
        return json.loads(fh.readlines()[n])


def _written(tmp_path, data: dict):
    """A one-line corpus ``bad.jsonl`` holding ``data``."""
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(data) + "\n")
    return path


@pytest.mark.parametrize(("cells", "match"), [
    ([[99, 99]], r"\[99, 99\] is off the 9x9 board"),
    ([[-1, 0]], r"\[-1, 0\] is off the 9x9 board"),
    ([[0, 0]], r"\[0, 0\] is not a covered cell"),
    ([[1.7, 2.2]], r"a cell is a pair of integers \[row, col\], got \[1.7, 2.2\]"),
    ([["1", "2"]], r"a cell is a pair of integers"),
    ([[True, False]], r"a cell is a pair of integers"),
])
def test_load_corpus_refuses_truth_cells_that_mislabel_the_position(tmp_path, cells, match):
    """Truth cells were read with int(): off the board, negative (a wrapped index), on a revealed cell,
    1.7 read as 1, "1" as 1, true as 1, all loaded silently as labels of another cell (found by writing
    malformed copies of corpus-small's lines)."""
    data = _committed_line()
    assert data["rows"][0][0] != "?" and data["shape"] == [9, 9]
    data["truth"]["with_total"]["safe"] += cells
    path = _written(tmp_path, data)
    with pytest.raises(ValueError, match=f"bad.jsonl:1: .*truth.with_total.safe.*{match}"):
        load_corpus(path)


def test_load_corpus_refuses_a_cell_labelled_both_safe_and_mine(tmp_path):
    data = _committed_line()
    cell = data["truth"]["without_total"]["mines"][0]
    data["truth"]["without_total"]["safe"].append(cell)
    path = _written(tmp_path, data)
    cell_text = re.escape(str(cell))
    with pytest.raises(ValueError, match=rf"bad.jsonl:1: .*without_total: {cell_text} is labelled both safe"):
        load_corpus(path)


@pytest.mark.parametrize("damage", ["cut", "flip"])
def test_load_corpus_names_the_file_and_line_of_a_damaged_gzip(tmp_path, damage):
    """A truncated .gz raised a bare EOFError and a corrupt deflate block a bare zlib.error, naming neither
    the file nor the line (found by cutting and flipping bytes of corpus-small)."""
    data = bytearray(COMMITTED.read_bytes())
    if damage == "cut":
        data = data[: len(data) // 2]
    else:
        data[100] ^= 0x55  # the decompressor rejects the block: invalid distance too far back
    path = tmp_path / "damaged.jsonl.gz"
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"damaged.jsonl.gz:\d+: the compressed file is cut short or corrup"):
        load_corpus(path)


def test_load_corpus_refuses_a_repeated_id(tmp_path):
    """A line repeated (two corpora joined, a write resumed) loaded twice, so the bench counted its cells
    twice and paired its timings with enumerate's by an id that named two positions (found by loading
    malformed copies of corpus-small)."""
    with gzip.open(COMMITTED, "rt") as fh:
        lines = fh.readlines()[:3]
    path = tmp_path / "twice.jsonl"
    path.write_text("".join([*lines, lines[1]]))
    first = json.loads(lines[1])["id"]
    with pytest.raises(ValueError, match=f"twice.jsonl:4: the id '{first}' is already on line 2"):
        load_corpus(path)


@pytest.mark.parametrize("key, value, match", [
    ("shape", [9, 8], r"'shape' is \[9, 8\] but the rows give \[9, 9\]"),
    ("n_covered", 0, r"'n_covered' is 0 but the rows give \d+"),
    ("n_frontier", 10**6, r"'n_frontier' is 1000000 but the rows give \d+"),
    ("id", 7, r"'id' must be a string, got 7"),
    ("slice", None, r"'slice' must be a string, got None"),
    ("move", "3", r"'move' must be a non-negative integer or null, got '3'"),
    ("seed", -1, r"'seed' must be a non-negative integer or null, got -1"),
    ("game_seed", 2.5, r"'game_seed' must be a non-negative integer or null, got 2.5"),
])
def test_load_corpus_refuses_fields_that_disagree_with_the_rows_or_have_the_wrong_type(
        tmp_path, key, value, match):
    """shape, n_covered and n_frontier were never compared with the grid, and id 7 loaded as "7", so a
    line edited by hand or spliced from two files loaded as if whole (found in the corpus review)."""
    data = _committed_line()
    data[key] = value
    path = _written(tmp_path, data)
    with pytest.raises(ValueError, match=f"bad.jsonl:1: not a corpus position \\({match}"):
        load_corpus(path)


def test_load_corpus_refuses_labels_made_by_another_method(tmp_path):
    data = _committed_line()
    data["truth"]["method"] = "lp"
    path = _written(tmp_path, data)
    with pytest.raises(ValueError, match=r"truth.method is 'lp': corpus labels are the truth, found by "
                                         r"'enumerate'"):
        load_corpus(path)


def test_every_committed_corpus_agrees_with_its_own_rows():
    for path in sorted(COMMITTED.parent.glob("corpus-*.jsonl.gz")):
        positions = load_corpus(path)
        assert positions and all(isinstance(p.id, str) for p in positions), path


def test_a_stopped_write_leaves_the_corpus_that_was_there(tmp_path, monkeypatch):
    """A review of the command line: save_corpus wrote in place, so a Ctrl-C while `sweeplab corpus --out`
    rewrote an existing corpus (the committed one, say) left a truncated .gz."""
    from sweeplab.corpus import load_corpus, save_corpus

    positions = load_corpus(Path(__file__).parents[1] / "data" / "corpus" / "corpus-small.jsonl.gz")[:20]
    path = save_corpus(positions, tmp_path / "c.jsonl.gz")
    before = path.read_bytes()

    def stopped(self, data):
        raise KeyboardInterrupt

    monkeypatch.setattr(gzip.GzipFile, "write", stopped)
    with pytest.raises(KeyboardInterrupt):
        save_corpus(positions[:5], path)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["c.jsonl.gz"]
    monkeypatch.undo()
    assert len(load_corpus(path)) == 20


def test_position_generators_take_a_numpy_generator():
    """A reviewer: SPEC §3 says everything random takes a seed or a Generator; random_positions raised
    a raw TypeError and midgame_positions refused one."""
    from sweeplab.corpus import midgame_positions
    from sweeplab.testing import random_positions

    a = [o.to_text() for o in random_positions(4, seed=np.random.default_rng(3))]
    assert a == [o.to_text() for o in random_positions(4, seed=np.random.default_rng(3))] and len(a) == 4
    b = midgame_positions(shape=(9, 9), density=0.12, n=2, seed=np.random.default_rng(3))
    assert [o.to_text() for o in b] == [o.to_text() for o in midgame_positions(
        shape=(9, 9), density=0.12, n=2, seed=np.random.default_rng(3))]
