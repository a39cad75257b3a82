# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 5. Bounds, LP and integers: from relaxations to exact answers
#
# Linear algebra forgets that every cell is 0 or 1. This notebook adds that knowledge back in
# increasing strength:
#
# 1. **bounded deduction** — bounds propagation ([notebook 2](02_rref_step_by_step.ipynb): a cell value that
#    would push the rest of its row out of range is impossible; it contains the row bound rule) on RREF rows
#    *and* the original rows, with substitution and the total-mines row, repeated until a pass fixes nothing
#    new (a *fixpoint*: `bounded`). The total row enters the row reduction and changes the reduced rows, so
#    `bounded` reads the rows both with and without it: the total never hides a row
#    ([notebook 14](14_how_far_linear_algebra_gets.ipynb) counts the positions where reading only the rows
#    with the total lost cells). It row-reduces only after substituting what the original rows fix: the RREF
#    it reads is that of the substituted system, which can differ from a single `rref` pass, so `bounded` does
#    not contain `rref`: on `smallest-rref-beats-bounded` below each proves 3 of the 5 forced cells, `rref`
#    the mines `(2,0)` and `(2,2)`, which `bounded` misses, and `bounded` the safe `(0,1)` and `(1,0)`, which
#    `rref` misses;
# 2. **the LP relaxation** — keep $0 \le x \le 1$ but allow fractions: a cell whose maximum is 0 is
#    safe, whose minimum is 1 is a mine (`lp`, HiGHS through `highspy`);
# 3. **integers** — proof by contradiction with an integer program per cell (`milp`: report 000's
#    OR-tools CSP, report 001's reductio agent), and exact enumeration of every layout (`enumerate`,
#    report 004's backtracking over split borders), which also gives exact probabilities.

# %%
# %matplotlib inline
import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.optimize import linprog

import sweeplab
from sweeplab.corpus import midgame_positions
from sweeplab.examples import EXAMPLES
from sweeplab.experiments import preset_from_env
from sweeplab.explorer import clue_table

PRESET = preset_from_env()
METHODS = ("trivial", "rref", "bounded", "lp", "milp", "enumerate")

# %% [markdown]
# ## Every method on the catalogue of example positions
#
# `sweeplab.examples` keeps the reports' boards, classic patterns and counterexamples with their
# complete answers. Cells proved by each method (`=` means it found the complete answer):

# %%
rows = []
for name, ex in EXAMPLES.items():
    row = {"example": name, "forced": len(ex.safe) + len(ex.mines)}
    for method in METHODS:
        d = sweeplab.deduce(ex.observation, method=method)
        complete = d.safe == ex.safe and d.mines == ex.mines
        row[method] = f"{len(d)}{'=' if complete else ''}"
    rows.append(row)
pd.DataFrame(rows).set_index("example")

# %% [markdown]
# Read across a row: only the complete methods solve every example. `bounded` and `lp` are *incomparable*: on
# `subset-beats-rref` (named for the `subset` rule, which subtracts a clue whose cells lie inside another's;
# [notebook 15](15_proofs.ipynb) shows it) the LP finds what bounded propagation misses (a consequence of
# several rows at once), while on `gfp-beats-rref` bounded propagation solves everything and the LP finds
# nothing — propagation rounds each bound to an integer (a sum at most 3/2 of 0/1 cells is at most 1), an
# integer argument the LP relaxation cannot make (cutting planes, such as Chvátal–Gomory rounding, add exactly
# this argument to an LP).
#
# ## The LP relaxation, and where it misses an integer deduction
#
# The LP keeps every linear consequence of the clues and of $0 \le x \le 1$, so it subsumes the row
# bound rule on any row. What it cannot see is integrality: a fractional point can satisfy every
# equation where no 0/1 layout does. The example below is such a position.

# %%
ex = EXAMPLES["lp-needs-integrality"]
print(ex.source, "—", ex.description)
obs = ex.observation
system = sweeplab.clue_system(obs)
clue_table(system)

# %% [markdown]
# For display, the range of each cell over the LP polytope (two small linear programs per cell), beside
# the range over the integer layouts (listed exhaustively: the position is tiny):

# %%
A = system.A.astype(float)
n = system.n_variables
bounds = [(0, 1)] * n
layouts = np.array([v for v in itertools.product((0, 1), repeat=n)
                    if np.array_equal(system.A @ np.array(v), system.b)])
