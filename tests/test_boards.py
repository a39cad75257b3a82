"""Boards graded by method (issue 11 item 5): generate_board, grade, solves, ``sweeplab generate``.

Generated boards are replayed here by a loop written for the test (deduce, reveal the safe cells,
flag the mines, repeat), not by the package's agents: a board is solvable by its method, and by no
method weaker than its grade.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import sweeplab
from sweeplab import Game, deduce, generate_board, grade, load_game
from sweeplab.boards import GRADES, BoardNotFound, generate_boards, solves
from sweeplab.cli import main
from sweeplab.noguess import CASCADE


def replay(layout: np.ndarray, opening: tuple[int, int], method: str, convention: str = "all") -> bool:
    """Whether ``method`` alone, with the total, opens every safe cell from ``opening`` (no guess).

    ``"all"``: reveal every proved safe cell and flag every proved mine, then ask again;
    ``"reveal"``: reveal the safe cells, never flag; ``"single"``: one move per question.
    """
    game = Game.from_layout(layout)
    game.reveal(*opening)
    while game.status == "playing":
        d = deduce(game.observation, method, use_total=True)
        grid = game.observation.grid
        safe = [c for c in sorted(d.safe) if grid[c] == sweeplab.COVERED]
        mines = [c for c in sorted(d.mines) if grid[c] == sweeplab.COVERED]
        assert not any(layout[c] for c in safe), f"{method} called a mine safe"
        assert all(layout[c] for c in mines), f"{method} called a safe cell a mine"
        if convention == "single":
            safe, mines = (safe[:1], []) if safe else ([], mines[:1])
        elif convention == "reveal":
            mines = []
        if not safe and not mines:
            return False
        for r, c in safe:
            if game.status == "playing" and game.observation.grid[r, c] == sweeplab.COVERED:
                game.reveal(r, c)
        for r, c in mines:
            if game.status == "playing":
                game.flag(r, c)
    return game.status == "won"


def check_board(board, method: str) -> None:
    r, c = board.opening
    assert not board.layout[max(r - 1, 0): r + 2, max(c - 1, 0): c + 2].any(), "the opening is not a zero"
    assert replay(board.layout, board.opening, method)
    assert board.grade in GRADES
    assert replay(board.layout, board.opening, board.grade)
    for weaker in CASCADE[: CASCADE.index(board.grade)]:
        assert not replay(board.layout, board.opening, weaker), (board.grade, weaker)


@pytest.mark.parametrize(("level", "method"), [("beginner", "trivial"), ("beginner", "subset"),
                                               ("beginner", "rref"), ("intermediate", "subset")])
def test_generated_boards_are_solved_by_their_method_and_graded(level, method):
    board = generate_board(level, solvable_by=method, seed=11)
    assert board.layout.shape == sweeplab.LEVELS[level].shape
    assert board.mines == sweeplab.LEVELS[level].mines
    assert board.solvable_by == method
    check_board(board, method)


@pytest.mark.parametrize("convention", ["all", "reveal", "single"])
def test_rref_boards_are_solved_under_every_convention(convention):
    """One RREF pass is not monotone; generated boards are checked so that the three conventions agree."""
    board = generate_board(shape=(10, 10), mines=16, solvable_by="rref", exact_grade=True, seed=1)
    assert board.grade == "rref"
    assert replay(board.layout, board.opening, "rref", convention)
    for weaker in ("trivial", "subset"):
        assert not replay(board.layout, board.opening, weaker, convention)


def test_three_conventions_are_not_every_order_for_a_method_that_is_not_monotone():
    """The board of ``sweeplab.boards``' notes: another order of moves, each proved by gfp when played,
    leaves gfp proving nothing while every covered cell is still forced (so the docs claim no more)."""
    board = generate_board(shape=(9, 9), mines=10, solvable_by="gfp", seed=101)
    assert all(replay(board.layout, board.opening, "gfp", c) for c in ("all", "reveal", "single"))
    game = board.game()
    game.reveal(*board.opening)
    path = [("r", (5, 5)), ("r", (0, 6)), ("f", (5, 7)), ("f", (3, 5)), ("r", (4, 2)), ("f", (0, 8)),
            ("f", (2, 5)), ("r", (4, 5)), ("f", (5, 8)), ("r", (6, 5)), ("r", (6, 6)), ("f", (3, 2)),
            ("r", (6, 4)), ("r", (3, 4)), ("r", (5, 6)), ("r", (3, 3)), ("f", (6, 7))]
    for kind, cell in path:
        proved = sweeplab.deduce(game.observation, "gfp")
        assert cell in (proved.safe if kind == "r" else proved.mines)
        game.reveal(*cell) if kind == "r" else game.flag(*cell)
    assert sweeplab.deduce(game.observation, "gfp").cells == frozenset()
    forced = sweeplab.deduce(game.observation, "enumerate")
    covered = int((game.observation.grid == sweeplab.COVERED).sum())
    assert game.status == "playing" and (len(forced.safe), len(forced.mines)) == (29, 3) and covered == 32


def test_exact_grade_needs_the_method():
    board = generate_board(shape=(8, 8), mines=12, solvable_by="rref", exact_grade=True, seed=4)
    assert board.grade == "rref"
    check_board(board, "rref")


def test_same_seed_same_board_and_any_worker_count():
    a = generate_board("beginner", solvable_by="subset", seed=5)
    b = generate_board("beginner", solvable_by="subset", seed=5)
    assert (a.layout == b.layout).all() and a.opening == b.opening and a.tries == b.tries
    one = [(i, b.layout.tolist(), b.opening) for i, b in generate_boards(3, level="beginner", seed=2,
                                                                          solvable_by="trivial")]
    two = [(i, b.layout.tolist(), b.opening) for i, b in generate_boards(2, level="beginner", seed=2, start=1,
                                                                          solvable_by="trivial", workers=2)]
    assert one[1:] == two


def test_the_progress_bar_counts_boards_and_layouts_and_changes_no_board(capsys):
    """An adversarial review: a hard board took minutes with no sign of life."""
    request = {"shape": (16, 16), "mines": 60, "seed": 0, "solvable_by": "trivial"}
    quiet = [(i, b.layout.tolist(), b.tries) for i, b in generate_boards(2, **request)]
    capsys.readouterr()
    shown = [(i, b.layout.tolist(), b.tries) for i, b in generate_boards(2, **request, progress=True)]
    err = capsys.readouterr().err
    assert shown == quiet and quiet[0][2] > 50
    assert "2/2" in err and "layouts tried for the next board" in err
    with pytest.raises(ValueError, match="progress"):
        generate_boards(1, level="beginner", progress="yes")


def test_grade_of_hand_made_boards():
    easy = np.zeros((3, 4), dtype=bool)
    easy[0, 3] = True
    assert grade(easy, (2, 0)) == "trivial"
    fifty = np.zeros((2, 5), dtype=bool)
    fifty[0, 4] = True
    assert grade(fifty, (0, 0)) == "guess"
    assert not solves(fifty, (0, 0), "enumerate")


def test_board_document_round_trip(tmp_path: Path):
    board = generate_board(shape=(6, 6), mines=4, solvable_by="subset", seed=3)
    doc = board.to_dict()
    assert doc["format"] == "sweeplab.game" and doc["moves"] == [] and doc["opening"] == list(board.opening)
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc))
    game = load_game(path)
    assert (game.layout == board.layout).all() and game.moves == []


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"level": "huge"}, "unknown level 'huge'"),
    ({"level": "beginner", "solvable_by": "magic"}, "solvable_by='magic' is not a method"),
    ({"level": "beginner", "solvable_by": "lstsq"}, "not a sound method"),
    ({"shape": (4, 4), "mines": 10}, "around a zero opening anywhere .* opening=\\(0, 0\\)"),
    ({"shape": (4, 4), "mines": 8, "opening": (1, 1)}, "at most 7; at most 12 with a corner opening"),
    ({"shape": (4, 4), "mines": 13, "opening": (0, 0)}, "at \\(0, 0\\) \\(at most 12\\)"),
    ({"level": "beginner", "solvable_by": "gf2", "exact_grade": True}, "exact_grade needs solvable_by"),
    ({"level": "beginner", "max_tries": 0}, "max_tries must be a positive integer"),
    ({"level": "beginner", "opening": (9, 0)}, "outside the 9x9 board"),
    # a string is truthy: exact_grade="no" would silently ask for the exact grade
    ({"level": "beginner", "solvable_by": "subset", "exact_grade": "no"},
     "exact_grade must be True or False"),
])
def test_bad_requests_name_the_value(kwargs, match):
    with pytest.raises(ValueError, match=match):
        generate_board(**kwargs)


@pytest.mark.parametrize(("shape", "mines"), [((3, 3), 1), ((4, 4), 8), ((4, 4), 12)])
def test_a_corner_opening_fits_more_mines_than_an_inner_one(shape, mines):
    """Only the opening's own neighbours must be free: a corner leaves room an inner cell does not."""
    board = generate_board(shape=shape, mines=mines, solvable_by="trivial", opening=(0, 0), seed=0)
    assert board.opening == (0, 0) and board.layout.sum() == mines and not board.layout[:2, :2].any()


