# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 4. Finite fields: GF(2) and GF(p) with galois
#
# Report 002 ends its first algorithm with an idea: "Rings wouldn't work, but we can look at fields, like
# $F_2$ or $F_7$". Every mine layout solves `A x = b` over the integers, hence modulo any prime $p$, so
# row-reducing `[A | b]` over GF(p) gives congruences every layout satisfies. This notebook shows what
# they prove, what they lose, and which $p$ to pick. Reduction over GF(p) uses
# [galois](https://galois.readthedocs.io) here for display; the library's `gf2`/`gfp` methods use the same
# arithmetic (python-flint by default, galois as the cross-checked alternative engine).

# %%
# %matplotlib inline
import galois
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import sympy
from IPython.display import display

import sweeplab
from sweeplab.corpus import midgame_positions
from sweeplab.experiments import preset_from_env
from sweeplab.methods.gfp import rank_mod_p

PRESET = preset_from_env()


# %% [markdown]
# ## GF(2): parity
#
# Report 002's second board. Over GF(2), $1 + 1 = 0$: each equation says only whether the number of
# mines among its cells is even or odd.

# %%
board = sweeplab.Observation.from_text("""
??????
?1122?
""")
system = sweeplab.clue_system(board, use_total=False)
GF2 = galois.GF(2)
augmented = GF2(np.column_stack([system.A, system.b]) % 2)
columns = [str(c) for c in system.cells] + ["b"]  # the cells (row, col) the columns stand for
display(pd.DataFrame(np.asarray(augmented), columns=columns).rename_axis("[A | b] mod 2"))
display(pd.DataFrame(np.asarray(augmented.row_reduce()), columns=columns).rename_axis("reduced over GF(2)"))

# %% [markdown]
# A reduced row with a single cell, $x_j \equiv r \pmod 2$, fixes $x_j = r$ because $x_j \in \{0, 1\}$.
# Rows with several cells only give parities. Here the rational RREF reads $x_1 - x_4 = -1$ as
# "$x_1 = 0$, $x_4 = 1$" by the bound rule, but mod 2 that row is $x_1 + x_4 = 1$: a parity, not a value.
# The cell below also runs `gfp` at report 002's $p = 7$, its default when `p` is not given.

# %%
for method, options in [("rref", {}), ("gf2", {}), ("gfp", {"p": 7})]:
    d = sweeplab.deduce(board, method=method, use_total=False, **options)
    print(f"{method:5s} {str(options):9s} safe {sorted(d.safe)}  mines {sorted(d.mines)}")

# %% [markdown]
# The library's `gfp` also applies the **mod-p bound rule**: read each coefficient as its residue nearest 0;
# the row's integer total over 0/1 cells lies between the sums of its negative and positive coefficients and
# must be $\equiv r \pmod p$; if the only such integer is an end of that range, the row fixes all its cells.
# When $p$ is larger than the row's range and every coefficient is below $p/2$ in absolute value (so reading
# residues changes nothing), this is exactly the rational bound rule on that row. Otherwise it can prove more:
# $3a + b = 3$ is at no bound over the rationals (3 lies inside $[0, 4]$), so the row bound rule fixes nothing
# (bounds propagation, [notebook 2](02_rref_step_by_step.ipynb), would: $a = 0$ would need $b = 3$), but mod 5
# it reads $-2a + b \equiv -2$, and in the range $[-2, 1]$ only $-2$ fits, at the lower end: $a = 1$, $b = 0$.
# And the rows themselves are those of the reduction mod $p$, which need not be the rational RREF's rows.
#
# ## Rank lost modulo p
#
# A matrix of rank $r$ over the rationals has lower rank mod $p$ exactly when $p$ divides every
# $r \times r$ minor. Three clue rows around a triangle of cells $x_0, x_1, x_2$: each row holds two of them,
# so the three rows add up to $2(x_0 + x_1 + x_2) \equiv 0 \pmod 2$, and over GF(2) row 3 is row 1 + row 2.

# %%
A = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]])
print("rank over Q:", sympy.Matrix(A).rank())
print("rank over GF(2):", np.linalg.matrix_rank(GF2(A % 2)))
for p in (3, 5, 7):
    print(f"rank over GF({p}):", rank_mod_p(A, p=p))

