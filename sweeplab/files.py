"""JSON files for positions and whole games; the schema is documented in ``data/README.md``.

Readers validate every field: a malformed document raises ``ValueError`` naming
the key, the value and what is allowed (prefixed with the file name when read
from a file); a missing or unreadable file raises ``OSError`` naming it.
"""

from __future__ import annotations

import json
import numbers
import os
from pathlib import Path
from typing import Any

import numpy as np

from .game import FIRST_CLICKS, MODES, Game
from .positions import NOCLUE, NOISE_KINDS, Observation, is_real, neighbour_counts, short_repr

__all__ = ["position_to_dict", "position_from_dict", "game_to_dict", "game_from_dict",
           "save_position", "load_position", "save_game", "load_game"]

POSITION_FORMAT = "sweeplab.position"
GAME_FORMAT = "sweeplab.game"
SCHEMA_VERSION = 1
STATUSES = ("playing", "won", "lost")
MOVE_KINDS = ("reveal", "flag", "unflag")


def position_to_dict(obs: Observation, **extra: Any) -> dict[str, Any]:
    """The JSON-ready form of a position; ``extra`` keys (source, note...) are kept."""
    if not isinstance(obs, Observation):
        raise ValueError(f"position_to_dict needs an Observation, got {type(obs).__name__} {short_repr(obs)}")
    taken = sorted(set(extra) & {"format", "version", "rows", "mines", "noise"})
    if taken:  # they would overwrite the position itself
        raise ValueError(f"extra keys {taken} are the position's own fields; the position gives them "
                         f"(with_mines for another total), choose other names for extras")
    try:  # a game's own observation skips the checks: what is written must read back
        Observation(np.array(obs.grid), mines=obs.mines, noise=obs.noise)
    except ValueError as exc:
        raise ValueError(f"this position cannot be stored, it would not read back: {exc} (more flags than "
                         f"mines? remove one, or keep the whole game with save_game)") from None
    return {
        "format": POSITION_FORMAT,
        "version": SCHEMA_VERSION,
        "rows": obs.to_text().splitlines(),
        "mines": obs.mines,
        "noise": obs.noise,
        **extra,
    }


def position_from_dict(data: dict[str, Any]) -> Observation:
    """Inverse of :func:`position_to_dict`; validates the format tag and every field.

    Raises
    ------
    ValueError
        On a document that is not a JSON object with ``format`` ``"sweeplab.position"``
        and ``version`` 1, or a bad ``rows``, ``mines`` or ``noise``; the message names
        the key, the value and what is allowed.

    Examples
    --------
    >>> obs = Observation.from_text("??\\n12", mines=2)
    >>> position_from_dict(position_to_dict(obs, source="doctest")) == obs
    True
    """
    _check_format(data, POSITION_FORMAT)
    rows = _rows(data, "rows")
    mines = data.get("mines")
    if mines is not None and not is_json_int(mines):
        raise ValueError(f"'mines' must be a non-negative integer or null (unknown), got {short_repr(mines)}")
    noise = data.get("noise")
    if noise is not None and (not isinstance(noise, str) or noise not in NOISE_KINDS):
        raise ValueError(f"'noise' must be null or one of {list(NOISE_KINDS)}, got {short_repr(noise)}")
    try:
        return Observation.from_text("\n".join(rows), mines=mines, noise=noise)
    except ValueError as exc:
        raise ValueError(f"'rows'/'mines': {exc}") from None