@pytest.mark.parametrize("shape", [(1, 2), (2, 2), (2, 1)])
def test_a_board_with_no_room_for_any_zero_does_not_advise_a_corner_opening(shape):
    """On 1x2 or 2x2 every opening's neighbourhood is the whole board: the message said "give
    opening=(0, 0) ... for up to 0", advice that makes no board (found by asking for boards too small)."""
    with pytest.raises(ValueError, match=r"\(at most 0\); no opening leaves room: give fewer mines") as info:
        generate_board(shape=shape, mines=1, solvable_by="trivial", seed=0)
    assert "opening=(0, 0)" not in str(info.value)


def test_a_board_not_found_is_a_value_error_naming_max_tries():
    with pytest.raises(BoardNotFound, match="max_tries=2 layouts; raise max_tries"):
        generate_board("intermediate", solvable_by="lp", exact_grade=True, max_tries=2, seed=0)


def test_a_method_that_refuses_boards_of_the_size_asked_is_named_not_more_tries():
    """An adversarial review: brute (at most 20 frontier cells) cannot solve a 16x16 board's positions, and
    after every try the message said to raise max_tries or ask for a stronger method."""
    with pytest.raises(BoardNotFound, match=r"'brute' refused the last position it met \(brute force over "
                       r".* the limit is max_variables=20 .*\): more tries will not help"):
        generate_board(shape=(16, 16), mines=40, solvable_by="brute", seed=1, max_tries=30)


