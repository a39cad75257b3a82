"""JSON files for positions and games (schema in data/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

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
        ({"layout": [".x", ".."]}, "only '\\*' and '.'"),
        ({"layout": []}, "non-empty list of strings"),
        ({"layout": "..\n.*"}, "non-empty list of strings"),
        ({"mode": "zen"}, "mode must be one of"),
        ({"first_click": "lucky"}, "first_click must be one of"),
        ({"noise": {"kind": "lost"}}, "noise must be null or"),
        ({"noise": {"kind": "lost", "p": 0.5}}, "needs its 'shown' numbers"),
        ({"noise": {"kind": "lost", "p": 0.5}, "shown": [[0, 1]]}, "shown numbers have shape"),
        ({"noise": {"kind": "lost", "p": 0.5}, "shown": [["a", 1], [1, 1]]}, "'shown' must be a grid"),
        ({"moves": [["reveal", 5, 5]]}, "outside the 2x2 board"),
        ({"moves": [["dig", 0, 0]]}, "unknown move kind"),
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
        ({"format": "sweeplab.position", "version": 1, "rows": ["??"], "noise": "x"}, "noise must be"),
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
