# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 1. From a board to `A x = b`
#
# The game's one rule: a revealed cell shows how many mines lie among its neighbours, the up to eight
# cells that touch it (diagonals included); the other cells are covered, and the player opens the safe
# ones without opening a mine. So every revealed number is a linear equation over the covered cells around
# it: the unknown
# $x_j \in \{0, 1\}$ says whether cell $j$ holds a mine, and the clue, minus the mines already known
# around it, is the sum of its covered neighbours (report 002, "the whole puzzle as a matrix";
# report 000 §2.4, "all m-of-n constraints"). This notebook builds that system with
# `sweeplab.clue_system` for the reports' own example boards.
#
# Run with `SWEEPLAB_PRESET=smoke` for the test-sized version; this notebook computes nothing heavy,
# so every preset gives the same output.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt

import sweeplab
from sweeplab.examples import EXAMPLES
from sweeplab.explorer import clue_table, rref_table

# %% [markdown]
# ## Report 002: the "classic 1-2 combination"
#
# The report names the ten covered cells $v_1, \dots, v_{10}$ from left to right, top to bottom, and
# writes one row per revealed number. `clue_system` numbers its variables the same way (row-major), from 0.
#
# Boards are written in the text form of `Observation.from_text` (`docs/spec.md` §1), one row per line:
# `?` (or `#`) is a covered cell, `0`–`8` a revealed number, `.` the same as `0`, `F` a flag (a known
# mine for every method), `*` a revealed mine (score mode) and `-` a revealed safe cell whose number is
# hidden (clue noise "lost": it gives no equation). `to_text()` prints covered cells as `?`, zeros as `.`.

# %%
board = EXAMPLES["002-one-two"].observation
print(board.to_text())
system = sweeplab.clue_system(board, use_total=False)
system

# %%
clue_table(system)

# %% [markdown]
# Each row is labelled by its clue cell, each column by its cell. The table, `b` included, is row for row
# the augmented matrix that report 002 (Algorithm 1) row-reduces. Its first row there is
# `1 1 1 0 0 0 0 0 1 0 | 2`: the 2 at `(1,1)` touches three cells above and the covered cell to its left;
# its last, `0 0 0 0 0 1 1 1 0 1 | 1`, is the 1 at `(1,6)`.

# %%
fig, ax = plt.subplots(figsize=(6.5, 2.1))
sweeplab.plot_position(board, ax=ax)
for j, (r, c) in enumerate(system.cells):
    ax.text(c, r, f"x{j}", ha="center", va="center", fontsize=11, fontweight="bold", color="#1d1d1d")
ax.set_title("report 002, first board: the covered cells are the variables x0..x9")
plt.show()

# %% [markdown]
# ## Report 000 §2.4: the a–g example
#
# The top-left corner of an intermediate board (16×16, 40 mines): `0 0 0 1 a / 1 1 1 1 b / g f e d c`.
# The report writes five constraints C1–C5 over the seven fringe cells a…g.

# %%
corner = EXAMPLES["000-a-g"].observation
print(corner.to_text().splitlines()[:4], "... 16x16, mines =", corner.mines)
clue_table(corner, use_total=False)

# %% [markdown]
# Five clues touch a covered cell, the five 1s: `(0,3)` sees a and b, and the four 1s of the second row
# see the covered row below them (and `(1,3)` also a and b). The three zeros at the top left see only
# revealed cells, so they give no equation. Five equations, as the report's C1–C5. Note the names: the
# report's C2 (`(2,4)`, 1-based) is our row `(1,3)`. The columns follow the cells row by row, so the
# report's letters map to them as a = x0 `(0,4)`, b = x1 `(1,4)`, and then along the third row *from the
# left*: g = x2 `(2,0)`, f = x3, e = x4, d = x5, c = x6 `(2,4)` (the report reads that row from the right).
#
# ## The total-mines row
#
# With the board's total known, one more equation sums *every* covered cell (the frontier and the
# unconstrained interior) to the mines still unknown (report 001, "global information"; report 004,
# "with the information of the number of mines"). The interior cells get variables too, after the
# frontier ones.

# %%
full = sweeplab.clue_system(corner, use_total=True)
print(full)
print("frontier variables:", full.n_frontier, " all variables:", full.n_variables)
print("last row is the total:", full.has_total, " right side:", full.b[-1])