ranges = []
for j, cell in enumerate(system.cells):
    c = np.zeros(n)
    c[j] = 1
    lo = linprog(c, A_eq=A, b_eq=system.b, bounds=bounds).fun
    hi = -linprog(-c, A_eq=A, b_eq=system.b, bounds=bounds).fun
    ranges.append({"cell": cell, "LP min": round(lo, 3), "LP max": round(hi, 3),
                   "integer min": layouts[:, j].min(), "integer max": layouts[:, j].max()})
pd.DataFrame(ranges)

# %%
fig, axes = plt.subplots(1, 3, figsize=(10, 3))
for ax, method in zip(axes, ("lp", "milp", "enumerate"), strict=True):
    d = sweeplab.deduce(obs, method=method)
    sweeplab.plot_position(obs, ax=ax, safe=d.safe, mines=d.mines)
    ax.set_title(f"{method}: {len(d.safe)} safe, {len(d.mines)} mines", fontsize=9)
plt.show()

# %% [markdown]
# ## Exact probabilities
#
# `enumerate` counts the layouts of each component by number of mines and combines them with the
# unconstrained interior through binomial weights: the probabilities under the uniform distribution on
# the layouts that fit the clues and the total. Probability 0 and 1 are the forced cells; the rest is what
# a guess should minimise (report 004's improved agent, report 000 §3.1.5 "uncertain reasoning").

# %%
corner = EXAMPLES["000-a-g"].observation
p = sweeplab.probabilities(corner)
fig, ax = plt.subplots(figsize=(5, 5))
drawn = sweeplab.plot_position(corner, ax=ax, probabilities=p,
                               safe=np.argwhere(p == 0), mines=np.argwhere(p == 1))  # the forced cells
fig.colorbar(drawn["probabilities"], ax=ax, shrink=0.7, label="P(mine)")
ax.set_title("report 000's a–g corner: exact mine probabilities\n"
             "(circles: forced safe, crosses: forced mines)")
plt.show()
print("a, b:", p[0, 4].round(3), p[1, 4].round(3), " interior:", np.nanmedian(p[3:, 3:]).round(4))

# %% [markdown]
# ## Power and cost on real positions
#
# Mid-game intermediate positions, with the total. The complete methods (`milp`, `enumerate`) agree cell for
# cell. Expect a surprise in the cost column: on such positions the frontier falls apart into small
# components, so exact enumeration is both complete *and* about the cheapest method here; only the single-clue
# rules (`trivial`) cost less ([notebook 6](06_method_comparison.ipynb) times every method on the whole
# corpus). What the relaxations (`bounded`, `lp`) offer is a bound on the work: row reduction, bounds
# propagation and linear programming take polynomial time, while the layouts enumeration searches can grow
# exponentially with a component's size (`enumerate` then counts by dynamic programming and, past its budget,
# hands the position to `milp`). Note too that `trivial` can find more than `rref`: one pass of the row bound
# rule on one RREF misses cells a single clue settles ([notebook 2](02_rref_step_by_step.ipynb)'s
# counterexample), and the `rref` here does not iterate.

# %%
n_positions = {"smoke": 4, "quick": 40, "full": 300}[PRESET]
positions = midgame_positions(shape=(16, 16), density=40 / 256, n=n_positions, seed=1, reveal=0.4)
records = []
for k, position in enumerate(positions):
    for method in METHODS:
        d = sweeplab.deduce(position, method=method)
        records.append({"position": k, "method": method, "cells": len(d), "ms": 1000 * d.seconds})
power = pd.DataFrame(records)
summary = power.groupby("method", sort=False).agg(cells=("cells", "sum"), median_ms=("ms", "median"))
summary["share of enumerate"] = (summary["cells"] / summary.loc["enumerate", "cells"]).round(3)
summary

# %%
fig, ax = plt.subplots(figsize=(6, 3.4))
ax.scatter(summary["median_ms"], summary["share of enumerate"])
for k, (method, r) in enumerate(summary.sort_values("median_ms").iterrows()):  # labels above, below, ...
    ax.annotate(method, (r["median_ms"], r["share of enumerate"]), textcoords="offset points",
                xytext=(0, 7 if k % 2 == 0 else -13), ha="center")
ax.set_xscale("log")
ax.margins(x=0.15, y=0.15)
ax.set_xlabel("median ms per position")
ax.set_ylabel("share of forced cells found")
ax.set_title("deductive power against cost")
plt.show()