def test_a_layout_drawn_again_is_not_replayed_again(monkeypatch: pytest.MonkeyPatch):
    # a 3x4 board with 2 mines has a few hundred layouts and openings, and no lp-graded board among them:
    # 20,000 tries replayed each draw (83 s), where every layout is judged once now (about 1 s)
    from sweeplab import boards

    replayed: list[tuple[bytes, tuple[int, int]]] = []
    judge = boards._first_failure

    def counted(layout, opening, method, weaker):
        replayed.append((layout.tobytes(), opening))
        return judge(layout, opening, method, weaker)

    monkeypatch.setattr(boards, "_first_failure", counted)
    with pytest.raises(BoardNotFound, match="max_tries=3000"):
        generate_board(shape=(3, 4), mines=2, solvable_by="lp", exact_grade=True, seed=3, max_tries=3000)
    assert 0 < len(replayed) == len(set(replayed)) < 3000 / 4


def test_grade_refuses_an_opening_that_is_not_a_zero():
    layout = np.zeros((3, 3), dtype=bool)
    layout[0, 0] = True
    with pytest.raises(ValueError, match="not a zero"):
        grade(layout, (1, 1))
    with pytest.raises(ValueError, match="outside"):
        grade(layout, (5, 5))


def test_generate_command_writes_games(tmp_path: Path, capsys: pytest.CaptureFixture):
    out = tmp_path / "boards"
    assert main(["generate", "--shape", "6", "6", "--mines", "4", "--solvable-by", "subset", "--count", "2",
                 "--seed", "1", "--out", str(out)]) == 0
    files = sorted(out.glob("*.json"))
    assert len(files) == 2
    for path in files:
        doc = json.loads(path.read_text())
        game = load_game(path)
        assert game.moves == [] and doc["solvable_by"] == "subset" and doc["grade"] in GRADES
        assert replay(np.asarray(game.layout), tuple(doc["opening"]), "subset")
    printed = capsys.readouterr()
    assert "boards/s" in printed.out and "2/2" in printed.err  # the bar, on stderr
    # the shape written as play writes it names the same boards (same files, nothing regenerated)
    again = tmp_path / "again"
    assert main(["generate", "--shape", "6x6", "--mines", "4", "--solvable-by", "subset", "--count", "2",
                 "--seed", "1", "--out", str(again), "--no-progress"]) == 0
    assert [p.read_text() for p in sorted(again.glob("*.json"))] == [p.read_text() for p in files]
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("argv", "match"), [
    (["--level", "beginner", "--solvable-by", "magic"], "--solvable-by='magic' is not a method"),
    (["--level", "beginner", "--solvable-by", "lstsq"], "--solvable-by='lstsq' is not a sound method"),
    (["--level", "beginner", "--max-tries", "0"], "--max-tries must be an integer >= 1, got 0"),
    (["--shape", "6", "6"], "--shape needs --mines"),
    (["--shape", "6x", "--mines", "3"], "--shape must look like 16x30"),
    (["--shape", "6", "6", "6", "--mines", "3"], "--shape must look like 16x30"),
    (["--level", "beginner", "--count", "0"], "--count must be"),
])
def test_generate_command_errors(tmp_path: Path, capsys: pytest.CaptureFixture, argv, match):
    assert main(["generate", *argv, "--out", str(tmp_path / "x")]) == 2
    assert match in capsys.readouterr().err


