"""Fuzzed malformed input to every entry point (issue 14, Deliver 4).

Each entry point either accepts its input (and then gives a valid object) or
raises ``ValueError`` (``OSError`` for files); nothing else may escape, and the
command line returns an exit status instead of raising. A refusal is one line
naming what was wrong, and most draws are valid (each test counts them, so a
strategy that drifts to junk fails). The default run keeps
to at most ``FAST`` examples per entry point (seconds in all); the ``slow``
variants run ``SLOW``.
"""

from __future__ import annotations

import collections
import contextlib
import io
import json
import os
import tempfile
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sweeplab
from sweeplab import Game, Observation, load_game, load_position
from sweeplab.cli import main
from sweeplab.corpus import load_corpus
from sweeplab.files import game_from_dict, game_to_dict, position_from_dict, position_to_dict
from sweeplab.positions import NOISE_KINDS, as_observation

FAST, SLOW = 200, 5000


def examples(fast: int = FAST, slow: int = SLOW) -> list:
    """``fast`` examples in the default run, ``slow`` under ``-m slow``."""
    return [pytest.param(fast, id="fast"), pytest.param(slow, id="slow", marks=pytest.mark.slow)]



def fuzz(strategy, n):
    """Run ``check`` on ``n`` draws of ``strategy`` (hypothesis, no deadline)."""

    def wrap(check):
        return settings(
            max_examples=n, deadline=None, database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                   HealthCheck.filter_too_much],
        )(given(strategy)(check))

    return wrap


def assert_valid(obs: Observation) -> None:
    """A position that was accepted is fully usable: codes in range, text round trip exact."""
    assert isinstance(obs, Observation)
    grid = obs.grid
    assert grid.dtype == np.int8 and grid.ndim == 2 and grid.size > 0 and not grid.flags.writeable
    assert ((grid >= -4) & (grid <= 8)).all()
    assert obs.mines is None or (type(obs.mines) is int and obs.known_mines <= obs.mines <= grid.size)
    assert obs.noise is None or (type(obs.noise) is str and obs.noise in NOISE_KINDS)
    assert Observation.from_text(obs.to_text(), mines=obs.mines, noise=obs.noise) == obs


def assert_refusal(exc: Exception, *names: str) -> None:
    """A refusal a user can act on: a plain ``ValueError``, one short line naming one of ``names``.

    (A ``json.JSONDecodeError`` or ``UnicodeDecodeError`` is a ``ValueError`` too: it must not leak.)
    """
    msg = str(exc)
    assert type(exc) is ValueError, repr(exc)
    assert msg and "\n" not in msg and len(msg) < 500, msg
    assert any(name in msg for name in names), (msg, names)


def assert_valid_game(game: Game) -> None:
    """A loaded game's observation shows only valid codes and survives the text form.

    Its total may sit below the flags when the player flagged safe cells (the game
    engine allows wrong flags), so only the grid is checked against the text form.
    """
    assert game.status in ("playing", "won", "lost")
    obs = game.observation
    grid = obs.grid
    assert grid.dtype == np.int8 and grid.shape == game.shape and ((grid >= -4) & (grid <= 8)).all()
    assert np.array_equal(Observation.from_text(obs.to_text()).grid, grid)
    assert obs.mines == game.n_mines


# --- strategies -----------------------------------------------------------------------------------------

TEXT_CHARS = list("?#F*-.012345678") + [" ", "\t", "\n", "\r\n", "\n\n"]
position_text = st.lists(st.sampled_from(TEXT_CHARS) | st.characters(), max_size=40).map("".join)

json_scalar = (st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats()
               | st.text(max_size=6))
json_value = st.recursive(
    json_scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=10,
)


