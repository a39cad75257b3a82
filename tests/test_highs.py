"""The HiGHS programs behind lp, milp and the prover (sweeplab._highs)."""

from __future__ import annotations

import numpy as np

from sweeplab._highs import solve
from sweeplab.testing.fuzz import fuzz, fuzz_parts


def test_solve_prints_nothing_and_reads_ranges(capfd):
    A = np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]])
    lo, hi = np.array([1.0, 1.0]), np.array([1.0, 2.0])
    s = solve(np.array([1.0, -1.0, 1.0]), A, lo, hi, np.zeros(3), np.ones(3))
    assert s.status == "optimal"
    np.testing.assert_allclose(s.x, [0.0, 1.0, 0.0], atol=1e-9)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_solve_statuses():
    A, three, one = np.array([[1.0, 1.0]]), np.array([3.0]), np.array([1.0])
    infeasible = solve(np.zeros(2), A, three, three, np.zeros(2), np.ones(2), integer=True)
    assert infeasible.status == "infeasible" and infeasible.x is None
    # parity: 2x = 1 has a fractional point only
    B = np.array([[2.0, 0.0]])
    assert solve(np.zeros(2), B, one, one, np.zeros(2), np.ones(2), integer=True).status == "infeasible"
    assert solve(np.zeros(2), B, one, one, np.zeros(2), np.ones(2)).status == "optimal"
    unbounded = solve(-one, np.zeros((0, 1)), np.zeros(0), np.zeros(0), np.zeros(1), np.full(1, np.inf))
    assert unbounded.status == "failed"
    assert solve(np.zeros(0), np.zeros((1, 0)), np.array([0.0]), np.array([1.0]), np.zeros(0),
                 np.zeros(0)).status == "optimal"
    assert solve(np.zeros(0), np.zeros((1, 0)), np.array([1.0]), np.array([1.0]), np.zeros(0),
                 np.zeros(0)).status == "infeasible"


def test_time_limits_do_not_add_up_across_calls():
    A = np.array([[1.0, 1.0]])
    for _ in range(300):  # one solver per call: HiGHS's clock would otherwise run on
        assert solve(np.zeros(2), A, np.array([1.0]), np.array([1.0]), np.zeros(2), np.ones(2),
                     integer=True, time_limit=0.05).status == "optimal"


def test_workers_forked_after_a_solve_do_not_hang():
    fuzz(2, seed=4)  # HiGHS has run in this process
    assert fuzz_parts(6, seed=4, workers=2, part=3) == fuzz(6, seed=4)


def test_node_limit_is_a_status_of_its_own():
    """An exact-cover program that needs branching stops at ``max_nodes`` the same way on every machine."""
    rng = np.random.default_rng(0)  # seeds 0, 2-7 and 9 need more than one node with HiGHS 1.16
    A = rng.integers(0, 2, (20, 50)).astype(float)
    b = A @ rng.integers(0, 2, 50)
    c = rng.normal(size=50)
    args = (c, A, b, b, np.zeros(50), np.ones(50))
    assert solve(*args, integer=True).status == "optimal"
    capped = solve(*args, integer=True, max_nodes=1)
    assert capped.status == "node limit" and capped.x is not None  # HiGHS 1.16 finds a point at the root
    x = np.rint(capped.x)  # the best point found so far, which fits
    np.testing.assert_allclose(A @ x, b)
    assert np.isin(x, (0, 1)).all()


def test_the_public_solver_class_gives_the_same_answers(monkeypatch):
    """The fallback should a highspy release move its private ``_Highs``: same programs, same results."""
    import highspy

    import sweeplab._highs as H

    A = np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]])
    programs = [
        (np.array([1.0, -1.0, 1.0]), A, np.array([1.0, 1.0]), np.array([1.0, 2.0]), False),
        (np.array([-1.0, -1.0, 0.0]), A, np.array([-np.inf, 0.0]), np.array([1.0, 1.0]), True),
        (np.zeros(3), A, np.array([3.0, 3.0]), np.array([3.0, 3.0]), True),
    ]
    private = [solve(c, M, lo, hi, np.zeros(3), np.ones(3), integer=i) for c, M, lo, hi, i in programs]
    monkeypatch.setattr(H, "_Solver", highspy.Highs)
    public = [solve(c, M, lo, hi, np.zeros(3), np.ones(3), integer=i) for c, M, lo, hi, i in programs]
    assert [s.status for s in private] == [s.status for s in public] == ["optimal", "optimal", "infeasible"]
    for (c, M, lo, hi, _), a, b in zip(programs[:2], private[:2], public[:2], strict=True):
        assert abs(c @ a.x - c @ b.x) < 1e-9  # the same optimum (the second has several optimal points)
        assert np.all(M @ b.x >= lo - 1e-9) and np.all(M @ b.x <= hi + 1e-9)