def game_to_dict(game: Game) -> dict[str, Any]:
    """Layout, shown numbers, rules and moves: enough to replay the game exactly.

    ``status`` and ``mines_hit`` are recorded too; loading with replay checks them.
    """
    if not isinstance(game, Game):
        raise ValueError(f"game_to_dict needs a Game, got {type(game).__name__} {short_repr(game)}")
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

    Raises
    ------
    ValueError
        On a document that is not a ``sweeplab.game`` version 1 object, a field of
        the wrong type or value (the message names the key and what is allowed),
        shown numbers the layout and noise cannot produce, an illegal move, or a
        replay that ends with another ``status`` or ``mines_hit`` than recorded.

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
        raise ValueError(f"'layout' rows may hold only '*' (mine) and '.' (safe), found {sorted(bad)}")
    layout = np.array([[ch == "*" for ch in row] for row in rows], dtype=bool)
    mode = _choice(data, "mode", MODES, "classic")
    first_click = _choice(data, "first_click", FIRST_CLICKS, "none")
    noise = _noise(data.get("noise"))
    shown = _shown(data.get("shown"), layout, noise)
    moves = _moves(data.get("moves", []), layout.shape)
    expected: dict[str, Any] = {}
    if "status" in data:
        expected["status"] = _choice(data, "status", STATUSES, None)
    if "mines_hit" in data:
        hit = data["mines_hit"]
        if not is_json_int(hit) or not 0 <= hit <= layout.sum():
            raise ValueError(f"'mines_hit' must be an integer in 0..{int(layout.sum())} "
                             f"(the layout's mines), got {short_repr(hit)}")
        expected["mines_hit"] = int(hit)
    game = Game(layout.shape, int(layout.sum()), first_click=first_click, mode=mode, noise=noise,
                _layout=layout, _shown=shown)
    if replay:
        for k, move in enumerate(moves):
            try:
                game.play([move])
            except ValueError as exc:
                raise ValueError(f"'moves'[{k}] {list(move)}: {exc}") from None
        for key, value in (("status", game.status), ("mines_hit", game.mines_hit)):
            if key in expected and expected[key] != value:
                raise ValueError(
                    f"replaying the moves gives {key}={value!r}, the file says {expected[key]!r}"
                )
    return game


def is_json_int(value: object) -> bool:
    """An integer, and not a bool (JSON ``true`` is not a number here)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _choice(data: dict[str, Any], key: str, choices: tuple[str, ...], default: str | None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{key!r} must be one of {list(choices)}, got {short_repr(value)}")
    return value


def _noise(noise: object) -> tuple[str, float] | None:
    if noise is None:
        return None
    form = f'null or {{"kind": one of {list(NOISE_KINDS)}, "p": a number in [0, 1]}}'
    if not isinstance(noise, dict) or set(noise) != {"kind", "p"}:
        raise ValueError(f"'noise' must be {form}, got {short_repr(noise)}")
    kind, p = noise["kind"], noise["p"]
    if not isinstance(kind, str) or kind not in NOISE_KINDS:
        raise ValueError(f"'noise' kind must be one of {list(NOISE_KINDS)}, got {short_repr(kind)}")
    if not is_real(p) or not 0.0 <= float(p) <= 1.0:
        raise ValueError(f"'noise' p must be a number in [0, 1], got {short_repr(p)}")
    return kind, float(p)


def _shown(shown: object, layout: np.ndarray, noise: tuple[str, float] | None) -> np.ndarray | None:
    """Check ``shown`` cell by cell: numbers the layout's counts and the noise model can produce."""
    if shown is None:
        if noise is not None:
            raise ValueError("a game with noise needs its 'shown' numbers (a grid the size of 'layout')")
        return None
    h, w = layout.shape
    if (not isinstance(shown, list) or len(shown) != h
            or not all(isinstance(row, list) and len(row) == w for row in shown)):
        raise ValueError(f"'shown' must be a grid of integers the size of the layout ({h} rows of {w}), "
                         f"got {short_repr(shown)}")
    for r, row in enumerate(shown):
        for c, v in enumerate(row):
            if not is_json_int(v) or not (0 <= v <= 8 or v == NOCLUE):
                raise ValueError(f"'shown' row {r}, column {c} is {short_repr(v)}; allowed: "
                                 f"an integer 0..8, or {NOCLUE} (a lost clue, noise 'lost' only)")
    arr = np.array(shown, dtype=np.int8)
    truth = neighbour_counts(layout)
    kind = None if noise is None else noise[0]
    if kind != "lost" and (arr == NOCLUE).any():
        r, c = (int(i) for i in np.argwhere(arr == NOCLUE)[0])
        raise ValueError(f"'shown' row {r}, column {c} is {NOCLUE} (a lost clue), "
                         f"allowed only with noise 'lost'")
    if kind == "under":
        lo, hi, what = np.zeros_like(truth), truth, "0..the true count (noise 'under')"
    elif kind == "over":
        lo, hi = truth, neighbour_counts(np.ones_like(layout))
        what = "the true count..the number of neighbours (noise 'over')"
    else:
        lo = hi = truth
        what = "the true count, or -4 (noise 'lost')" if kind == "lost" else "the true count (no noise)"
    ok = (arr >= lo) & (arr <= hi)
    if kind == "lost":
        ok |= arr == NOCLUE
    # Mines' entries are never shown: only their range (checked above) matters.
    bad = ~ok & ~layout
    if bad.any():
        r, c = (int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"'shown' row {r}, column {c} is {int(arr[r, c])}, but that safe cell's true count "
                         f"is {int(truth[r, c])}; allowed: {what}")
    return arr