def deep(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


odd_total = (
    st.none() | st.integers(-3, 40) | st.integers() | st.floats() | st.booleans() | st.text(max_size=3)
    | st.binary(max_size=2) | st.lists(st.integers(0, 5), max_size=2) | st.complex_numbers()
    | st.fractions() | st.decimals()
    | st.sampled_from([np.int64(2), np.uint8(1), np.float64(2.0), np.float32(0.5), np.True_, np.array([1]),
                       Fraction(4, 2), Decimal("sNaN")])
    | st.integers(1, 3000).map(deep)
)
odd_noise = st.none() | st.sampled_from([*NOISE_KINDS, "LOST", "", np.str_("over")]) | json_value

code_grid = hnp.arrays(np.int64, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=5),
                       elements=st.integers(-4, 8))
odd_grid = st.one_of(
    code_grid,
    code_grid.map(lambda g: g.tolist()),
    hnp.arrays(
        st.sampled_from([np.int8, np.int64, np.uint8, np.uint64, np.float64, np.float16, np.bool_,
                         np.complex128, np.dtype("U2"), np.dtype("m8[s]"), np.dtype("M8[D]"), np.dtype("O")]),
        hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
    ),
    st.recursive(st.integers(-6, 10) | st.floats() | st.none() | st.text(max_size=2) | st.booleans(),
                 lambda inner: st.lists(inner, max_size=4), max_leaves=16),
    st.integers(1, 3000).map(deep),
    json_value,
)


# --- Observation.from_text, Observation(...), as_observation ---------------------------------------------

POSITION_WORDS = ("text", "character", "grid", "cell code", "rows", "position", "mines", "noise")


@st.composite
def valid_parts(draw):
    """``(grid, mines, noise)`` of a valid position: a total between the known mines and all but the rest."""
    grid = draw(code_grid)
    covered = int(np.count_nonzero(grid == -1))
    known = int(np.count_nonzero((grid == -2) | (grid == -3)))
    mines = draw(st.none() | st.integers(known, known + covered))
    return grid, mines, draw(st.sampled_from([None, *NOISE_KINDS]))


@st.composite
def near_position(draw, odd_grids=odd_grid):
    """``(grid, mines, noise, clean)``: a valid position, or (not ``clean``) one with one part odd."""
    grid, mines, noise = draw(valid_parts())
    odd = draw(st.sampled_from(["grid", "mines", "noise", None, None, None]))
    if odd == "grid":
        grid = draw(odd_grids)
    elif odd == "mines":
        mines = draw(odd_total)
    elif odd == "noise":
        noise = draw(odd_noise)
    return grid, mines, noise, odd is None


def position_outcome(make, clean: bool) -> str:
    """``"accepted"`` (a valid position) or ``"refused"`` (a clear refusal, never of a ``clean`` input)."""
    try:
        obs = make()
    except ValueError as exc:
        assert not clean, exc
        assert_refusal(exc, *POSITION_WORDS)
        return "refused"
    assert_valid(obs)
    return "accepted"


def damage(draw, text: str) -> str:
    i = draw(st.integers(0, len(text)))
    return text[:i] + draw(st.sampled_from(TEXT_CHARS) | st.characters()) + text[i + 1:]


@st.composite
def near_text(draw):
    """``(text, mines, noise, clean)`` from :func:`near_position`; an odd grid is a damaged text instead."""
    grid, mines, noise, clean = draw(near_position(odd_grids=st.none()))
    if grid is None:
        return damage(draw, Observation(draw(code_grid)).to_text()), mines, noise, clean
    return Observation(grid).to_text(), mines, noise, clean


@pytest.mark.parametrize("n", examples())
def test_from_text_fuzz(n):
    # a valid position half the time (it must be accepted); odd text, totals and noise otherwise
    text = position_text | json_value | st.binary(max_size=10)
    junk = st.tuples(text, odd_total, odd_noise, st.just(False))
    seen = collections.Counter()

    @fuzz(near_text() | junk, n)
    def check(case):
        text, mines, noise, clean = case
        seen[position_outcome(lambda: Observation.from_text(text, mines=mines, noise=noise), clean)] += 1

    check()
    assert seen["accepted"] >= n // 4, seen


