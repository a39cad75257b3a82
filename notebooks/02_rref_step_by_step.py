# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 2. Row reduction step by step, and the row bound rule
#
# Report 002 (Algorithm 1) and report 003 (Algorithm B) row-reduce the augmented clue matrix
# `[A | b]` and read deductions off the reduced rows. This notebook does the elimination one pivot at a
# time with exact fractions (sympy, for display), applies the **row bound rule**, and checks the result
# against the library's `rref` method. Then it shows why a single pass misses cells and how iterating
# (the `bounded` method) recovers them.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import sympy
from IPython.display import Math, display

import sweeplab
from sweeplab.examples import EXAMPLES
from sweeplab.explorer import bound_table, clue_table, rref_steps, rref_table

# %% [markdown]
# ## Report 002's first board: the "classic 1-2 combination"

# %%
board = EXAMPLES["002-one-two"].observation
clue_table(board, use_total=False)

# %% [markdown]
# Gauss–Jordan elimination, one pivot column at a time (each step swaps a row in if needed, scales the
# pivot to 1 and clears the column above and below):

# %%
for description, matrix in rref_steps(board, use_total=False):
    display(Math(rf"\text{{{description}}}:\quad " + sympy.latex(matrix)))

# %% [markdown]
# The final matrix is the one report 002 (Algorithm 1) shows after its `rref` arrow, row for row (its
# third row is `0 0 1 0 0 0 1 1 0 1 | 0`), with the comment "What a mess! But we can still interpret the
# solution." Reading it needs one more fact the linear system forgets: every variable is 0 or 1.
#
# **Row bound rule.** A row $\sum_j a_j x_j = b$ with $x_j \in \{0,1\}$ has its left side between
# $\mathrm{lo} = \sum_{a_j<0} a_j$ and $\mathrm{hi} = \sum_{a_j>0} a_j$ (the columns `low` and `high` of
# `bound_table`). If $b = \mathrm{hi}$, every variable with a positive coefficient is 1 and every one with
# a negative coefficient is 0; if $b = \mathrm{lo}$, the reverse.

# %%
reduced = rref_table(board, use_total=False)
bound_table(reduced)

# %% [markdown]
# Below, a cell is named by its variable and position, `x2` = `(0,2)`; the report's 1-based name, here
# $v_3$, is given only where the report is quoted. Row `pivot x2`, `x2 + x6 + x7 + x9 = 0`, is at its
# lower bound: all four cells are safe. It is the row the report reads ("From row 3 we have
# $v_3+v_7+v_8+v_{10} = 0$"). But the table shows two more rows at a bound that the report does not use:
# rows `pivot x1`, `x1 - x7 - x9 = 1`, and `pivot x4`, `x4 - x7 - x9 = 1`, are at their upper bound, so
# `x1` = `(0,1)` and `x4` = `(0,4)` are mines directly. What one pass cannot get is the mine `x5` = `(0,5)`
# and the safe `x3` = `(0,3)`: the report finds them by *removing* the solved columns by hand and
# re-reading the matrix. That second step is iteration: substitute what is found and reduce again
# (`rref` with `iterate=True`, or, usually, the `bounded` method, which also reads the original rows,
# described below; [notebook 5](05_bounds_lp_integers.ipynb) shows an exception).
#
# %%
for method, options in [("rref", {}), ("rref", {"iterate": True}), ("bounded", {}), ("enumerate", {})]:
    d = sweeplab.deduce(board, method=method, use_total=False, **options)
    print(f"{method:10s} {str(options):18s} safe {sorted(d.safe)}  mines {sorted(d.mines)}")

# %%
fig, axes = plt.subplots(1, 2, figsize=(9, 1.8))
for ax, method in zip(axes, ("rref", "bounded"), strict=True):
    d = sweeplab.deduce(board, method=method, use_total=False)
    sweeplab.plot_position(board, ax=ax, safe=d.safe, mines=d.mines)
    ax.set_title(f"{method}: {len(d.safe)} safe, {len(d.mines)} mines")
fig.suptitle("circles: proved safe, crosses: proved mines", fontsize=9, y=1.08)
plt.show()