# %% [markdown]
# ## Try it
#
# 1. Make a fractional LP point by hand: a small position with only one 0/1 layout (so every cell is
#    forced) where the relaxation can still put 1/2 in some cells, and `lp` proves nothing. Can the
#    halves be exactly two cells, every other cell 0 or 1? (The catalogue's `lp-needs-integrality`
#    shows the same gap with one forced cell.)
# 2. Find a position where `bounded` proves a cell `lp` misses, and one the other way round.
# 3. Time `milp` and `enumerate` on a 30x30 mid-game position: which is faster, and why?

# %% [markdown]
# <details><summary>Answers (for teachers; try first)</summary>
#
# 1. `-1-/???/1?1` (`-`: revealed, no number). With a = `(1,0)`, c = `(1,1)`, b = `(1,2)`, d = `(2,1)`,
#    the clues read a + c + b = 1, a + c + d = 1 and c + b + d = 1. Only one 0/1 layout fits (c is the
#    mine, so every cell is forced), yet a = b = d = 1/2, c = 0 satisfies all three clues, so `lp` proves
#    nothing. That point puts 1/2 in *three* cells. Exactly two halves, with every other cell 0 or 1, are
#    impossible: a 0/1 clue row holding just one of the two half cells would sum to a non-integer. So
#    every row holds both or neither, and then putting (1, 0) or (0, 1) in the two cells gives two 0/1
#    layouts, which means the two cells are not forced.
#
#    ```python
#    obs = sweeplab.Observation.from_text("-1-\n???\n1?1")
#    system = sweeplab.clue_system(obs)
#    print([v for v in itertools.product((0, 1), repeat=4) if np.array_equal(system.A @ v, system.b)])
#    # [(0, 1, 0, 0)]       (cells (1,0), (1,1), (1,2), (2,1))
#    print(system.A @ [0.5, 0, 0.5, 0.5], system.b)   # [1. 1. 1.] [1 1 1]
#    print(sweeplab.deduce(obs, "lp").cells, sorted(sweeplab.deduce(obs, "enumerate").cells))
#    # frozenset() [(1, 0), (1, 1), (1, 2), (2, 1)]
#    ```
#
# 2. `bounded` but not `lp`: `gfp-beats-rref`, where `bounded` proves 7 cells and `lp` none (the position of
#    answer 1 is another: `bounded` solves it). `lp` but not `bounded`: `subset-beats-rref`, where `lp`
#    proves `(0,2)` and `(1,2)`.
#
#    ```python
#    for name in ("gfp-beats-rref", "subset-beats-rref"):
#        obs = EXAMPLES[name].observation
#        bounded, lp = sweeplab.deduce(obs, "bounded").cells, sweeplab.deduce(obs, "lp").cells
#        print(name, "bounded only", sorted(bounded - lp), "lp only", sorted(lp - bounded))
#    # gfp-beats-rref bounded only [(0, 0), (0, 2), (1, 1), (2, 0), (2, 1), (3, 1), (3, 2)] lp only []
#    # subset-beats-rref bounded only [] lp only [(0, 2), (1, 2)]
#    ```
#
# 3. `enumerate` is much faster: about 0.1–0.2 ms per position, against 6–14 ms for `milp`, on five 30×30
#    positions (20% mines, 40% of the safe cells open; three runs on an idle core, after a warm-up call;
#    on a busy machine `milp` took up to ten times longer, as solver calls suffer most from sharing a
#    core). Both find the same cells. Why: the frontier falls
#    apart into 2 to 7 components (`components()`), and `enumerate`'s compiled backtracking settles each
#    one in a fraction of a millisecond. `milp` first solves LPs in HiGHS, then one integer program for
#    each cell still undecided; those solver calls add up to milliseconds.
#
#    ```python
#    positions = midgame_positions(shape=(30, 30), density=0.2, n=5, seed=0, reveal=0.4)
#    sweeplab.deduce(positions[0], "enumerate"), sweeplab.deduce(positions[0], "milp")   # warm-up
#    for obs in positions:
#        e, m = sweeplab.deduce(obs, "enumerate"), sweeplab.deduce(obs, "milp")
#        print(f"enumerate {1000 * e.seconds:.2f} ms, milp {1000 * m.seconds:.1f} ms,",
#              "same", e.cells == m.cells)
#    # enumerate 0.10-0.17 ms, milp 6.0-14.3 ms (three runs, idle core), same True on all five
#    ```
#
# </details>