# %% [markdown]
# Over GF(2) the third row is the sum of the first two: one equation's worth of information is lost,
# and with it the cells only that equation determined. The determinant is 2, so only $p = 2$ loses it.
# (`sweeplab.methods.gfp.rank_mod_p` row-reduces as the method `gfp` does, compiled or with python-flint;
# building a galois field class for every $p$ costs over a second each.)
#
# ## Which p? Cells found on real mid-game positions
#
# Mid-game intermediate positions (16×16, 40 mines; the corpus generator's perfect player, a third of
# the safe cells open), no total. For each method: cells proved, summed over the positions, and the
# positions where the rank mod p is lower than over Q.

# %%
n_positions = {"smoke": 6, "quick": 60, "full": 400}[PRESET]
positions = midgame_positions(shape=(16, 16), density=40 / 256, n=n_positions, seed=0, reveal=0.3)
variants = [("rref", {}), ("gf2", {})] + [("gfp", {"p": p}) for p in (3, 5, 7, 11, 13)] + [("enumerate", {})]
rows = []
for k, obs in enumerate(positions):
    A_int = sweeplab.clue_system(obs, use_total=False).A
    rank_q = np.linalg.matrix_rank(A_int.astype(float)) if A_int.size else 0
    for method, options in variants:
        d = sweeplab.deduce(obs, method=method, use_total=False, **options)
        p = options.get("p", 2 if method == "gf2" else None)
        lost = bool(p and rank_mod_p(A_int, p=p) < rank_q)
        label = f"GF({p})" if p else method
        rows.append({"position": k, "method": label, "cells": len(d), "rank lost": lost})
found = pd.DataFrame(rows)
table = found.groupby("method", sort=False).agg(cells=("cells", "sum"), rank_lost=("rank lost", "sum"))
table["share of enumerate"] = (table["cells"] / table.loc["enumerate", "cells"]).round(3)
table

# %%
fig, ax = plt.subplots(figsize=(7, 3.2))
ax.bar(table.index, table["share of enumerate"], color="#4c72b0")
ax.tick_params(axis="x", labelrotation=30)
ax.set_ylabel("cells proved / cells forced")
ax.set_title(f"Finite fields against the rationals ({n_positions} intermediate positions)")
plt.show()

# %% [markdown]
# **Which p.** On real positions the rank is essentially never lost (the `rank_lost` column: the
# triangle above needs a determinant divisible by $p$, which clue matrices rarely have). What loses is the
# reading of the rows: the mod-p bound rule fixes a row only when a single integer of its range is
# congruent to the right side, and a range is sure to hold at most one integer of each residue only when
# it is shorter than $p$. A clue row over $k$ covered cells ranges over $0..k$: with $p = 7$ a row of 7 or
# 8 cells reads $0$ and $7$ alike (on `F??/?1?/???` the 1 already has its mine, and `rref` proves the seven
# other cells safe where GF(7) proves none), and only from $p = 11$ is every clue row read as over
# $\mathbb{Q}$. The total row spans every covered cell, so no small prime reads it. GF(2) finds about two
# thirds of what the rationals find, GF(3) and GF(5) more, and on these positions $p = 7$ already matches
# the rational counts (answer 3 below finds the two positions of 400 where it does not). The counts, not
# always the cells: where the rational RREF has a fraction, mod $p$ the row reads otherwise, and each
# method proves cells the other misses on a few positions (`sweeplab.examples`: `gfp-beats-rref`,
# `smallest-rref-beats-gfp`). Report 002's $F_7$ is the smallest prime that matches $\mathbb{Q}$ on
# positions like these, with arithmetic on small integers instead of growing fractions, but not on every
# position. None of them is complete: compare the last bar.

# %% [markdown]
# ## Try it
#
# 1. Find a row (a position) where GF(3) proves a cell that the rational row bound rule does not
#    (`sweeplab.deduce(obs, "gfp", p=3)` against `"rref"`); the $3a + b = 3$ row above is a start.
# 2. Build a 0/1 matrix whose rank over GF(3) is lower than over the rationals and check it with
#    `rank_mod_p`.
# 3. Which primes $p$ make `gfp` find exactly the cells of `rref` on the positions above, and why do
#    large primes behave like the rationals?

