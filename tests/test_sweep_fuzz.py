"""Fuzzed input to the sweep entry points: a result or a ``ValueError``, nothing else (issue 14).

Each entry point has a test on valid input, where every draw must be accepted and the
result checked, and one on junk, where a refusal must be one line that names what was wrong.
"""

import contextlib
import io
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.cli import main
from sweeplab.commands.sweep import GRID_FLAGS, WORDS, load_config, parse_option
from sweeplab.sweeps import expand_grid, run_sweep

KEYS = ["agent", "level", "shape", "mines", "density", "first_click", "mode", "noise", "first_move",
        "use_total", "methods", "bogus"]
GOOD = {"agent": ["trivial", "random"], "level": ["beginner"], "shape": [[5, 6], [4, 4]], "mines": [3, 5],
        "density": [0.1, 0.2], "first_click": ["none", "safe", "zero"], "mode": ["classic", "score"],
        "noise": [None, ["lost", 0.1], ["under", 0.3]], "first_move": ["corner", [0, 0]],
        "use_total": [True, False], "methods": [["trivial"]], "bogus": []}
scalars = st.none() | st.booleans() | st.integers(-3, 100) | st.floats(allow_nan=True) | st.text(max_size=6)
junk = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.text(max_size=3), inner, max_size=2), max_leaves=5)


def assert_refusal(exc: ValueError, *names: str) -> None:
    """A plain ``ValueError`` on one line that names one of ``names`` (the key, or the value's repr)."""
    msg = str(exc)
    assert type(exc) is ValueError and msg and "\n" not in msg, repr(exc)
    assert any(name in msg for name in names), (msg, names)


@st.composite
def valid_points(draw):
    """A point ``play`` accepts: trivial or random, a level or a small board, a few options."""
    agent = draw(st.sampled_from(GOOD["agent"]))
    point = {"agent": agent}
    if draw(st.integers(0, 3)) == 0:
        point["level"] = "beginner"
    else:
        point["shape"] = draw(st.sampled_from(GOOD["shape"]))
        size = draw(st.sampled_from(["mines", "density"]))
        point[size] = draw(st.sampled_from(GOOD[size]))
    options = ["first_click", "mode", "noise", "first_move"]
    if agent == "trivial":  # random takes first_move only
        options += ["use_total", "methods"]
    for key in draw(st.lists(st.sampled_from(options), unique=True, max_size=3)):
        point[key] = draw(st.sampled_from(GOOD[key]))
    return point


def names_of(value) -> list[str]:
    """How a message may quote ``value``: its repr, or an element's (a key's) for a list (dict)."""
    return [repr(value)[:20]] + ([repr(v)[:20] for v in value] if isinstance(value, list | dict) else [])


@settings(max_examples=25, deadline=None)
@given(valid_points(), st.integers(1, 3), st.integers(0, 5))
def test_run_sweep_fuzz(point, games, seed):
    df = run_sweep([point], games=games, seed=seed, workers=1, progress=False)
    assert len(df) == games and df["game"].tolist() == list(range(games))
    assert (df["agent"] == point["agent"]).all()
    if "shape" in point:
        assert (df["height"] == point["shape"][0]).all() and (df["width"] == point["shape"][1]).all()
    if "mines" in point:
        assert (df["mines"] == point["mines"]).all()


@settings(max_examples=60, deadline=None)
@given(valid_points(), st.sampled_from([*KEYS, "games", "seed"]), junk)
def test_run_sweep_refuses_junk(point, where, bad):
    # one value replaced by junk: a refusal names the key or the value (junk may also be valid)
    games, seed = 2, 1
    if where == "games":
        games = bad
    elif where == "seed":
        seed = bad
    else:
        point[where] = bad
    try:
        df = run_sweep([point], games=games, seed=seed, workers=1, progress=False)
    except ValueError as exc:
        # a first_move pair of non-numbers is refused without its name: test_first_move_pair_of_words
        assert_refusal(exc, where, *names_of(bad), *(["int()"] if where == "first_move" else []))
    else:
        assert len(df) == games


@st.composite
def valid_grids(draw, keys=tuple(k for k in KEYS if GOOD[k] and k != "agent")):
    """A grid of good values, and the keys swept (over a list) rather than fixed."""
    grid, swept = {}, set()
    for key in ["agent", *draw(st.lists(st.sampled_from(keys), unique=True, max_size=4))]:
        if draw(st.booleans()):
            grid[key] = draw(st.sampled_from(GOOD[key]))
        else:
            grid[key] = draw(st.lists(st.sampled_from(GOOD[key]), min_size=1, unique_by=json.dumps))
            swept.add(key)
    return grid, swept


@settings(max_examples=100)
@given(valid_grids())
def test_expand_grid_fuzz(case):
    grid, swept = case
    expanded = expand_grid(grid)
    assert len(expanded) == math.prod(len(grid[k]) for k in swept)
    assert len({json.dumps(p, sort_keys=True) for p in expanded}) == len(expanded)
    for key, value in grid.items():
        seen = {json.dumps(p[key]) for p in expanded}
        assert seen == ({json.dumps(v) for v in value} if key in swept else {json.dumps(value)}), (key, value)


@settings(max_examples=100)
@given(st.dictionaries(st.sampled_from(KEYS), junk | st.lists(junk, max_size=4), max_size=4))
def test_expand_grid_refuses_junk(grid):
    try:
        expanded = expand_grid(grid)
    except ValueError as exc:
        assert_refusal(exc, "'agent'", *map(repr, grid))
    else:
        assert all(isinstance(p, dict) and set(p) == set(grid) for p in expanded)