# %% [markdown]
# The report expects `□ X O O X X O O / □ 2 1 1 2 2 1 O` ("X represents mine and O is safe"; □ stays
# covered): the mines `(0,1)`, `(0,4)`, `(0,5)` and the safe `(0,2)`, `(0,3)`, `(0,6)`, `(0,7)`, `(1,7)`.
# One pass finds all but `x3` = `(0,3)` (safe) and `x5` = `(0,5)` (mine); iteration finds them all, and
# `enumerate` (complete) agrees that nothing more is forced: `x0` = `(0,0)` and `x8` = `(1,0)` stay open,
# because row `pivot x0` leaves `x0 + x8 = 1` once `x6` = 0, and that has two solutions (the report's
# $t \in \{0, 1\}$).
#
# ## Report 002's second board: one pass finds all that is forced

# %%
board2 = EXAMPLES["002-one-one-two-two"].observation
bound_table(rref_table(board2, use_total=False))

# %% [markdown]
# Only row `pivot x1`, `x1 - x4 = -1`, is at a bound ($\mathrm{lo} = -1$): `x1` = `(0,1)` is safe and
# `x4` = `(0,4)` a mine — the report's "O" and "X" ($v_2 = 0$, $v_5 = 1$), and everything that is
# forced: `enumerate` (complete) finds the same two cells (below). The report notes that "rearranging
# the columns [hence changing the RREF]" changes what can be read; on this board another order can only
# lose: some orders of its eight columns leave no row at a bound, and one pass then finds nothing (we
# checked all 40,320 orders: each finds these two cells or nothing). The next section shows a position
# where one pass misses forced cells.

# %%
d = sweeplab.deduce(board2, method="rref", use_total=False)
complete = sweeplab.deduce(board2, method="enumerate", use_total=False)
print(f"rref: safe {sorted(d.safe)} mines {sorted(d.mines)}; "
      f"enumerate: safe {sorted(complete.safe)} mines {sorted(complete.mines)}")
fig, ax = plt.subplots(figsize=(4, 1.6))
sweeplab.plot_position(board2, ax=ax, safe=d.safe, mines=d.mines)
ax.set_title("report 002, second board: rref\n(circles: proved safe, crosses: proved mines)", fontsize=10)
plt.show()

# %% [markdown]
# ## Why one pass misses cells: `x0+x1+x2 = 0`, `x1+x2+x3+x4 = 1`
#
# The catalogue's position: the flag takes the 1 at `(1,1)` to 0 left for its three covered
# neighbours, and the 1 at `(1,2)` sees four covered cells, so the position has exactly the two
# equations of the counterexample.

# %%
counter = EXAMPLES["rref-one-pass-misses"].observation
print(counter.to_text())
display(clue_table(counter, use_total=False))
display(bound_table(rref_table(counter, use_total=False)))

# %% [markdown]
# The RREF replaces the first equation by `x0 - x3 - x4 = -1`, which is at no bound ($\mathrm{lo} = -2$,
# $\mathrm{hi} = 1$): one pass finds **nothing**, while the single-clue rule reads `x0+x1+x2 = 0` directly
# (all three safe). The cure is to read the original rows too, substitute what is found, and repeat
# until nothing changes: the `bounded` method. It reads each row a little more strongly than the row
# bound rule, cell by cell (*bounds propagation*): with every cell 0 or 1, the rest of the row has a known
# range, and a value of the cell that would push the rest out of it is impossible. In $-2a + b = 0$ no
# bound is met ($\mathrm{lo} = -2$, $\mathrm{hi} = 1$), yet $a = 1$ would need $b = 2$, so $a = 0$, and
# then $b = 0$. At a bound this fixes every cell of the row, as the row bound rule does.

# %%
for method in ("trivial", "rref", "bounded", "enumerate"):
    d = sweeplab.deduce(counter, method=method, use_total=False)
    print(f"{method:10s} safe {sorted(d.safe)}  mines {sorted(d.mines)}")

