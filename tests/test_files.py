"""JSON files for positions and games (schema in data/README.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sweeplab
from sweeplab import COVERED, Game, Observation, load_game, load_position, new_game, save_game, save_position
from sweeplab.files import game_from_dict, game_to_dict, position_from_dict, position_to_dict

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"


def test_position_file_round_trip(tmp_path):
    obs = Observation.from_text("?F*\n-.8\n12?", mines=4, noise="over")
    path = tmp_path / "p.json"
    save_position(obs, path, source="test", note="extra keys are kept")
    data = json.loads(path.read_text())
    assert data["format"] == "sweeplab.position" and data["version"] == 1
    assert data["rows"] == ["?F*", "-.8", "12?"] and data["mines"] == 4 and data["noise"] == "over"
    assert data["source"] == "test"
    assert load_position(path) == obs


def test_position_without_total():
    obs = Observation.from_text("??\n11")
    assert position_to_dict(obs)["mines"] is None
    assert position_from_dict(position_to_dict(obs)) == obs


@given(st.integers(0, 2**32 - 1), st.sampled_from([None, ("lost", 0.3), ("under", 0.5), ("over", 1.0)]),
       st.sampled_from(["classic", "score"]), st.sampled_from(["none", "safe", "zero"]))
def test_game_replay_reproduces_the_observation(seed, noise, mode, first_click):
    rng = np.random.default_rng(seed)
    game = new_game(shape=(6, 7), mines=8, first_click=first_click, mode=mode, noise=noise, seed=seed)
    game.reveal(2, 3)
    for _ in range(12):
        if game.status != "playing":
            break
        r, c = (int(x) for x in rng.integers(0, (6, 7)))
        cell = game.observation.grid[r, c]
        if cell == COVERED:
            (game.flag if rng.random() < 0.3 else game.reveal)(r, c)
        elif cell == -2:
            game.unflag(r, c)
    data = json.loads(json.dumps(game_to_dict(game)))
    again = game_from_dict(data)
    assert again.observation == game.observation
    assert (again.status, again.mines_hit, again.moves) == (game.status, game.mines_hit, game.moves)
    assert np.array_equal(again.layout, game.layout) and np.array_equal(again.shown, game.shown)
    fresh = game_from_dict(data, replay=False)
    assert fresh.moves == [] and (fresh.observation.grid == COVERED).all()


def test_example_files_load():
    for path in sorted(EXAMPLES.glob("*.json")):
        data = json.loads(path.read_text())
        if data["format"] == "sweeplab.position":
            assert load_position(path).shape[0] >= 2
        else:
            game = load_game(path)
            assert game.status == data["status"] and len(game.moves) == len(data["moves"])


def test_example_game_observation():
    game = load_game(EXAMPLES / "game_beginner_seed7.json")
    assert game.first_click == "zero" and game.observation.mines == 10
    assert game.moves[0] == ("reveal", 4, 4) and game.moves[-1][0] == "unflag"
    assert game.observation.to_text().splitlines()[0] == "1F?1....."
    noisy = load_game(EXAMPLES / "game_score_under_noise.json")
    assert noisy.mode == "score" and noisy.noise == ("under", 0.4) and noisy.mines_hit == 1
    assert noisy.observation.noise == "under"


def test_unplaced_game_cannot_be_saved(tmp_path):
    with pytest.raises(ValueError, match="no layout yet"):
        save_game(new_game("beginner", seed=1), tmp_path / "g.json")


def test_game_file_round_trip(tmp_path):
    game = Game.from_layout([[0, 1], [0, 0]], mode="score")
    for cell in [(0, 1), (1, 0), (0, 0), (1, 1)]:
        game.reveal(*cell)
    save_game(game, tmp_path / "g.json")
    again = load_game(tmp_path / "g.json")
    assert again.observation == game.observation and again.status == "won" and again.score == 0.0


def good_game():
    return game_to_dict(Game.from_layout([[0, 1], [0, 0]]))


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"format": "sweeplab.position"}, "not a sweeplab.game document"),
        ({"version": 2}, "unsupported sweeplab.game version 2"),
        ({"layout": [".*", "."]}, "ragged"),
        ({"layout": [".x", ".."]}, "only '\\*' \\(mine\\) and '.'"),
        ({"layout": []}, "non-empty list of strings"),
        ({"layout": "..\n.*"}, "non-empty list of strings"),
        ({"mode": "zen"}, "'mode' must be one of"),
        ({"first_click": "lucky"}, "'first_click' must be one of"),
        ({"noise": {"kind": "lost"}}, "'noise' must be null or"),
        ({"noise": {"kind": "lost", "p": 0.5}}, "needs its 'shown' numbers"),
        ({"noise": {"kind": "lost", "p": 0.5}, "shown": [[0, 1]]}, r"'shown' must .*\(2 rows of 2\)"),
        ({"noise": {"kind": "lost", "p": 0.5}, "shown": [["a", 1], [1, 1]]}, "'shown' row 0, column 0"),
        ({"moves": [["reveal", 5, 5]]}, r"'moves'\[0\].*outside the 2x2 board"),
        ({"moves": [["dig", 0, 0]]}, r"'moves'\[0\] must be \[kind, row, col\] with kind one of"),
        ({"moves": [["reveal", 0, 0]], "status": "won"}, "replaying the moves gives status='playing'"),
    ],
)
def test_bad_game_documents(change, match):
    data = {**good_game(), **change}
    with pytest.raises(ValueError, match=match):
        game_from_dict(data)


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({"format": "sweeplab.game", "version": 1}, "not a sweeplab.position document"),
        ([1, 2], "not a sweeplab.position document"),
        ({"format": "sweeplab.position", "version": 1}, "'rows' must be a non-empty list"),
        ({"format": "sweeplab.position", "version": 1, "rows": ["?x"]}, "unknown character 'x'"),
        ({"format": "sweeplab.position", "version": 1, "rows": ["??", "?"]}, "ragged rows"),
        ({"format": "sweeplab.position", "version": 1, "rows": ["F?"], "mines": 0}, "below the 1 known"),
        ({"format": "sweeplab.position", "version": 1, "rows": ["??"], "noise": "x"}, "'noise' must be null"),
    ],
)
def test_bad_position_documents(data, match):
    with pytest.raises(ValueError, match=match):
        position_from_dict(data)


def test_readme_examples_load():
    """The JSON examples in data/README.md are valid documents."""
    text = (EXAMPLES.parent / "README.md").read_text().split("## Position corpus")[0]
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    kinds = set()
    for block in blocks:
        data = json.loads(block)
        kinds.add(data["format"])
        if data["format"] == "sweeplab.position":
            assert position_from_dict(data).shape == (2, 6)
        else:
            assert game_from_dict(data).status == data["status"]
    assert kinds == {"sweeplab.position", "sweeplab.game"}


# --- malformed documents and files (issue 14 items 5 and 12) ---------------------------------------------


def noisy_game(kind="under"):
    """A 2x3 game whose true counts are [[1, *, 1], [1, 1, 1]], with clue noise ``kind``."""
    game = Game.from_layout([[0, 1, 0], [0, 0, 0]], noise=(kind, 0.0))
    return game_to_dict(game)


@pytest.mark.parametrize("value", [-2, -7, 9, -1, -3, 100, True, 1.0, None, "1"])
def test_shown_numbers_outside_0_to_8_are_refused(value):
    """-2 drew a revealed safe cell as a flag, -7 printed as "6", 9 made to_text raise IndexError."""
    data = noisy_game()
    data["shown"][1][0] = value
    with pytest.raises(ValueError, match=r"'shown' row 1, column 0 is .*allowed: an integer 0\.\.8"):
        game_from_dict(data)


@pytest.mark.parametrize(
    ("kind", "row", "col", "value", "match"),
    [
        ("under", 1, 0, 2, r"true count is 1; allowed: 0\.\.the true count"),
        ("over", 1, 0, 0, r"true count is 1; allowed: the true count\.\.the number of neighbours"),
        ("over", 1, 0, 6, r"the number of neighbours"),  # a corner has 3 neighbours, an edge 5
        ("lost", 1, 0, 3, r"allowed: the true count, or -4"),
        ("under", 1, 0, -4, r"-4 \(a lost clue\), allowed only with noise 'lost'"),
    ],
)
def test_shown_numbers_must_fit_the_noise_model(kind, row, col, value, match):
    data = noisy_game(kind)
    data["shown"][row][col] = value
    with pytest.raises(ValueError, match=match):
        game_from_dict(data)


def test_shown_numbers_without_noise_must_be_the_counts():
    data = {**good_game(), "shown": [[1, 0], [1, 1]]}
    assert game_from_dict(data).status == "playing"  # the true counts (the mine's entry is unused)
    data["shown"][1][0] = 2
    with pytest.raises(ValueError, match=r"'shown' row 1, column 0 is 2.*\(no noise\)"):
        game_from_dict(data)


def test_loaded_noisy_game_draws_valid_observations():
    data = noisy_game("lost")
    data["shown"][1][0] = -4
    game = game_from_dict(data)
    game.reveal(1, 0)
    assert game.observation.to_text().splitlines()[1] == "-??"


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"version": True}, "unsupported sweeplab.game version True"),
        ({"version": 1.0}, "unsupported sweeplab.game version 1.0"),
        ({"version": "1"}, "unsupported sweeplab.game version '1'"),
        ({"moves": None}, r"'moves' must be a list of \[kind, row, col\], got None"),
        ({"moves": {"reveal": [0, 0]}}, "'moves' must be a list"),
        ({"moves": [["reveal", True, 0]]}, r"'moves'\[0\] must be \[kind, row, col\]"),
        ({"moves": [["reveal", 0.0, 0]]}, r"'moves'\[0\] must be"),
        ({"moves": [[["reveal"], 0, 0]]}, r"'moves'\[0\] must be"),
        ({"moves": [["reveal", 0]]}, r"'moves'\[0\] must be"),
        ({"moves": ["reveal 0 0"]}, r"'moves'\[0\] must be"),
        ({"moves": [["reveal", -1, 0]]}, r"'moves'\[0\].*outside the 2x2 board"),
        ({"moves": [["flag", 0, 0], ["reveal", 0, 0]]}, r"'moves'\[1\].*flagged"),
        ({"mode": 1}, "'mode' must be one of"),
        ({"mode": ["classic"]}, "'mode' must be one of"),
        ({"first_click": None}, "'first_click' must be one of"),
        ({"status": "meh"}, "'status' must be one of"),
        ({"status": ["won"]}, "'status' must be one of"),
        ({"mines_hit": -1}, r"'mines_hit' must be an integer in 0\.\.1"),
        ({"mines_hit": "0"}, "'mines_hit' must be an integer"),
        ({"mines_hit": False}, "'mines_hit' must be an integer"),
        ({"noise": "lost"}, "'noise' must be null or"),
        ({"noise": {"kind": "lost", "p": True}, "shown": [[1, 0], [1, 1]]}, "'noise' p must be a number"),
        ({"noise": {"kind": "lost", "p": "0.5"}, "shown": [[1, 0], [1, 1]]}, "'noise' p must be a number"),
        ({"noise": {"kind": "lost", "p": float("nan")}, "shown": [[1, 0], [1, 1]]}, "'noise' p must be"),
        ({"noise": {"kind": "lost", "p": 2}, "shown": [[1, 0], [1, 1]]}, r"'noise' p must be a number in"),
        ({"noise": {"kind": ["lost"], "p": 0.5}, "shown": [[1, 0], [1, 1]]}, "'noise' kind must be one"),
        ({"noise": {"kind": "lost", "p": 0.5}, "shown": [[1, 0], [1]]}, "'shown' must be a grid"),
        ({"noise": {"kind": "lost", "p": 0.5}, "shown": "10\n11"}, "'shown' must be a grid"),
        ({"layout": [".*", 3]}, "'layout' must be a non-empty list of strings"),
        ({"layout": None}, "'layout' must be a non-empty list of strings"),
        ({"layout": [""]}, r"'layout' must be a non-empty list of strings \(none empty\)"),
    ],
)
def test_wrong_types_in_game_documents(change, match):
    data = {**good_game(), **change}
    with pytest.raises(ValueError, match=match):
        game_from_dict(data)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"version": True}, "unsupported sweeplab.position version True"),
        ({"mines": True}, "'mines' must be a non-negative integer or null"),
        ({"mines": 1.5}, "'mines' must be a non-negative integer or null"),
        ({"mines": "1"}, "'mines' must be a non-negative integer or null"),
        ({"mines": -1}, "mines must be non-negative"),
        ({"noise": ["lost"]}, "'noise' must be null or one of"),
        ({"noise": True}, "'noise' must be null or one of"),
        ({"rows": "??\n12"}, "'rows' must be a non-empty list of strings"),
        ({"rows": [["?", "?"]]}, "'rows' must be a non-empty list of strings"),
        ({"format": ["sweeplab.position"]}, "not a sweeplab.position document"),
    ],
)
def test_wrong_types_in_position_documents(change, match):
    data = {**position_to_dict(Observation.from_text("??\n12", mines=2)), **change}
    with pytest.raises(ValueError, match=match):
        position_from_dict(data)


def test_files_name_themselves_in_errors(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({**good_game(), "moves": None}))
    with pytest.raises(ValueError, match=rf"^{path}: 'moves' must be a list"):
        load_game(path)
    path.write_text('{"format": "sweeplab.position", "version": 1, "rows": ["?x"]')
    with pytest.raises(ValueError, match=rf"^{path}: not valid JSON \(.* line 1, column"):
        load_position(path)
    path.write_text('{"a": "x')
    with pytest.raises(ValueError, match=re.escape(f"{path}: not valid JSON (Unterminated string starting at "
                                                   f"line 1, column 7)")):
        load_position(path)
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(ValueError, match=rf"^{path}: not UTF-8 text"):
        load_position(path)
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match=rf"^{path}: not a sweeplab.position document .*JSON list"):
        load_position(path)


def test_deeply_nested_json_is_a_value_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match=rf"^{path}: JSON nested too deeply"):
        load_game(path)
    deep = "[" * 50_000 + "]" * 50_000
    path.write_text('{"format": "sweeplab.game", "version": 1, "moves": ' + deep + "}")
    with pytest.raises(ValueError, match=rf"^{path}: JSON nested too deeply"):
        load_game(path)


def test_byte_order_mark_is_accepted(tmp_path):
    obs = Observation.from_text("??\n12", mines=2)
    path = tmp_path / "p.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(position_to_dict(obs)).encode())
    assert load_position(path) == obs
    game = Game.from_layout([[0, 1], [0, 0]])
    game.reveal(1, 0)
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(game_to_dict(game)).encode())
    assert load_game(path).observation == game.observation


def test_missing_and_unreadable_files_are_os_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.json"):
        load_position(tmp_path / "nope.json")
    with pytest.raises(FileNotFoundError, match="nope.json"):
        load_game(str(tmp_path / "nope.json"))
    with pytest.raises(OSError, match=str(tmp_path)):
        load_game(tmp_path)


@pytest.mark.parametrize("path", [None, 3, b"\xff", ["p.json"]])
def test_bad_path_types_are_value_errors(path):
    with pytest.raises(ValueError, match="path must be a str or os.PathLike"):
        load_position(path)


def test_save_refuses_what_json_cannot_hold(tmp_path):
    obs = Observation.from_text("??")
    with pytest.raises(ValueError, match="cannot write .* as JSON"):
        save_position(obs, tmp_path / "p.json", note={1, 2})
    with pytest.raises(ValueError, match="needs an Observation, got str"):
        save_position("??", tmp_path / "p.json")
    with pytest.raises(ValueError, match="needs a Game, got NoneType"):
        save_game(None, tmp_path / "g.json")


def test_a_position_that_would_not_read_back_is_not_saved(tmp_path):
    """More flags than mines is ordinary play; the file was written and then refused on loading."""
    game = sweeplab.new_game("beginner", first_click="zero", seed=1)
    game.reveal(4, 4)
    for r, c in np.argwhere(game.observation.grid == -1)[:11]:
        game.flag(int(r), int(c))
    with pytest.raises(ValueError, match="cannot be stored.*11 known mines.*save_game"):
        sweeplab.save_position(game.observation, tmp_path / "p.json")
    assert not (tmp_path / "p.json").exists()
    sweeplab.save_game(game, tmp_path / "g.json")
    assert sweeplab.load_game(tmp_path / "g.json").observation == game.observation


def test_save_position_keeps_the_position_and_leaves_no_part_file(tmp_path):
    obs = Observation.from_text("?1\n11", mines=1)
    for key in ("mines", "rows", "format", "version", "noise"):
        with pytest.raises(ValueError, match=f"extra keys \\['{key}'\\] are the position's own fields"):
            save_position(obs, tmp_path / "p.json", **{key: 2})
    with pytest.raises(ValueError, match="is a directory; give a file name"):
        save_position(obs, tmp_path)
    assert list(tmp_path.iterdir()) == []  # nothing written, no part file left
    save_position(obs, tmp_path / "p.json", source="me")
    assert [p.name for p in tmp_path.iterdir()] == ["p.json"] and load_position(tmp_path / "p.json") == obs


def test_reading_a_position_from_the_wrong_kind_of_input_says_how(tmp_path, monkeypatch):
    text = tmp_path / "pos.txt"
    text.write_text("??1\n?21\n")
    with pytest.raises(ValueError, match=r"not valid JSON.*position's text form: read it with "
                                         r"sweeplab.Observation.from_text\(Path"):
        load_position(text)
    (tmp_path / "junk.json").write_text("{nope")
    with pytest.raises(ValueError, match=r"not valid JSON \([^)]*\)$"):  # no hint where none fits
        load_position(tmp_path / "junk.json")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="'pos.txt' is a file: read it with Path"):
        sweeplab.deduce("pos.txt")
    with pytest.raises(ValueError, match=r"unknown character 'b'[^(]*\(text line 1\); expected"):
        sweeplab.deduce("bogus.txt")  # no such file: no hint
    with pytest.raises(ValueError, match="for a game pass game.observation"):
        sweeplab.deduce(new_game("beginner", seed=1))


@pytest.mark.parametrize("first_click", ["safe", "zero", "none"])
@pytest.mark.parametrize("mode, noise", [("classic", None), ("score", ("under", 0.3)),
                                         ("classic", ("lost", 0.2))])
def test_a_game_round_trip_keeps_its_rules(first_click, mode, noise, tmp_path):
    game = new_game("beginner", first_click=first_click, mode=mode, noise=noise, seed=11)
    game.reveal(4, 4)
    save_game(game, tmp_path / "g.json")
    back = load_game(tmp_path / "g.json")
    assert (back.first_click, back.mode, back.noise) == (first_click, mode, noise)
    assert back.observation == game.observation and back.moves == game.moves