@pytest.mark.parametrize("n", examples())
def test_observation_constructor_fuzz(n):
    # a valid grid (as an array or nested lists) half the time: it must be accepted
    seen = collections.Counter()
    near = near_position().flatmap(
        lambda c: st.sampled_from([c, (c[0].tolist(), *c[1:])] if isinstance(c[0], np.ndarray) else [c]))

    @fuzz(near | st.tuples(odd_grid, odd_total, odd_noise, st.just(False)), n)
    def check(case):
        grid, mines, noise, clean = case
        for make in (lambda: Observation(grid, mines=mines, noise=noise),
                     lambda: as_observation(grid, mines=mines)):
            seen[position_outcome(make, clean)] += 1

    check()
    assert seen["accepted"] >= n // 2, seen  # of 2n calls


# --- position and game documents, as dicts and as files -------------------------------------------------


@st.composite
def position_document(draw, mutate=True):
    grid, mines, noise = draw(valid_parts())
    doc = position_to_dict(Observation(grid, mines=mines, noise=noise), source="fuzz")
    if not mutate:
        return doc
    return draw(mutated(doc, {
        "rows": st.lists(position_text, max_size=4),
        "mines": odd_total.filter(lambda v: not isinstance(v, (np.ndarray, np.generic, Fraction, Decimal))),
        "noise": odd_noise,
    }))


@st.composite
def game_document(draw, mutate=True):
    shape = draw(st.tuples(st.integers(1, 4), st.integers(1, 5)))
    layout = draw(hnp.arrays(bool, shape))
    noise = draw(st.none() | st.tuples(st.sampled_from(NOISE_KINDS), st.floats(0, 1)))
    game = Game.from_layout(layout, mode=draw(st.sampled_from(["classic", "score"])), noise=noise,
                            seed=draw(st.integers(0, 99)))
    for _ in range(draw(st.integers(0, 6))):
        if game.status != "playing":
            break
        r, c = draw(st.integers(0, shape[0] - 1)), draw(st.integers(0, shape[1] - 1))
        with contextlib.suppress(ValueError):
            (game.flag if draw(st.booleans()) else game.reveal)(r, c)
    if not mutate:
        return game_to_dict(game)
    h, w = shape
    near_int = st.integers(-6, 10) | st.booleans() | st.floats(-1, 9) | st.none()
    return draw(mutated(game_to_dict(game), {
        "layout": st.lists(st.text(alphabet="*.x", min_size=w - 1, max_size=w + 1), max_size=h + 1),
        "mode": st.sampled_from(["classic", "score", "zen", None, 1]),
        "first_click": st.sampled_from(["none", "safe", "zero", "lucky", None]),
        "noise": st.fixed_dictionaries({"kind": st.sampled_from([*NOISE_KINDS, "x", None]),
                                        "p": st.floats() | st.integers(-1, 2) | st.booleans()}),
        "shown": st.lists(st.lists(near_int, min_size=w, max_size=w), min_size=h, max_size=h)
                 | st.lists(st.lists(near_int, max_size=w + 1), max_size=h + 1),
        "moves": st.lists(st.lists(st.sampled_from(["reveal", "flag", "unflag", "dig"])
                                   | st.integers(-1, max(h, w)) | st.booleans() | json_value,
                                   min_size=2, max_size=4), max_size=6),
        "status": st.sampled_from(["playing", "won", "lost", "meh", None, 1]),
        "mines_hit": st.integers(-1, 30) | st.booleans() | st.floats(),
    }))


def mutated(doc: dict, near: dict):
    """``doc``, as is half the time, else with some keys dropped, some replaced by near-valid values,
    some by any JSON value (a key of no meaning is added either way, at times: it is ignored)."""
    keys = sorted(set(doc) | set(near) | {"format", "version"})

    @st.composite
    def build(draw):
        out = dict(doc)
        changed = draw(st.sampled_from([0, 0, 0, 1, 2, 3]))
        for key in draw(st.lists(st.sampled_from(keys), min_size=changed, max_size=changed, unique=True)):
            how = draw(st.sampled_from(["drop", "near", "any"]))
            if how == "drop":
                out.pop(key, None)
            elif how == "near" and key in near:
                out[key] = draw(near[key])
            elif key == "version":
                out[key] = draw(st.sampled_from([1, True, 1.0, "1", 2, None, 0]))
            else:
                out[key] = draw(json_value)
        if draw(st.booleans()):
            out[draw(st.text(max_size=5))] = draw(json_value)
        return out

    return build()