def _moves(moves: object, shape: tuple[int, int]) -> list[tuple[str, int, int]]:
    if not isinstance(moves, list):
        raise ValueError(f"'moves' must be a list of [kind, row, col], got {short_repr(moves)}")
    h, w = shape
    out = []
    for k, move in enumerate(moves):
        if (not isinstance(move, list) or len(move) != 3 or not isinstance(move[0], str)
                or move[0] not in MOVE_KINDS or not is_json_int(move[1]) or not is_json_int(move[2])):
            raise ValueError(f"'moves'[{k}] must be [kind, row, col] with kind one of {list(MOVE_KINDS)} "
                             f"and integer row, col; got {short_repr(move)}")
        if not (0 <= move[1] < h and 0 <= move[2] < w):
            raise ValueError(f"'moves'[{k}] {short_repr(move)}: cell ({move[1]}, {move[2]}) is outside the "
                             f"{h}x{w} board")
        out.append((move[0], int(move[1]), int(move[2])))
    return out


def _rows(data: dict[str, Any], key: str) -> list[str]:
    rows = data.get(key)
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) and r for r in rows):
        raise ValueError(f"{key!r} must be a non-empty list of strings (none empty), one per board row, "
                         f"got {short_repr(rows)}")
    if len({len(r) for r in rows}) != 1 and key == "layout":
        raise ValueError(f"{key!r} rows are ragged: lengths {sorted({len(r) for r in rows})}")
    return rows


def _check_format(data: dict[str, Any], expected: str) -> None:
    if not isinstance(data, dict) or data.get("format") != expected:
        tag = data.get("format") if isinstance(data, dict) else None
        what = "" if isinstance(data, dict) else f", a JSON {type(data).__name__} instead of an object"
        raise ValueError(f"not a {expected} document (format tag {short_repr(tag)}{what}); "
                         f"expected an object with \"format\": \"{expected}\"")
    version = data.get("version")
    if not is_json_int(version) or version != SCHEMA_VERSION:
        raise ValueError(
            f"unsupported {expected} version {short_repr(version)}; this sweeplab reads the integer "
            f"{SCHEMA_VERSION}"
        )


def _path(path: object) -> Path:
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"path must be a str or os.PathLike, got {type(path).__name__} {short_repr(path)}")
    return Path(path)


def read_text(path: str | os.PathLike) -> str:
    """A text file's contents: UTF-8 with or without a byte-order mark.

    Raises
    ------
    OSError
        A missing or unreadable file (the message names it).
    ValueError
        A path that is not a str or path, or a file that is not UTF-8 text.
    """
    p = _path(path)
    try:
        return p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{p}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except ValueError as exc:  # e.g. an embedded null byte in the path
        raise ValueError(f"cannot open {short_repr(str(path))}: {exc}") from None


def parse_json(text: str, where: str) -> Any:
    """``json.loads`` with every failure as one ``ValueError`` naming ``where`` (a file name)."""
    try:
        return json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        what = exc.msg.removesuffix(" at")  # "Unterminated string starting at"
        raise ValueError(f"{where}: not valid JSON ({what} at line {exc.lineno}, "
                         f"column {exc.colno})") from None
    except RecursionError:
        raise ValueError(f"{where}: JSON nested too deeply to be a sweeplab document") from None
    except ValueError as exc:  # e.g. an integer literal with too many digits
        raise ValueError(f"{where}: not valid JSON ({exc})") from None


