"""Agents: the registry, first moves, each agent on fixed positions as its report says."""

import re

import numpy as np
import pandas.testing as pd_testing
import pytest

import sweeplab
from sweeplab import AGENTS, Observation
from sweeplab.agents import Move, make_agent
from sweeplab.agents.base import Agent
from sweeplab.agents.best import endgame_choice, endgame_layouts
from sweeplab.agents.reductio import local_estimates
from sweeplab.simulate import play_game

# The 1-2-1 pattern: no single clue decides, the three together do (report 001's A+B+C=1, A+C+D=2 idea).
ONE_TWO_ONE = Observation.from_text("???\n121\n...", mines=2)
# Report 000 §2.2.4's point: two layouts fit and no clue tells them apart (a 50/50).
TWO_WAYS = Observation.from_text("??\n11\n..", mines=1)


def rng():
    return np.random.default_rng(0)


def test_registry_names_references_and_options():
    for name, info in AGENTS.items():
        agent = make_agent(name)
        assert agent.name == name and info.reference
    assert not AGENTS["lstsq"].sound and AGENTS["csp"].sound
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("genius")
    with pytest.raises(ValueError, match="agent .trivial. has no option .colour.; its options: first_move"):
        make_agent("trivial", colour="red")
    with pytest.raises(ValueError, match="unknown method"):
        make_agent("chain", methods=("magic",))


@pytest.mark.parametrize("first_move, cell", [("corner", (0, 0)), ("centre", (8, 15)), ((3, 4), (3, 4))])
def test_first_moves(first_move, cell):
    obs = Observation(np.full((16, 30), -1), mines=99)
    for name in AGENTS:
        if name == "random":
            continue
        moves = make_agent(name, first_move=first_move).next_moves(obs, rng())
        assert moves == [Move("reveal", *cell, "first")]


def test_random_and_bad_first_moves():
    obs = Observation(np.full((9, 9), -1), mines=10)
    cells = {make_agent("trivial", first_move="random").next_moves(obs, np.random.default_rng(s))[0][1:3]
             for s in range(20)}
    assert len(cells) > 5 and all(0 <= r < 9 and 0 <= c < 9 for r, c in cells)
    with pytest.raises(ValueError, match="outside"):
        make_agent("trivial", first_move=(9, 0)).next_moves(obs, rng())
    with pytest.raises(ValueError, match="first_move"):
        make_agent("trivial", first_move="middle")
    with pytest.raises(ValueError, match=r"got '3,3' \(a pair is written \[3,3\]\)"):
        make_agent("trivial", first_move="3,3")  # as --agent "best first_move=3,3" gives it


def test_the_random_opening_is_first_for_every_agent():
    """A reviewer: random labelled its opening "guess", the others "first": its mean guesses ran 1 higher."""
    for name in ("random", "trivial", "csp"):
        games = sweeplab.play(name, shape=(3, 3), mines=0, games=3, seed=1)
        assert games.moves.tolist() == [1, 1, 1] and games.guesses.tolist() == [0, 0, 0], name
    blank = Observation(np.full((4, 4), -1), mines=3)
    assert [m.source for m in make_agent("random").next_moves(blank, rng())] == ["first"]


@pytest.mark.parametrize("text, mines", [("F1\n11", 1), ("FF\n22", 2), ("**\n22", 2), ("0", 0)])
def test_no_move_when_no_cell_is_covered(text, mines):
    """A reviewer: best and best-v1 raised numpy's "zero-size array" on a position with every cell shown."""
    obs = Observation.from_text(text, mines=mines)
    for name in AGENTS:
        assert make_agent(name).next_moves(obs, rng()) == [], name


def test_agents_need_nothing_but_an_observation():
    # A bare Observation (no game behind it) is all an agent gets; the same one gives the same moves.
    for name in ("random", "trivial", "rref", "lstsq"):
        agent = make_agent(name)
        assert agent.next_moves(ONE_TWO_ONE, rng()) == agent.next_moves(ONE_TWO_ONE, rng())


def test_trivial_single_clue_rules_then_random_guess():
    agent = make_agent("trivial")
    assert agent.next_moves(Observation.from_text("?1\n11"), rng()) == [Move("flag", 0, 0, "trivial")]
    assert [m.source for m in agent.next_moves(ONE_TWO_ONE, rng())] == ["guess"]
    assert [m.source for m in agent.next_moves(TWO_WAYS, rng())] == ["guess"]