documents = st.one_of(position_document(), game_document(), position_document(), game_document(), json_value)
whole_documents = position_document(mutate=False) | game_document(mutate=False)
DOCUMENT_WORDS = ("document", "version", "'rows'", "'mines'", "'noise'", "'layout'", "'mode'",
                  "'first_click'", "'shown'", "'moves'", "'status'", "'mines_hit'", "replaying")


def is_a(doc, kind: str) -> bool:
    return isinstance(doc, dict) and doc.get("format") == f"sweeplab.{kind}"


@pytest.mark.parametrize("n", examples(120))
def test_document_fuzz(n):
    seen = collections.Counter()

    @fuzz(documents, n)
    def check(doc):
        accepted = False
        try:
            obs = position_from_dict(doc)
        except ValueError as exc:
            assert_refusal(exc, *DOCUMENT_WORDS)
        else:
            assert_valid(obs)
            accepted = True
        for replay in (True, False):
            try:
                game = game_from_dict(doc, replay=replay)
            except ValueError as exc:
                assert_refusal(exc, *DOCUMENT_WORDS)
                # the other kind of document is refused by its format tag
                assert not is_a(doc, "position") or "not a sweeplab.game document" in str(exc), exc
                continue
            assert_valid_game(game)
            accepted = True
            covered = np.argwhere(game.observation.grid == -1)
            if game.status == "playing" and len(covered):  # a loaded game plays on
                game.reveal(*(int(i) for i in covered[0]))
                assert_valid_game(game)
        seen["accepted" if accepted else "refused"] += 1

    check()
    assert seen["accepted"] >= n // 3, seen  # half the documents are left whole


@st.composite
def file_bytes(draw):
    """A document's bytes, whole or damaged: bytes replaced, cut, a BOM, deep nesting, other encodings."""
    kind = draw(st.sampled_from(["whole"] * 5 + ["edit", "edit", "deep", "binary", "utf16"]))
    if kind == "deep":
        depth = draw(st.integers(1, 5000))
        return draw(st.sampled_from(["[", '{"a":', '{"format": "sweeplab.game", "version": 1, "moves": ['])) \
            .encode() + b"[" * depth + b"]" * draw(st.integers(0, depth))
    if kind == "binary":
        return draw(st.binary(max_size=40))
    try:
        data = json.dumps(draw(whole_documents if kind == "whole" else documents),
                          default=repr)  # (odd totals: bytes, complex)
    except RecursionError:  # nested past json's own limit: files that deep are the "deep" kind's
        data = "[]"
    raw = data.encode("utf-16" if kind == "utf16" else "utf-8")
    for _ in range(draw(st.integers(1, 3)) if kind == "edit" else 0):
        if not raw:
            break
        i = draw(st.integers(0, len(raw) - 1))
        op = draw(st.sampled_from(["replace", "delete", "cut", "insert"]))
        byte = bytes([draw(st.integers(0, 255))])
        raw = {"replace": raw[:i] + byte + raw[i + 1:], "delete": raw[:i] + raw[i + 1:], "cut": raw[:i],
               "insert": raw[:i] + byte + raw[i:]}[op]
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + raw


@pytest.mark.parametrize("n", examples(120))
def test_file_fuzz(n):
    seen = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "doc.json")

        @fuzz(file_bytes(), n)
        def check(raw):
            with open(path, "wb") as fh:
                fh.write(raw)
            accepted = False
            for load, valid in ((load_position, assert_valid), (load_game, assert_valid_game)):
                try:
                    valid(load(path))
                except ValueError as exc:  # a refusal names the file
                    assert_refusal(exc, f"{path}: ")
                else:
                    accepted = True
            seen["accepted" if accepted else "refused"] += 1

        check()
    assert seen["accepted"] >= n // 3, seen  # half the files hold a whole document