def _load(path: str | os.PathLike, parse):
    text = read_text(path)
    data = parse_json(text, str(path))
    try:
        return parse(data)
    except RecursionError:
        raise ValueError(f"{path}: document nested too deeply") from None
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _dump(document: dict[str, Any], path: str | os.PathLike, **kwargs: Any) -> None:
    p = _path(path)
    try:
        text = json.dumps(document, allow_nan=False, **kwargs)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"cannot write {p} as JSON: {exc} (extra keys must hold JSON values)") from None
    if p.is_dir():
        raise ValueError(f"{p} is a directory; give a file name such as {p / 'position.json'}")
    # whole or not at all: a run stopped mid-write leaves no cut-off file (generate keeps what it finds)
    part = p.with_name(f".{p.name}.part")
    try:
        part.write_text(text + "\n", encoding="utf-8")
        os.replace(part, p)
    finally:
        part.unlink(missing_ok=True)


def save_position(obs: Observation, path: str | Path, **extra: Any) -> None:
    """Write a position as JSON (a ``sweeplab.position`` document; :func:`load_position` reads it).

    Parameters
    ----------
    obs : Observation
    path : str or path-like
        Written whole or not at all (a run stopped mid-write leaves no cut-off file).
    **extra
        More keys for the document, JSON values (``source="report 002 §3"``, a note...);
        not the position's own ``format``, ``version``, ``rows``, ``mines`` and ``noise``.
        :func:`load_position` returns the position only (the extras stay in the file's JSON).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sweeplab import Observation, load_position, save_position
    >>> obs = Observation.from_text("1?\\n??", mines=1)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     save_position(obs, Path(folder) / "corner.json", source="a 1 in the corner")
    ...     again = load_position(Path(folder) / "corner.json")
    >>> again == obs
    True
    """
    _dump(position_to_dict(obs, **extra), path, indent=1)


def load_position(path: str | Path) -> Observation:
    """Read a position written by :func:`save_position` (a UTF-8 byte-order mark is accepted).

    The example of :func:`save_position` reads one back.

    Raises
    ------
    OSError
        A missing or unreadable file.
    ValueError
        A file that is not a valid ``sweeplab.position`` document, with the file name and the reason.
    """
    try:
        return _load(path, position_from_dict)
    except ValueError as exc:
        if "not valid JSON" not in str(exc):
            raise
        try:  # the text form of SPEC §1 rather than JSON: say how to read it
            Observation.from_text(read_text(path))
        except ValueError:
            raise exc from None
        raise ValueError(f"{exc}; it holds a position's text form: read it with "
                         f"sweeplab.Observation.from_text(Path({str(path)!r}).read_text()) "
                         f"(sweeplab solve reads both forms)") from None


def save_game(game: Game, path: str | Path) -> None:
    """Write a game (layout, rules, moves) as JSON (a ``sweeplab.game`` document; :func:`load_game` reads it).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sweeplab import load_game, new_game, save_game
    >>> game = new_game("beginner", seed=1)
    >>> _ = game.reveal(0, 0)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     save_game(game, Path(folder) / "game.json")
    ...     again = load_game(Path(folder) / "game.json")  # the moves replayed on the saved layout
    >>> again.moves == game.moves and again.observation == game.observation
    True
    """
    _dump(game_to_dict(game), path)


def load_game(path: str | Path, *, replay: bool = True) -> Game:
    """Read a game written by :func:`save_game`, replaying its moves (with ``replay``).

    With ``replay=False`` the game starts afresh on the saved layout: the
    moves are checked for form only (``[kind, row, col]`` on the board) and
    not kept, the saved ``status`` and ``mines_hit`` are not compared, and
    the first-click rule is not applied again (the layout is the one the
    first click of the saved game left).  The example of :func:`save_game`
    reads one back.

    Raises
    ------
    OSError
        A missing or unreadable file.
    ValueError
        A file that is not a valid ``sweeplab.game`` document or (with ``replay``) whose moves do not
        replay, with the file name and the reason.
    """
    return _load(path, lambda data: game_from_dict(data, replay=replay))