def test_rref_solves_one_two_one():
    moves = make_agent("rref").next_moves(ONE_TWO_ONE, rng())
    expected = [Move("flag", 0, 0, "rref"), Move("flag", 0, 2, "rref"), Move("reveal", 0, 1, "rref")]
    assert sorted(moves) == expected


def test_lstsq_claims_after_trivial():
    moves = make_agent("lstsq").next_moves(ONE_TWO_ONE, rng())
    assert {m.source for m in moves} == {"lstsq"}
    assert (0, 1) in {(m.row, m.col) for m in moves if m.kind == "reveal"}


def test_wrong_claims_are_counted():
    class Reckless(Agent):
        """Claims every covered cell safe: unsound on purpose."""

        name = "reckless"

        def certain_moves(self, obs):
            return [Move("reveal", int(r), int(c), "lstsq") for r, c in np.argwhere(obs.grid == -1)]

    game = sweeplab.Game.from_layout([[1, 0, 0], [0, 0, 0], [0, 0, 1]])
    out = play_game(Reckless(first_move="centre"), game, rng())
    # both mines were claimed safe in one turn: two wrong claims, though the game ended on the first
    assert out["wrong_claims"] == 2 and out["status"] == "lost" and out["mines_hit"] == 1


def test_wrong_certain_flags_are_counted_and_guessed_flags_are_not():
    class Flagger(Agent):
        """Flags the first two covered cells: the first as certain, the second as a guess."""

        name = "flagger"

        def certain_moves(self, obs):
            covered = [tuple(int(v) for v in rc) for rc in np.argwhere(obs.grid == -1)]
            if len(covered) < 7:
                return []
            (r0, c0), (r1, c1) = covered[:2]
            return [Move("flag", r0, c0, "subset"), Move("flag", r1, c1, "guess")]

    # both flags land on safe cells (only (2, 2) is a mine): one wrong claim, from the certain flag
    game = sweeplab.Game.from_layout([[0, 0, 0], [0, 0, 0], [0, 0, 1]])
    out = play_game(Flagger(first_move="centre"), game, rng())
    assert out["flags"] == 2 and out["certain_subset"] == 1 and out["wrong_claims"] == 1


def test_reductio_local_estimate_and_better_decision():
    # report 001 "Better Decisions": (clue - identified mines) / unidentified cells, maximum over neighbours
    est = local_estimates(Observation.from_text("2??\n1??\n???").grid)
    assert est[0, 1] == 1.0 and est[2, 0] == 0.25 and np.isnan(est[2, 2])
    agent = make_agent("reductio", methods=("trivial",))
    cells = {agent.guess(Observation.from_text("2??\n1??\n???", mines=3), np.random.default_rng(s))
             for s in range(10)}
    assert cells == {(2, 0), (2, 1)}
    plain = make_agent("reductio", methods=("trivial",), better_decisions=False)
    cells = {plain.guess(Observation.from_text("2??\n1??\n???", mines=3), np.random.default_rng(s))
             for s in range(30)}
    assert len(cells) > 2


def test_endgame_listing_and_search():
    cells, layouts = endgame_layouts(Observation.from_text("1?\n??", mines=1))
    assert layouts.shape == (3, 3)
    cell, win = endgame_choice(Observation.from_text("1?\n??", mines=1), layouts, cells)
    assert cell in cells and win == pytest.approx(1 / 3)
    cells, layouts = endgame_layouts(TWO_WAYS)
    assert layouts.shape[0] == 2
    cell, win = endgame_choice(TWO_WAYS, layouts, cells)
    assert win == pytest.approx(0.5)


def test_csp_and_reductio_solve_what_trivial_cannot():
    for name in ("csp", "reductio", "probability", "best"):
        moves = make_agent(name).next_moves(ONE_TWO_ONE, rng())
        assert {(m.kind, m.row, m.col) for m in moves} == {("flag", 0, 0), ("flag", 0, 2), ("reveal", 0, 1)}
        assert [m.source for m in make_agent(name).next_moves(TWO_WAYS, rng())] == ["guess"]