# %% [markdown]
# ## Try it
#
# 1. Reverse the column order (the method `rref-reversed` of `sweeplab.example_plugin` does it) and
#    re-read the bound table: which cells does one pass find now?
# 2. Find the smallest position where `trivial` proves a cell that one pass of `rref` misses
#    (hint: `sweeplab.examples.EXAMPLES["smallest-trivial-beats-rref"]`).
# 3. Write a 1-2-1 wall yourself with `Observation.from_text` and check which row of the RREF proves the
#    safe cell.

# %% [markdown]
# <details><summary>Answers (for teachers; try first)</summary>
#
# 1. On report 002's first board both orders find the safe `(0,2)`, `(0,7)`, `(1,7)` and the mine `(0,1)`;
#    the reversed order adds the mine `(0,5)`, which the natural order misses, but loses the safe `(0,6)`
#    and the mine `(0,4)`. Neither order finds `(0,3)`. On the second board both orders find the same two
#    cells.
#
#    ```python
#    import sweeplab.example_plugin   # registers "rref-reversed"
#    for name in ("002-one-two", "002-one-one-two-two"):
#        for method in ("rref", "rref-reversed"):
#            d = sweeplab.deduce(EXAMPLES[name].observation, method, use_total=False)
#            print(name, method, "safe", sorted(d.safe), "mines", sorted(d.mines))
#    # 002-one-two rref safe [(0, 2), (0, 6), (0, 7), (1, 7)] mines [(0, 1), (0, 4)]
#    # 002-one-two rref-reversed safe [(0, 2), (0, 7), (1, 7)] mines [(0, 1), (0, 5)]
#    # 002-one-one-two-two: both give safe [(0, 1)] mines [(0, 4)]
#    ```
#
#    To see the bound table, reverse the columns of `clue_table` and reduce with sympy: two rows are at
#    a bound, `x9=0, x7=0, x1=1` and `x5=1, x2=0`.
#
#    ```python
#    import pandas
#    t = clue_table(board, use_total=False)
#    rev = t[list(t.columns[-2::-1]) + ["b"]]
#    R, pivots = sympy.Matrix(rev.values.tolist()).rref()
#    bound_table(pandas.DataFrame(R.tolist()[:len(pivots)], columns=rev.columns))
#    ```
#
# 2. The catalogue's position is a 6×1 column, `?/./?/./?/?`, with 1 mine. `trivial` proves `(0,0)`,
#    `(2,0)` and `(4,0)` safe and `(5,0)` a mine; one `rref` pass proves only `(2,0)` and `(5,0)`. The zero at
#    `(1,0)` says `x0 + x1 = 0`, but the RREF (total row included) replaces it by `x0 + x3 = 1`, and that
#    row is at no bound. (The catalogue says it is the smallest witness of a search over all boards of up
#    to 9 cells.)
#
#    ```python
#    ex = EXAMPLES["smallest-trivial-beats-rref"]
#    for method in ("trivial", "rref"):
#        d = sweeplab.deduce(ex.observation, method)
#        print(method, "safe", sorted(d.safe), "mines", sorted(d.mines))
#    # trivial safe [(0, 0), (2, 0), (4, 0)] mines [(5, 0)]
#    # rref safe [(2, 0)] mines [(5, 0)]
#    bound_table(rref_table(ex.observation))   # rows x0+x3=1 and x2+x3=1 fix nothing; x1-x3=-1 fixes x1, x3
#    ```
#
# 3. A wall closed at both ends (`-` is a revealed cell without a number). The RREF is the identity, and
#    the row `x1 = 0` (pivot `x1`, cell `(0,2)`, under the 2) proves the safe cell.
#
#    ```python
#    wall = sweeplab.Observation.from_text("-???-\n-121-\n-----")
#    bound_table(rref_table(wall, use_total=False))
#    # pivot x0: x0=1,  pivot x1: x1=0,  pivot x2: x2=1
#    ```
#
#    If the ends are covered instead (`?????/-121-`), one pass finds the two mines and the two end cells
#    but not the safe cell under the 2: its row `x2 + x3 + x4 = 1` is at no bound. `enumerate` does prove
#    `(0,2)` safe.
#
# </details>