def test_generate_never_mixes_boards_made_with_other_options(tmp_path: Path, capsys: pytest.CaptureFixture):
    """Exact-grade boards get names of their own; a board made with another --max-tries is not overwritten."""
    out = tmp_path / "boards"
    base = ["generate", "--shape", "6", "6", "--mines", "6", "--solvable-by", "rref", "--seed", "1", "--out",
            str(out)]
    assert main([*base, "--count", "2"]) == 0
    assert main([*base, "--count", "1", "--exact-grade"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["6x6-6-rref-exact-s1-00000.json", "6x6-6-rref-s1-00000.json", "6x6-6-rref-s1-00001.json"]
    doc = json.loads((out / names[0]).read_text())
    assert doc["grade"] == "rref" and doc["generator"]["exact_grade"] is True
    assert json.loads((out / names[1]).read_text())["generator"]["exact_grade"] is False
    from sweeplab.provenance import made_by

    assert doc["generator"]["made_by"] == {**made_by(), "methods": {}}  # a grade depends on the code
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert main([*base, "--count", "2", "--max-tries", "500"]) == 2
    assert "max_tries 20000 there, 500 here" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # nothing written
    capsys.readouterr()
    assert main([*base, "--count", "2"]) == 0  # the same options again: the same boards, kept
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert "kept 2 of the 2 boards, in" in capsys.readouterr().out
    # resumed: only the missing board is made, and it is the one a single run makes
    last_but_one = names[2]
    (out / last_but_one).unlink()
    assert main([*base, "--count", "3"]) == 0
    printed = capsys.readouterr().out
    assert "kept 1 of the 3 boards, in" in printed and "wrote 2 boards" in printed
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.name in before} == before
    for damaged in ('{"generator": {"seed": 1', '{"generator": {}}'):  # cut off; options but no board
        (out / last_but_one).write_text(damaged)
        assert main([*base, "--count", "3"]) == 0
        assert "holds no board: made again" in capsys.readouterr().out
        assert {p.name: p.read_bytes() for p in out.iterdir() if p.name in before} == before
    assert not list(out.glob(".*"))  # written whole: no part file left
    fresh = tmp_path / "fresh"
    assert main([*base[:-1], str(fresh), "--count", "3"]) == 0
    last = "6x6-6-rref-s1-00002.json"
    assert (fresh / last).read_bytes() == (out / last).read_bytes()
    assert main([*base, "--max-tries", "0"]) == 2  # a bad option is named before any file is compared
    assert "--max-tries must be an integer >= 1, got 0" in capsys.readouterr().err
    # a board written before --opening existed (no "opening" recorded) had none: the same options
    path = out / names[1]
    doc = json.loads(path.read_text())
    del doc["generator"]["opening"]
    path.write_text(json.dumps(doc))
    assert main([*base, "--count", "2"]) == 0
    assert "kept 2 of the 2 boards, in" in capsys.readouterr().out  # kept as it is


def test_generate_takes_the_opening_cell(tmp_path: Path, capsys: pytest.CaptureFixture):
    """3x3 with one mine fits only around a corner opening: the message names --opening, which makes it."""
    base = ["generate", "--shape", "3", "3", "--mines", "1", "--solvable-by", "trivial", "--out",
            str(tmp_path)]
    assert main(base) == 2
    assert "--opening 0 0" in capsys.readouterr().err
    assert main([*base, "--opening", "0", "0"]) == 0
    doc = json.loads(next(tmp_path.iterdir()).read_text())
    assert doc["opening"] == [0, 0] and doc["generator"]["opening"] == [0, 0]


def test_grades_do_not_depend_on_the_machine_speed(request):
    """A starved machine (every time budget spent at once) grades every board as an idle one does."""
    boards = []
    for seed in range(6):
        game = sweeplab.new_game(level="beginner", first_click="zero", seed=seed)
        game.reveal(4, 4)
        boards.append(game.layout.copy())
    before = [grade(layout, (4, 4)) for layout in boards]
    request.getfixturevalue("starved")
    assert [grade(layout, (4, 4)) for layout in boards] == before
    assert len(set(before)) > 1  # boards of more than one grade


def test_generate_takes_plugins(tmp_path, capsys):
    """SPEC §4: every sub-command that takes methods accepts --plugin (generate did not)."""
    out = tmp_path / "boards"
    assert main(["generate", "--plugin", "sweeplab.example_plugin", "--shape", "6", "6", "--mines", "4",
                 "--solvable-by", "rref-reversed", "--count", "1", "--out", str(out)]) == 0
    assert [p.name for p in out.iterdir()] == ["6x6-4-rref-reversed-s0-00000.json"]
    capsys.readouterr()


@pytest.mark.parametrize("opening", [(4.7, 4.2), "44", (True, 4), (4,), None])
def test_an_opening_that_is_not_a_pair_of_integers_is_refused(opening):
    layout = np.zeros((9, 9), dtype=bool)
    layout[0, 8] = True
    with pytest.raises(ValueError, match="opening must be a \\(row, col\\) pair of integers"):
        grade(layout, opening)
    if opening is not None:  # generate_board's default: the corner
        with pytest.raises(ValueError, match="opening must be"):
            generate_board("beginner", opening=opening, seed=1)
    assert grade(layout, (4, 4)) == grade(layout, [np.int64(4), 4]) == "trivial"


def test_grade_given_a_board_says_to_pass_its_layout():
    board = generate_board("beginner", seed=1)
    with pytest.raises(ValueError, match="pass its .layout"):
        grade(board, board.opening)
    assert grade(board.layout, board.opening) == board.grade


def test_use_total_that_is_not_a_bool_is_named_by_grade_and_solves():
    layout = np.zeros((3, 4), dtype=bool)
    layout[0, 3] = True
    with pytest.raises(ValueError, match="use_total must be True or False, got 'no'"):
        grade(layout, (2, 0), use_total="no")
    with pytest.raises(ValueError, match="use_total must be True or False, got 1"):
        solves(layout, (2, 0), "trivial", use_total=1)
    assert grade(layout, (2, 0), use_total=np.bool_(False)) in GRADES


def test_repaired_boards_keep_their_opening_a_zero():
    """Dense boards need repairs (a mine moved off the stuck frontier): none may land by the opening."""
    for seed in range(8):
        board = generate_board(shape=(8, 8), mines=16, solvable_by="subset", opening=(4, 4), seed=seed)
        check_board(board, "subset")


def test_the_grade_without_the_total_is_found_without_it():
    # the total lets the pair rule finish this board; without it one needs an RREF pass
    layout = np.array([[0, 0, 0, 1], [0, 0, 0, 0], [0, 1, 0, 0]], dtype=bool)
    assert grade(layout, (2, 3)) == "subset" and grade(layout, (2, 3), use_total=False) == "rref"
    assert solves(layout, (2, 3), "subset") and not solves(layout, (2, 3), "subset", use_total=False)


def _wrong_pair(obs, *, use_total=True):
    """A bug: beside every clue, the covered cells of the first clue row claimed safe (or all mines)."""
    system = sweeplab.clue_system(obs, use_total=use_total)
    if system.n_equations == 0:
        return set(), set()
    cells = {system.cells[j] for j in np.flatnonzero(system.A[0])}
    return (cells, set()) if system.b[0] < len(cells) else (set(), cells)


@pytest.mark.parametrize("convention", ["all", "reveal", "single"])
def test_a_wrong_claim_of_a_method_registered_sound_is_said_where_the_layout_is_known(convention, tmp_path,
                                                                                      capsys):
    """Generation, grading and reach play on known layouts: a sound method's wrong claim was read as a
    board it cannot solve (another layout tried), so its bug went unseen."""
    sweeplab.register_method("test-wrong-pair", _wrong_pair, sound=True, complete=False)
    try:
        wrong = (r"method 'test-wrong-pair', registered sound, claimed \(\d+, \d+\) (safe|a mine), "
                 r"but it is (a mine|safe) in this layout")
        with pytest.raises(ValueError, match=wrong):
            for seed in range(20):
                layout = np.random.default_rng(seed).random((8, 8)) < 0.2
                layout[:2, :2] = False
                solves(layout, (0, 0), "test-wrong-pair", convention=convention)
        with pytest.raises(sweeplab.errors.MethodBugError, match="registered sound, claimed"):
            generate_board("beginner", solvable_by="test-wrong-pair", seed=1)
        if convention == "all":  # the command line: a method's bug exits 1, bad input 2
            out = tmp_path / "boards"
            assert main(["generate", "--level", "beginner", "--solvable-by", "test-wrong-pair", "--out",
                         str(out)]) == 1
            assert "registered sound, claimed" in capsys.readouterr().err
    finally:
        sweeplab.unregister_method("test-wrong-pair")
    sweeplab.register_method("test-wrong-pair", _wrong_pair, sound=False, complete=False)
    try:  # registered unsound: a wrong claim is a lost game (or a flag too many), as in play
        from sweeplab.noguess import solve_layout

        layouts = [np.random.default_rng(s).random((8, 8)) < 0.2 for s in range(20)]
        for layout in layouts:
            layout[:2, :2] = False
        statuses = {solve_layout(layout, (0, 0), "test-wrong-pair", convention=convention).status
                    for layout in layouts}
        assert "lost" in statuses, statuses
    finally:
        sweeplab.unregister_method("test-wrong-pair")


def test_a_grade_says_the_methods_before_it_fail_not_that_the_later_ones_succeed():
    """grade's docs: the cascade's order is not an order of strength on whole boards.  Single-clue
    rules finish this board; one RREF pass gets stuck on it (the board of grade's example)."""
    layout = np.zeros((6, 4), dtype=bool)
    layout[[0, 1, 4, 5], [2, 2, 1, 3]] = True
    assert grade(layout, (0, 0)) == "trivial"
    assert not replay(layout, (0, 0), "rref")
    assert all(replay(layout, (0, 0), m) for m in ("subset", "bounded", "lp", "enumerate"))
    assert "not an order of strength" in " ".join(grade.__doc__.split())


def test_grade_docs_count_the_boards_a_later_method_of_the_cascade_fails():
    """The figures grade's docstring quotes, on the 300 boards it names (bounded's came from before it read
    the reduced rows with and without the total: 12 of the boards of grade subset, now 3)."""
    from collections import Counter

    from sweeplab.boards import _draw

    rng = np.random.default_rng(0)
    counts: Counter = Counter()
    for _ in range(300):
        layout, opening = _draw(rng, (9, 9), 14, None)
        g = grade(layout, opening)
        counts[g] += 1
        if g in ("trivial", "subset"):
            counts.update((g, m) for m in ("rref", "bounded") if not solves(layout, opening, m))
    assert (counts["trivial"], counts["trivial", "rref"], counts["trivial", "bounded"]) == (41, 8, 0)
    assert (counts["subset"], counts["subset", "rref"], counts["subset", "bounded"]) == (131, 59, 3)
    doc = " ".join(grade.__doc__.split())
    assert "failed on 8 of the 41" in doc and "59 of the 131" in doc
    assert "``bounded`` on 3 of those 131" in doc


def test_generate_refuses_a_board_graded_by_other_code(tmp_path: Path):
    """A reviewer: a kept board's grade came from a plugin method since edited (and boards from before
    boards recorded their code were kept too); a sweep refuses to resume so."""
    import os
    import subprocess
    import sys

    plugin = tmp_path / "myplug.py"
    source = ("import sweeplab\n\n\ndef mine(obs, *, use_total=True):\n"
              "    d = sweeplab.deduce(obs, 'subset', use_total=use_total)\n    return d.safe, d.mines\n\n\n"
              "sweeplab.register_method('mine', mine, sound=True, complete=False)\n")
    plugin.write_text(source)
    out = tmp_path / "boards"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def generate(count: int) -> subprocess.CompletedProcess:
        argv = [sys.executable, "-m", "sweeplab", "generate", "--plugin", "myplug", "--shape", "6", "6",
                "--mines", "5", "--solvable-by", "mine", "--seed", "1", "--count", str(count),
                "--out", str(out)]
        return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)

    assert generate(1).returncode == 0
    path = next(out.iterdir())
    assert json.loads(path.read_text())["generator"]["made_by"]["methods"]  # the plugin's fingerprint
    assert "kept 1 of the 1" in generate(1).stdout  # the same code: kept
    before = path.read_bytes()
    plugin.write_text(source.replace("'subset'", "'trivial'"))  # the method edited
    done = generate(2)
    assert done.returncode == 2 and "graded by other code (its methods fingerprint differs" in done.stderr
    assert path.read_bytes() == before and len(list(out.iterdir())) == 1  # nothing written
    plugin.write_text(source)
    doc = json.loads(before)
    del doc["generator"]["made_by"]  # a board from before boards recorded their code
    path.write_text(json.dumps(doc))
    done = generate(1)
    assert done.returncode == 2 and "fingerprint is not recorded" in done.stderr