def test_probability_agent_border_versus_interior():
    agent = make_agent("probability")
    # one clue in a corner: border cells 1/3; the interior is safer with few mines, riskier with many
    text = "1????\n?????\n?????\n?????\n?????"
    border = {(0, 1), (1, 0), (1, 1)}
    def guesses(mines):
        moves = [agent.next_moves(Observation.from_text(text, mines=mines), np.random.default_rng(s))
                 for s in range(5)]
        assert all(len(m) == 1 and m[0].source == "guess" for m in moves)
        return {(m[0].row, m[0].col) for m in moves}

    few, many = guesses(2), guesses(15)
    assert not few & border and many <= border


@pytest.mark.parametrize("name", ["csp", "reductio", "probability", "best", "rref", "trivial"])
def test_sound_agents_make_no_wrong_claims(name):
    df = sweeplab.play(name, level="beginner", games=6, seed=4)
    assert (df["wrong_claims"] == 0).all()


@pytest.mark.parametrize("noise", [("under", 0.3), ("over", 0.3), ("lost", 0.3)])
def test_noise_aware_agents_stay_sound(noise):
    df = sweeplab.play("csp", shape=(8, 8), mines=8, games=6, seed=1, noise=noise, mode="score")
    assert (df["wrong_claims"] == 0).all() and (df["status"] == "won").all()


def test_score_mode_flags_deduced_mines():
    df = sweeplab.play("trivial", level="beginner", games=10, seed=6, mode="score")
    assert df["flags"].sum() > 0 and (df["wrong_claims"] == 0).all()


def test_auto_first_move_follows_the_first_click_rule():
    best = make_agent("best")
    assert best.first_move == "auto"
    assert best.for_rules(first_click="zero", shape=(16, 30)).first_move == (2, 2)  # total not given
    assert best.for_rules(first_click="safe", shape=(16, 30)).first_move == "corner"
    # best: (3, 3) on an expert-dense board under the zero rule, (2, 2) on sparser ones; best-v1 as it was
    assert best.for_rules(first_click="zero", shape=(16, 30), mines=99).first_move == (3, 3)
    assert best.for_rules(first_click="zero", shape=(16, 16), mines=40).first_move == (2, 2)
    assert best.for_rules(first_click="safe", shape=(16, 30), mines=99).first_move == "corner"
    assert make_agent("best-v1").for_rules(first_click="zero", shape=(16, 30), mines=99).first_move == (2, 2)
    # play gives for_rules the total
    for level, cell in (("expert", "3,3"), ("intermediate", "2,2"), ("beginner", "2,2")):
        played = sweeplab.play("best", level=level, games=1, seed=3, first_click="zero")
        assert played["first_move"][0] == cell
    assert make_agent("trivial").for_rules(first_click="zero", shape=(9, 9)).first_move == "random"


def test_best_credits_coin_flips_under_the_zero_rule_on_expert_only():
    from sweeplab.agents.best import ZERO_RULE_CREDIT

    best = make_agent("best")
    assert best.coin_flip_credit is None  # decided by the rules
    expert_rules = {"first_click": "zero", "shape": (16, 30), "mines": 99}
    expert_zero = best.for_rules(**expert_rules)
    assert expert_zero.coin_flip_credit == ZERO_RULE_CREDIT == 0.9 and expert_zero.first_move == (3, 3)
    assert expert_zero.for_rules(**expert_rules) == expert_zero  # idempotent
    for rules in ({"first_click": "safe", "shape": (16, 30), "mines": 99},
                  {"first_click": "zero", "shape": (16, 16), "mines": 40},  # intermediate: not measured
                  {"first_click": "zero", "shape": (16, 30)}):  # total unknown: density unknown
        assert best.for_rules(**rules).coin_flip_credit == 0.0, rules
    # a value the user gives is kept, 0 included
    for given in (0, 0.0, 0.4, 1):
        assert make_agent("best", coin_flip_credit=given).for_rules(**expert_rules).coin_flip_credit == given
    with pytest.raises(ValueError, match=r"coin_flip_credit must be a number from 0 to 1 or None, got 2"):
        make_agent("best", coin_flip_credit=2)
    with pytest.raises(ValueError, match="coin_flip_credit must be a number from 0 to 1 or None, got 'x'"):
        make_agent("best", coin_flip_credit="x")
    # play and compare hand the rules over: the credit changes expert zero-start games, not safe-corner ones
    played = ["won", "moves", "guesses"]
    for first_click, credit in (("zero", 0.9), ("safe", 0)):
        kw = {"level": "expert", "games": 10, "seed": 11, "first_click": first_click}
        tuned = sweeplab.play("best", **kw)[played]
        assert tuned.equals(sweeplab.play("best", coin_flip_credit=credit, **kw)[played]), first_click
        assert not tuned.equals(sweeplab.play("best", coin_flip_credit=0.9 - credit, **kw)[played])