def plain_word(text: str) -> bool:
    """Read by parse_value as itself: not a boolean or None word, not a number."""
    try:
        float(text)
    except ValueError:
        return text.lower() not in WORDS
    return False


option_values = st.one_of(  # (text, the value parse_option reads from it)
    st.integers(-(10**6), 10**6).map(lambda i: (str(i), i)),
    st.floats(allow_nan=False).map(lambda f: (repr(f), f)),
    st.sampled_from(sorted(WORDS)).flatmap(lambda w: st.sampled_from([w, w.upper(), w.title()]))
    .map(lambda w: (w, WORDS[w.lower()])),
    st.lists(st.integers(0, 9) | st.sampled_from(["rref", "milp"]), max_size=3)
    .map(lambda v: (json.dumps(v), v)),
    st.from_regex(r"[a-z][a-z_-]{0,6}", fullmatch=True).filter(plain_word).map(lambda s: (s, s)),
)


@settings(max_examples=200)
@given(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True), option_values,
       st.sampled_from(["", " "]), st.sampled_from(["", " "]))
def test_parse_option_fuzz(key, value, pad, pad2):
    text, want = value
    option = f"{pad}{key}{pad2}={pad2}{text}{pad}"
    if key in GRID_FLAGS:  # those have their own flag: refused, by name
        try:
            parse_option(option)
        except ValueError as exc:
            assert_refusal(exc, f"--{key.replace('_', '-')}")
        else:
            raise AssertionError(f"{option!r} accepted")
        return
    got_key, got = parse_option(option)
    assert got_key == key and type(got) is type(want) and (got == want or math.isnan(want)), (option, got)


@settings(max_examples=200)
@given(st.text(max_size=20))
def test_parse_option_refuses_junk(text):
    try:
        key, _ = parse_option(text)
    except ValueError as exc:
        assert_refusal(exc, f"--option {text!r}: ")
    else:
        assert key.isidentifier()


@st.composite
def valid_configs(draw):
    grid, _ = draw(valid_grids())
    grid.pop("use_total", None)  # use_total=false cannot be given: see test_config_use_total_false
    doc = {"grid": grid}
    top = {"games": st.integers(1, 9), "seed": st.integers(0, 9), "chunk_size": st.integers(1, 9),
           "out": st.from_regex(r"[a-z]{1,6}", fullmatch=True)}
    for key, values in top.items():
        if draw(st.booleans()):
            doc[key] = draw(values)
    return doc


@settings(max_examples=100)
@given(valid_configs())
def test_load_config_fuzz(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("cfg") / "c.json"
    path.write_text(json.dumps(doc))
    assert load_config(str(path)) == doc


@settings(max_examples=100)
@given(st.dictionaries(st.sampled_from(["games", "seed", "out", "chunk_size", "grid", "workers"]),
                       junk | st.dictionaries(st.sampled_from(KEYS), junk, max_size=3), max_size=5)
       | junk)
def test_load_config_refuses_junk(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("cfg") / "c.json"
    path.write_text(json.dumps(doc))  # NaN and infinities are written as JSON's extension, and read back
    try:
        config = load_config(str(path))
    except ValueError as exc:
        assert_refusal(exc, f"config {path}: ")
    else:
        assert isinstance(config["grid"], dict)


def test_config_false_is_false_for_an_agent_option_and_none_for_the_noise(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"grid": {"agent": "trivial", "level": "beginner", "use_total": False,
                                         "noise": False}}))
    config = load_config(str(path))
    assert config["grid"]["use_total"] is False and config["grid"]["noise"] is None
    df = run_sweep(expand_grid(config["grid"]), games=1, workers=1, progress=False)
    assert df["options"].tolist() == ["use_total=false"] and df["noise"].isna().all()


@settings(max_examples=25)
@given(st.sampled_from(["--agent", "--level", "--shape", "--mines", "--density", "--noise", "--first-move",
                        "--first-click", "--option", "--games", "--chunk-size", "--workers", "--seed"]),
       st.text(alphabet="0123456789.,:x-=aeilnorst[]\"", max_size=8))
def test_cli_sweep_flag_fuzz(tmp_path_factory, flag, value):
    flags = {"--agent": "trivial", "--shape": "5x5", "--mines": "3", "--games": "2", "--workers": "1",
             "--out": str(tmp_path_factory.mktemp("out") / "s")}
    flags[flag] = value
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["sweep", *[x for kv in flags.items() for x in kv], "--no-progress"])
    err = err.getvalue()
    assert code in (0, 2), err
    if code == 2:  # one error line (argparse prints its usage above it)
        lines = err.strip().splitlines()
        assert lines[-1].startswith("sweeplab sweep: error: ") and "Traceback" not in err, err
        assert sum("error:" in line for line in lines) == 1, err


@pytest.mark.parametrize("first_move", [["a", "b"], [None, 1], [True, 0], (2.0, 3), (-1, 0), [1, 2, 3]])
def test_a_first_move_that_is_no_cell_is_refused_by_name(first_move):
    match = r"first_move must be one of .* pair of non-negative integers, got"
    with pytest.raises(ValueError, match=match) as exc:
        run_sweep([{"agent": "trivial", "level": "beginner", "first_move": first_move}], games=1, workers=1,
                  progress=False)
    assert f"got {tuple(first_move)!r}" in str(exc.value)  # the sweep holds a pair as a tuple