# %% [markdown]
# ## Components
#
# Cells linked through shared equations form a component; separate components can be solved
# separately (report 004 "split borders", which brings $2^m$ down to $2^{m_1} + 2^{m_2}$). The total
# row links everything, so `components()` leaves it out. Report 000 §4.4's board has three separated
# clues, `3`, `2` and `1`, each with eight covered neighbours: 56·28·8 > 10,000 solutions, but three
# tiny independent components.

# %%
many = EXAMPLES["000-many-solutions"].observation
parts = sweeplab.clue_system(many, use_total=False).components()
[(p.n_equations, p.n_variables, p.b.tolist()) for p in parts]

# %%
fig, ax = plt.subplots(figsize=(4, 4))
sweeplab.plot_position(many, ax=ax)
colours = ["#1f77b4", "#ff7f0e", "#2ca02c"]
for k, part in enumerate(parts):
    rs, cs = zip(*part.cells)
    ax.scatter(cs, rs, s=40, color=colours[k % 3], label=f"component {k}: {part.n_variables} cells")
ax.legend(loc="lower right", fontsize=7)
ax.set_title("report 000 §4.4: three independent components")
plt.show()

# %% [markdown]
# ## Report 001's knowledge base is the same system
#
# Report 001 stores rules `(list of hidden cells, number)`: `A+B+C = 1` and `A+C+D = 2`. That is a
# two-row matrix; the report notes the rule `D - B = 1` it cannot derive one rule at a time. The
# catalogue's board puts B, A, C, D in the top row (revealed cells without a number, `-`, keep the
# equations exactly these two). Row reduction finds that rule in one step.

# %%
kb = EXAMPLES["001-abc"]
print(kb.description)
clue_table(kb.observation, use_total=False)

# %% [markdown]
# The reduced rows (exact Gauss–Jordan elimination): the first reads `x0 - x3 = -1`, that is
# `B - D = -1`, the report's `D - B = 1`. As every cell is 0 or 1, it also settles both cells: B is
# safe and D a mine. [Notebook 2](02_rref_step_by_step.ipynb) does the elimination one pivot at a time and
# turns such readings into the row bound rule.

# %%
rref_table(kb.observation, use_total=False)

# %% [markdown]
# ## Try it
#
# 1. Write the total-mines row of the a–g corner by hand (which cells, which right side?), then compare
#    with `sweeplab.clue_system(corner).A[-1]` and `.b[-1]`.
# 2. Flag a cell in `board` (`F` in the text form) and predict how the clue rows' right sides change;
#    check with `clue_table`.
# 3. Make a position whose clue system splits into three components and count them with
#    `sweeplab.clue_system(obs).components()`.

# %% [markdown]
# <details><summary>Answers (for teachers; try first)</summary>
#
# 1. The total row has a 1 for *every* covered cell: the 7 frontier cells a–g and the 241 interior
#    cells, 248 in all. Its right side is 40, the board's mines (no flags yet).
#
#    ```python
#    full = sweeplab.clue_system(corner)
#    print(full.A[-1].sum(), full.A[-1].min(), full.b[-1], full.n_variables)   # 248 1 40 248
#    ```
#
# 2. Flag `(0,1)`, the report's $v_2$ (a mine). Its column disappears (9 variables instead of 10) and
#    each clue touching it loses 1: `(1,1)` goes from 2 to 1 and `(1,2)` from 1 to 0; the other rows
#    keep their right sides.
#
#    ```python
#    flagged = sweeplab.Observation.from_text("?F??????\n?211221?")
#    clue_table(flagged, use_total=False)["b"].tolist()   # [1, 0, 1, 2, 2, 1]; before: [2, 1, 1, 2, 2, 1]
#    ```
#
# 3. Three pairs of covered cells separated by revealed cells without a number (`-`), so no clue sees
#    two pairs. (Choose numbers that fit a layout: `22` in the middle means both cells there are mines.)
#
#    ```python
#    obs = sweeplab.Observation.from_text("??-??-??\n11-22-11")
#    parts = sweeplab.clue_system(obs).components()
#    print(len(parts), [p.cells for p in parts])
#    # 3 [((0, 0), (0, 1)), ((0, 3), (0, 4)), ((0, 6), (0, 7))]
#    ```
#
# </details>