NARROW = [((1, 30), 5), ((2, 10), 3), ((2, 2), 1), ((3, 3), 1), ((4, 30), 20)]


@pytest.mark.parametrize("shape, mines", NARROW)
def test_every_agent_plays_narrow_boards_under_both_rules(shape, mines):
    """Boards too narrow for the zero rule's (2, 2): a corner first (``best`` once read past 2 rows)."""
    for name in AGENTS:
        for first_click in ("safe", "zero"):
            if first_click == "zero" and shape == (2, 2):
                continue  # a zero first click cannot fit there: refused by the game (tests/test_game.py)
            agent = make_agent(name).for_rules(first_click=first_click, shape=shape, mines=mines)
            assert agent.first_move in ("corner", "random"), (name, shape, first_click)
            kw = {"shape": shape, "mines": mines, "games": 3, "seed": 5, "first_click": first_click,
                  "workers": 1}
            if first_click == "zero" and shape == (3, 3) and agent.first_move == "random":
                with pytest.raises(ValueError, match="first_move='random' may open a cell such as"):
                    sweeplab.play(name, **kw)  # the centre leaves no room for its 9 free cells
                continue
            df = sweeplab.play(name, **kw)
            assert df["status"].isin(["won", "lost"]).all(), (name, shape, first_click)


@pytest.mark.parametrize("mode", ["classic", "score"])
def test_every_agent_plays_every_mode_and_noise(mode):
    for name, info in AGENTS.items():
        for noise in (None, ("lost", 0.3), ("under", 0.3), ("over", 0.3)):
            df = sweeplab.play(name, shape=(6, 6), mines=6, games=1, seed=3, mode=mode, noise=noise)
            if info.sound:
                assert (df["wrong_claims"] == 0).all(), (name, noise)
            if mode == "score":
                assert (df["status"] == "won").all(), (name, noise)


@pytest.mark.parametrize("agent, options", [
    ("rref", {}), ("probability", {}), ("best", {}), ("chain", {"methods": ("trivial", "lp", "milp", "gfp")}),
])
def test_moves_do_not_depend_on_the_machine_speed(request, agent, options):
    """Every wall-clock budget spent at once (a starved or suspended worker): the same games, move by move."""

    def played():
        return sweeplab.play(agent, level="intermediate", games=3, seed=5, **options)

    before = played()
    request.getfixturevalue("starved")
    with pytest.raises(sweeplab.MethodRefused):  # the patch bites: a timed call refuses at once
        sweeplab.deduce("?1?\n1??", "lp", time_limit=10)
    timings = [c for c in before.columns if c.startswith("seconds")]
    pd_testing.assert_frame_equal(played().drop(columns=timings), before.drop(columns=timings))


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_options_of_the_wrong_type_are_refused_by_name(name):
    """A typo must not pass as an option: "maybe" is not true, "ten" not a number (a bool is not a number)."""
    import dataclasses
    import typing

    cls = AGENTS[name].cls
    hints = typing.get_type_hints(cls)
    wrong = {bool: ["maybe", 1, None], int: ["ten", 3.0, True], float: ["abc", None, False], str: [3, None]}
    fields = [f for f in dataclasses.fields(cls) if f.name not in cls.unused_options]  # those are refused
    checked = 0
    for field in fields:
        for value in wrong.get(hints[field.name], []):
            with pytest.raises(ValueError, match=f"option {field.name} must be .*, got {value!r}"):
                make_agent(name, **{field.name: value})
            checked += 1
    assert checked > 0 or [f.name for f in fields] == ["first_move"]  # random: a cell or a word, below
    with pytest.raises(ValueError, match="first_move"):
        make_agent(name, first_move="middle")
    ok = {f.name: getattr(make_agent(name), f.name) for f in fields}
    assert make_agent(name, **ok) == make_agent(name)  # the defaults pass, numpy scalars too
    numeric = {k: np.float64(v) if hints[k] is float else np.int64(v) for k, v in ok.items()
               if hints[k] in (int, float)}
    assert make_agent(name, **numeric) == make_agent(name, **ok)


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_options_out_of_their_range_are_refused_with_the_range_and_default(name):
    """A negative tolerance left no candidate, so games ended "stuck" as losses without a word."""
    cls = AGENTS[name].cls
    limits = {k: v for k, v in cls.option_limits.items() if k not in cls.unused_options}
    assert ("max_nodes" in limits) == ("max_nodes" not in cls.unused_options)
    for option, limit in limits.items():
        default = getattr(make_agent(name), option)
        if all(isinstance(v, str) for v in limit):
            bad, good = [limit[0].upper(), "none"], list(limit)
        else:
            low, high = limit
            step = 1 if isinstance(default, int) else 0.5
            bad = ([low - step] if low is not None else []) + ([high + step] if high is not None else [])
            good = [v for v in (low, high) if v is not None] + ([10**30] if high is None else [])
            if isinstance(default, float):
                bad += [float("nan"), float("inf")]
        for value in bad:
            with pytest.raises(ValueError) as err:
                make_agent(name, **{option: value})
            assert (f"{name}: option {option} must be" in str(err.value)
                    and f"got {value!r} (default {default!r})" in str(err.value)), str(err.value)
        for value in good:
            assert getattr(make_agent(name, **{option: value}), option) == value


