"""JSON files for positions and whole games; the schema is documented in ``data/README.md``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .game import Game
from .positions import Observation

__all__ = ["position_to_dict", "position_from_dict", "game_to_dict", "game_from_dict",
           "save_position", "load_position", "save_game", "load_game"]

POSITION_FORMAT = "sweeplab.position"
GAME_FORMAT = "sweeplab.game"
SCHEMA_VERSION = 1


def position_to_dict(obs: Observation, **extra: Any) -> dict[str, Any]:
    """The JSON-ready form of a position; ``extra`` keys (source, note...) are kept."""
    return {
        "format": POSITION_FORMAT,
        "version": SCHEMA_VERSION,
        "rows": obs.to_text().splitlines(),
        "mines": obs.mines,
        "noise": obs.noise,
        **extra,
    }


def position_from_dict(data: dict[str, Any]) -> Observation:
    """Inverse of :func:`position_to_dict`; validates the format tag.

    Examples
    --------
    >>> obs = Observation.from_text("??\\n12", mines=2)
    >>> position_from_dict(position_to_dict(obs, source="doctest")) == obs
    True
    """
    _check_format(data, POSITION_FORMAT)
    rows = _rows(data, "rows")
    return Observation.from_text("\n".join(rows), mines=data.get("mines"), noise=data.get("noise"))


def game_to_dict(game: Game) -> dict[str, Any]:
    """Layout, shown numbers, rules and moves: enough to replay the game exactly.

    ``status`` and ``mines_hit`` are recorded too; loading with replay checks them.
    """
    if game.layout is None:
        raise ValueError("the game has no layout yet (its mines are placed at the first reveal)")
    return {
        "format": GAME_FORMAT,
        "version": SCHEMA_VERSION,
        "layout": ["".join("*" if m else "." for m in row) for row in game.layout],
        "mode": game.mode,
        "first_click": game.first_click,
        "noise": None if game.noise is None else {"kind": game.noise[0], "p": game.noise[1]},
        "shown": None if game.noise is None else np.asarray(game.shown).tolist(),
        "moves": [list(m) for m in game.moves],
        "status": game.status,
        "mines_hit": game.mines_hit,
    }


def game_from_dict(data: dict[str, Any], *, replay: bool = True) -> Game:
    """Rebuild a game; with ``replay`` its moves are played again.

    Examples
    --------
    >>> from sweeplab import new_game
    >>> g = new_game("beginner", seed=3)
    >>> _ = g.reveal(4, 4)
    >>> game_from_dict(game_to_dict(g)).observation == g.observation
    True
    """
    _check_format(data, GAME_FORMAT)
    rows = _rows(data, "layout")
    bad = {ch for row in rows for ch in row} - {"*", "."}
    if bad:
        raise ValueError(f"layout rows may hold only '*' and '.', found {sorted(bad)}")
    layout = np.array([[ch == "*" for ch in row] for row in rows], dtype=bool)
    noise = data.get("noise")
    try:
        noise_t = None if noise is None else (noise["kind"], float(noise["p"]))
    except (TypeError, KeyError, ValueError):
        raise ValueError(f"noise must be null or {{\"kind\": ..., \"p\": ...}}, got {noise!r}") from None
    shown = data.get("shown")
    if noise_t is not None and shown is None:
        raise ValueError("a game with noise needs its 'shown' numbers")
    if shown is not None:
        try:
            shown = np.array(shown, dtype=np.int8)
        except (TypeError, ValueError, OverflowError):
            raise ValueError("'shown' must be a grid of integers the size of the layout") from None
    game = Game(layout.shape, int(layout.sum()), first_click=data.get("first_click", "none"),
                mode=data.get("mode", "classic"), noise=noise_t, _layout=layout, _shown=shown)
    if replay:
        game.play(data.get("moves", []))
        for key, value in (("status", game.status), ("mines_hit", game.mines_hit)):
            if key in data and data[key] != value:
                raise ValueError(f"replaying the moves gives {key}={value!r}, the file says {data[key]!r}")
    return game


def _rows(data: dict[str, Any], key: str) -> list[str]:
    rows = data.get(key)
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise ValueError(f"{key!r} must be a non-empty list of strings, one per board row")
    if len({len(r) for r in rows}) != 1 and key == "layout":
        raise ValueError(f"{key!r} rows are ragged: lengths {sorted({len(r) for r in rows})}")
    return rows


def _check_format(data: dict[str, Any], expected: str) -> None:
    if not isinstance(data, dict) or data.get("format") != expected:
        tag = data.get("format") if isinstance(data, dict) else None
        raise ValueError(f"not a {expected} document (format tag {tag!r})")
    if data.get("version") != SCHEMA_VERSION:
        raise ValueError(
            f"unsupported {expected} version {data.get('version')!r}; this sweeplab reads {SCHEMA_VERSION}"
        )


def save_position(obs: Observation, path: str | Path, **extra: Any) -> None:
    """Write a position as JSON."""
    Path(path).write_text(json.dumps(position_to_dict(obs, **extra), indent=1) + "\n")


def load_position(path: str | Path) -> Observation:
    """Read a position written by :func:`save_position`."""
    return position_from_dict(json.loads(Path(path).read_text()))


def save_game(game: Game, path: str | Path) -> None:
    """Write a game (layout, rules, moves) as JSON."""
    Path(path).write_text(json.dumps(game_to_dict(game)) + "\n")


def load_game(path: str | Path, *, replay: bool = True) -> Game:
    """Read a game written by :func:`save_game`, replaying its moves."""
    return game_from_dict(json.loads(Path(path).read_text()), replay=replay)