# %% [markdown]
# <details><summary>Answers (for teachers; try first)</summary>
#
# 1. The catalogue's `gfp-beats-rref` board (`?1?/1?1/??2/1??`). One `rref` pass proves nothing, but
#    `gfp` with $p = 3$ proves `(0,2)` and `(3,2)` safe and `(3,1)` a mine. For `(0,2)`, clue `(1,0)` minus
#    clues `(0,1)`, `(1,2)`, `(3,0)`, plus clue `(2,2)`, gives $-2x_{(0,2)} + x_{(3,2)} = 0$. Over the
#    rationals 0 lies inside the range $[-2, 1]$, so the row fixes nothing. Modulo 3 the row is
#    $x_{(0,2)} + x_{(3,2)} \equiv 0$ with range $[0, 2]$, and only 0 fits, so both cells are safe.
#    (Bounds propagation goes further here: `bounded`, [notebook 5](05_bounds_lp_integers.ipynb), proves all
#    seven forced cells.)
#
#    ```python
#    from sweeplab.examples import EXAMPLES
#    obs = EXAMPLES["gfp-beats-rref"].observation
#    print(sorted(sweeplab.deduce(obs, "rref").cells))   # []
#    d = sweeplab.deduce(obs, "gfp", p=3, proofs=True)
#    print(sorted(d.safe), sorted(d.mines))              # [(0, 2), (3, 2)] [(3, 1)]
#    print(d.proofs[(0, 2)].explain(obs))
#    ```
#
# 2. The 4×4 matrix "all ones but the diagonal": each row holds three of four cells, so the four rows
#    add up to $3(x_0 + x_1 + x_2 + x_3) \equiv 0 \pmod 3$. Its determinant is $-3$. (A 3×3 0/1 matrix has
#    $|\det| \le 2$, checked over all 512 of them, so 4×4 is the smallest size that works.)
#
#    ```python
#    A = np.ones((4, 4), dtype=int) - np.eye(4, dtype=int)
#    print(sympy.Matrix(A).det(), sympy.Matrix(A).rank(), {p: rank_mod_p(A, p=p) for p in (2, 3, 5, 7)})
#    # -3 4 {2: 4, 3: 3, 5: 4, 7: 4}
#    ```
#
# 3. We compared cell sets, position by position, with the notebook's positions at each preset:
#
#    | positions (preset) | p=2 | 3 | 5 | 7 | 11 | 13 | 101 |
#    |---|---|---|---|---|---|---|---|
#    | 6 (smoke) | 0 | 2 | 5 | 6 | 6 | 6 | 6 |
#    | 60 (quick) | 3 | 14 | 56 | 60 | 60 | 60 | 60 |
#    | 400 (full) | 11 | 108 | 367 | 398 | 400 | 400 | 400 |
#
#    So on the smoke and quick positions every $p \ge 7$ gives exactly the cells of `rref`. At the full
#    preset, $p = 7$ misses cells of `rref` on 2 of the 400 positions, and $p \ge 11$ matches on all of them.
#    Why large primes act like the rationals: once $p$ divides no pivot, the GF(p) reduction is the rational
#    RREF taken mod $p$. If a row's coefficients are small integers and its range (from $\mathrm{lo}$ to
#    $\mathrm{hi}$, [notebook 2](02_rref_step_by_step.ipynb)) is shorter than $p$, the residues nearest 0 are
#    the coefficients themselves and at most one integer in the range is $\equiv r$, so the mod-p bound rule
#    *is* the rational one. Only rows with fractions or large entries still read differently, and those become
#    rarer as $p$ grows.
#
#    ```python
#    for n in (6, 60, 400):
#        positions = midgame_positions(shape=(16, 16), density=40 / 256, n=n, seed=0, reveal=0.3)
#        same = dict.fromkeys((2, 3, 5, 7, 11, 13, 101), 0)
#        for obs in positions:
#            rref = sweeplab.deduce(obs, "rref", use_total=False).cells
#            for p in same:
#                same[p] += sweeplab.deduce(obs, "gfp", p=p, use_total=False).cells == rref
#        print(n, same)
#    ```
#
# </details>