def test_option_values_valid_before_the_ranges_still_are():
    """A reviewer's cases: max_nodes=0 (straight to enumeration's dynamic programme) and budgets past 2**64
    (no budget) were valid, as are a tolerance above 1 and negative weights (experiments)."""
    for name, options in [("probability", {"max_nodes": 0}), ("best", {"max_nodes": 2**64}),
                          ("best", {"endgame_budget": 10**30}), ("best", {"tolerance": 1.5}),
                          ("best", {"progress_bonus": -0.1, "progress_weight": -1.0})]:
        agent = make_agent(name, **options)
        assert all(getattr(agent, k) == v for k, v in options.items())
    assert not sweeplab.play("probability", level="beginner", games=2, seed=0, max_nodes=0).empty


def test_the_range_words_name_the_limits():
    from sweeplab.agents.best import BestAgent

    for option, words in [("tolerance", "a number at least 0"), ("lookahead", "a whole number at least 0"),
                          ("candidates", "one of ('auto', 'wide', 'frontier', 'score')")]:
        with pytest.raises(ValueError, match=re.escape(f"option {option} must be {words}, got")):
            BestAgent(**{option: -1 if option != "candidates" else "all"})


@pytest.mark.parametrize("name", ["probability", "best", "best-v1"])
def test_agents_guessing_by_probability_need_enumeration(name):
    """Without ``enumerate`` these agents had no probabilities and guessed uniformly at random."""
    with pytest.raises(ValueError, match="methods must include 'enumerate'"):
        make_agent(name, methods=("trivial",))
    with pytest.raises(ValueError, match="methods must include 'enumerate'"):
        make_agent(name, methods=())
    assert make_agent(name, methods=("enumerate",)).methods == ("enumerate",)


def test_the_edges_of_best_options_still_play_every_game_to_an_end():
    """tolerance 0 and no lookahead or endgame search: every game is won or lost, none stuck."""
    import sweeplab as sl

    games = sl.play("best", level="intermediate", games=6, seed=5, tolerance=0.0, lookahead=0,
                    endgame_layouts=0)
    assert set(games["status"]) <= {"won", "lost"} and len(games) == 6


def test_a_plugin_agent_with_a_loose_default_still_works():
    """Only values given are checked: a default of another type (``limit: int = None``) is the author's."""
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class Patient(Agent):
        limit: int = None  # type: ignore[assignment]
        name = "patient"

    assert Patient().limit is None and Patient(limit=3).limit == 3
    with pytest.raises(ValueError, match="patient: option limit must be a whole number, got 'x'"):
        Patient(limit="x")


def test_a_chain_naming_a_method_twice_is_refused():
    with pytest.raises(ValueError, match="name 'rref' twice"):
        make_agent("chain", methods=("trivial", "rref", "rref"))
    assert make_agent("chain", methods=("trivial", "rref")).methods == ("trivial", "rref")