@pytest.mark.parametrize("path", [None, 0, b"\x00", "", "no/such/dir/x.json", "\x00", ["x"], os.devnull, "."])
def test_odd_paths(path):
    for load in (load_position, load_game):
        with pytest.raises((ValueError, OSError)):
            load(path)


# --- the command line -----------------------------------------------------------------------------------


@st.composite
def solve_case(draw):
    grid = draw(code_grid)
    text = Observation(grid).to_text()
    if draw(st.integers(0, 4)) == 0:  # damage the text
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.sampled_from(TEXT_CHARS) | st.characters()) + text[i + 1:]
    if draw(st.integers(0, 4)) == 0:  # as a JSON document, maybe damaged
        doc = {"format": "sweeplab.position", "version": 1, "rows": text.splitlines(), "mines": None,
               "noise": None}
        doc = draw(mutated(doc, {"mines": st.none() | st.integers(-3, 40) | st.booleans() | st.floats()}))
        text = json.dumps(doc)
    methods = list(sweeplab.METHODS)
    flags: list[str] = []
    choice = draw(st.sampled_from(["one", "one", "one", "all", "junk"]))
    if choice == "one":
        flags += ["-m", draw(st.sampled_from(methods))]
    elif choice == "all":
        flags += ["--all"]
    else:
        flags += [draw(st.sampled_from(["-m", "--method", "--mines", "--noise", "--frobnicate", "-m="])),
                  draw(st.text(max_size=4))]
    if draw(st.booleans()):
        flags += ["--mines", str(draw(st.integers(-3, grid.size + 3) | st.integers()))]
    if draw(st.booleans()):
        flags += ["--noise", draw(st.sampled_from([*NOISE_KINDS, "fuzzy"]))]
    for flag in ("--no-total", "--probabilities"):
        if draw(st.booleans()):
            flags.append(flag)
    bom = draw(st.booleans())
    return text, flags, bom


@pytest.mark.parametrize("n", examples(80, 1000))
def test_cli_solve_fuzz(n):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "position.txt")

        @fuzz(solve_case(), n)
        def check(case):
            text, flags, bom = case
            with open(path, "w", encoding="utf-8-sig" if bom else "utf-8") as fh:
                fh.write(text)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["solve", path, *flags])
            err_text = err.getvalue()
            # 0 answered, 1 answered "inconsistent position", 2 bad input or usage
            assert code in (0, 1, 2), (code, err_text)
            assert "Traceback" not in err_text
            if code == 2 and "usage:" not in err_text:
                assert err_text.startswith("sweeplab solve: error: ") and err_text.count("\n") == 1, err_text
            if code in (0, 1):
                assert out.getvalue().startswith("position ") and not err_text

        check()


@pytest.mark.parametrize("call, parts", [
    (lambda: sweeplab.play("csp", level="beginner", games=1, noise="lost:0.1"),
     ["('lost', 0.1)", "lost:0.1"]),
    (lambda: sweeplab.play("csp", level="beginner", games=1, noise=("lost", "x")),
     ["a number within [0, 1]"]),
    (lambda: sweeplab.deduce("?1\n11", "brute", max_variables=-1), ["max_variables", "non-negative integer"]),
    (lambda: load_corpus("/nonexistent/c.jsonl"), ["no corpus at", "sweeplab corpus"]),
])
def test_bad_values_found_by_a_review_get_messages_that_name_them(call, parts):
    with pytest.raises((ValueError, OSError)) as exc:
        call()
    assert all(p in str(exc.value) for p in parts), str(exc.value)


def test_an_agents_entry_is_an_agent():
    by_entry = sweeplab.play(sweeplab.AGENTS["csp"], level="beginner", games=2, seed=1)
    by_name = sweeplab.play("csp", level="beginner", games=2, seed=1)
    timings = [c for c in by_name if c.startswith("seconds")]
    assert by_entry.drop(columns=timings).equals(by_name.drop(columns=timings))
