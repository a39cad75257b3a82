"""Fuzzed input to the sweep entry points: a result or a ``ValueError``, nothing else (issue 14)."""

import contextlib
import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.cli import main
from sweeplab.commands.sweep import load_config, parse_option
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


@st.composite
def values(draw, key):
    """A good value for ``key`` most of the time, junk otherwise."""
    good = GOOD[key]
    return draw(st.sampled_from(good)) if good and draw(st.integers(0, 2)) else draw(junk)


@st.composite
def points(draw):
    keys = draw(st.lists(st.sampled_from(KEYS), unique=True, max_size=5))
    point = {"agent": draw(values("agent"))}
    if draw(st.booleans()):
        point["level"] = draw(values("level"))
    else:
        point["shape"] = draw(values("shape"))
        point["mines"] = draw(values("mines"))
    point.update({k: draw(values(k)) for k in keys})
    return point


@settings(max_examples=60)
@given(points(), st.integers(1, 3) | junk, st.integers(0, 5) | junk)
def test_run_sweep_fuzz(point, games, seed):
    try:
        df = run_sweep([point], games=games, seed=seed, workers=1, progress=False)
    except ValueError:
        return
    assert len(df) == games and df["game"].tolist() == list(range(games))


@settings(max_examples=100)
@given(st.dictionaries(st.sampled_from(KEYS), junk | st.lists(junk, max_size=4), max_size=4))
def test_expand_grid_fuzz(grid):
    try:
        expanded = expand_grid(grid)
    except ValueError:
        return
    assert all(isinstance(p, dict) for p in expanded)


@settings(max_examples=200)
@given(st.text(max_size=20))
def test_parse_option_fuzz(text):
    try:
        key, _ = parse_option(text)
    except ValueError:
        return
    assert key.isidentifier()


@settings(max_examples=100)
@given(st.dictionaries(st.sampled_from(["games", "seed", "out", "chunk_size", "grid", "workers"]),
                       junk | st.dictionaries(st.sampled_from(KEYS), junk, max_size=3), max_size=5)
       | junk)
def test_load_config_fuzz(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("cfg") / "c.json"
    try:
        path.write_text(json.dumps(doc))
    except ValueError:  # NaN and infinities are not JSON
        return
    try:
        config = load_config(str(path))
    except ValueError:
        return
    assert isinstance(config["grid"], dict)


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