@pytest.mark.parametrize("methods", [{"trivial": 1}, {"trivial", "rref"}, frozenset({"rref"}), 5])
def test_a_chain_without_an_order_is_refused(methods):
    """A dict was taken as its keys and a set in whatever order it iterates: a chain is tried in order."""
    with pytest.raises(ValueError, match=r"methods must be method names in order, .* got "):
        make_agent("chain", methods=methods)
    assert make_agent("chain", methods=["trivial", "rref"]).methods == ("trivial", "rref")


def test_a_chain_from_a_registry_view_keeps_its_order_and_a_cascade_refuses_a_set():
    from sweeplab.reach import cascade_games

    assert make_agent("chain", methods=sweeplab.METHODS.keys()).methods == tuple(sweeplab.METHODS)
    with pytest.raises(ValueError, match="methods must be method names in order, .*a set has no order"):
        cascade_games(level="beginner", games=1, methods={"trivial", "rref"})


@pytest.mark.parametrize(("value", "hint"), [(1e6, True), (-1.0, False), (1e30, False), (2.5, False)])
def test_the_digits_hint_only_names_a_value_that_would_pass(value, hint):
    """A review: -1.0 was told 'write it as digits, -1', still refused; 1e30 got 31 digits."""
    from sweeplab.agents.best import BestAgent

    with pytest.raises(ValueError, match="endgame_budget must be a whole number") as info:
        BestAgent(endgame_budget=value)
    assert ("write it as digits" in str(info.value)) == hint


@pytest.mark.parametrize("agent", ["best", "best-v1"])
def test_the_endgame_holds_at_most_a_million_layouts(agent):
    """A review: endgame_layouts=2**70 was taken, and the search listed every layout of the position
    (up to 10^18 over 64 cells): six expert games had not ended after four minutes."""
    from sweeplab.agents.best_v1 import MAX_ENDGAME_LAYOUTS

    with pytest.raises(ValueError, match=f"{agent}: option endgame_layouts must be a whole number from 0 to "
                                         f"{MAX_ENDGAME_LAYOUTS}, got {2**70}"):
        make_agent(agent, endgame_layouts=2**70)
    assert make_agent(agent, endgame_layouts=MAX_ENDGAME_LAYOUTS).endgame_layouts == MAX_ENDGAME_LAYOUTS


def test_the_sampled_endgame_draws_at_most_a_million_layouts():
    """A judge's review: sampled_endgame=10**7 ran past 140 s on one game, and 10**8 ran out of memory with
    advice to shrink the board."""
    from sweeplab.agents.best_v1 import MAX_ENDGAME_LAYOUTS

    with pytest.raises(ValueError, match=f"option sampled_endgame must be a whole number from 0 to "
                                         f"{MAX_ENDGAME_LAYOUTS}, got {10**7}"):
        make_agent("best", sampled_endgame=10**7)
    assert make_agent("best", sampled_endgame=MAX_ENDGAME_LAYOUTS).sampled_endgame == MAX_ENDGAME_LAYOUTS


def test_random_opens_the_first_move_asked_for_and_a_random_one_by_default():
    """An adversarial review: random took first_move (documented, and recorded in the results) and always
    opened a random cell."""
    blank = Observation.from_text("????\n????\n????")
    rng = np.random.default_rng(0)
    for asked, cell in (("corner", (0, 0)), ((1, 2), (1, 2))):
        move = make_agent("random", first_move=asked).next_moves(blank, rng)[0]
        assert (move.row, move.col, move.source) == (*cell, "first")
    # the report's agent opens a random cell, labelled "first" as every agent's opening (it was "guess")
    assert make_agent("random").next_moves(blank, rng)[0].source == "first"


def test_a_random_first_move_the_zero_rule_may_not_clear_is_refused_before_any_game():
    """It failed at the first game that drew an interior cell, with advice a random move cannot follow."""
    with pytest.raises(ValueError, match=r"first_move='random' may open a cell such as \(1, 1\)"):
        sweeplab.play("trivial", shape=(4, 4), mines=9, first_click="zero", first_move="random", games=5)
    corner = sweeplab.play("trivial", shape=(4, 4), mines=9, first_click="zero", first_move="corner", games=5)
    assert len(corner) == 5
