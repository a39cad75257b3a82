# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 15. Proofs: why is this cell safe?
#
# Every sound method tells *which* cells are forced. With `proofs=True`, `sweeplab.deduce` also says
# *why*: for each claimed cell, a proof that a reader can check with integer arithmetic from the position
# alone (SPEC §6). A proof is a list of steps over the rows of the clue system, one row per revealed clue
# (`sum of its covered neighbours = clue - known mines around it`) and, when the board's number of mines is
# known, the row `"total"`:
#
# * a **combining step** adds rows times integer multipliers, substitutes the cells fixed so far, and reads
#   the result `g·x = β` with the *row bound rule*: each cell is 0 or 1, so the left side lies between `lo`
#   (the sum of the negative coefficients) and `hi` (the sum of the positive ones); if `β` equals `lo` or
#   `hi`, every remaining cell is fixed, and if it lies outside, the step is a contradiction. With a
#   modulus `p`, the same reading modulo `p`;
# * an **assume** step sets a cell to a value and reaches a contradiction: the cell has the other value;
# * a **split** tries both values of a cell; both branches reach a contradiction.
#
# `sweeplab.check_proof(obs, proof)` checks a proof, `proof.explain(obs)` tells it in words and
# `sweeplab.plot_proof(obs, proof)` draws it: the clues it uses are framed (blue: added, orange:
# subtracted, grey: used with both signs in different steps) with their multipliers; the cells it fixes,
# assumes or splits on along the way are outlined in purple, and the proven cell gets a thick frame and
# its mark (green circle: safe, red cross: mine).
# The *size* of a proof (combining steps, distinct rows) measures how hard the cell is.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import display

import sweeplab
from sweeplab import bench, experiments
from sweeplab.examples import EXAMPLES
from sweeplab.figures import FIGURES
from sweeplab.prover import prove

# %% [markdown]
# ## The 1-2-1 pattern
#
# Along a wall, `1 2 1` hides two mines under the 1s and a safe cell under the 2. One RREF pass finds
# all three, and each proof is a single combining step: the 1-2-1 combination itself for the safe cell.

# %%
obs = EXAMPLES["one-two-one"].observation
d = sweeplab.deduce(obs, "rref", proofs=True)
print(d.proofs[(0, 1)].explain(obs))
print("\nchecked:", all(sweeplab.check_proof(obs, p) for p in d.proofs.values()))
print({cell: tuple(p.size) for cell, p in sorted(d.proofs.items())})
sweeplab.plot_proofs(obs, [d.proofs[c] for c in sorted(d.proofs)])
plt.show()

# %% [markdown]
# ## The 1-2-2-1 pattern
#
# `subset` reasons with pairs of clues: the mine under each 2 is one difference of two clues. A safe end
# takes a chain: one difference gives a mine, then single clues, with what is known substituted, walk
# along the wall. Chains make proofs longer than the single step an LP would find, and `subset`'s chains
# are found, not shortest: its proof of (0,0) has 4 steps over 4 rows, while clue (1,2) − clue (1,3),
# which makes (0,1) a mine, then clue (1,0) prove it in 2 steps over 3 rows (`sweeplab.check_proof`
# accepts that proof).

# %%
obs = EXAMPLES["one-two-two-one"].observation
d = sweeplab.deduce(obs, "subset", proofs=True)
print(d.proofs[(0, 0)].explain(obs))
print({cell: tuple(p.size) for cell, p in sorted(d.proofs.items())}, "(steps, rows)")
lp_proofs = sweeplab.deduce(obs, "lp", proofs=True).proofs
print("lp:", {cell: tuple(p.size) for cell, p in sorted(lp_proofs.items())})
sweeplab.plot_proofs(obs, [d.proofs[c] for c in sorted(d.proofs)])
plt.show()

# %% [markdown]
# ## Report 002's boards
#
# The first board (`????????/?211221?`) is the report's worked example of RREF with the row bound rule; the
# proofs name the clue combination behind each of its rows. Look at the proof of (0,2) (printed, and drawn
# between those of (0,1) and (0,6)): clue (1,3) − clue (1,4) gives $x_{(0,2)} - x_{(0,5)} = -1$, which fixes
# (0,5) as a mine too. Yet `rref` does not claim (0,5): its reduced matrix is *one* basis of the row space,
# and this difference is not one of its rows ([notebook 2](02_rref_step_by_step.ipynb): the report needs a
# second pass for that cell). The prover looks for the shortest proof of each claim among all combinations,
# not among the RREF's rows; `subset` and `lp` find (0,5) directly. On the second board (`??????/?1122?`), the
# report's reduced row `v2 - v5 = -1` is a difference of two clues; `gfp` finds the same cells with one step
# read modulo 7.

# %%
board1 = EXAMPLES["002-one-two"].observation
d1 = sweeplab.deduce(board1, "rref", proofs=True)
sizes = pd.DataFrame([{"cell": c, "value": "mine" if p.value else "safe", "steps": p.size.steps,
                       "rows": p.size.rows, "clues": ", ".join(str(s) for s in p.sources)}
                      for c, p in sorted(d1.proofs.items())])
print(sizes.to_string(index=False))
print()
print(d1.proofs[(0, 2)].explain(board1))
sweeplab.plot_proofs(board1, [d1.proofs[c] for c in [(0, 1), (0, 2), (0, 6)]])
plt.show()

board2 = EXAMPLES["002-one-one-two-two"].observation
for method in ("rref", "gfp"):
    d2 = sweeplab.deduce(board2, method, proofs=True)
    print(f"\n--- {method}")
    print(d2.proofs[(0, 4)].explain(board2))

# %% [markdown]
# ## A proof that needs the total
#
# The cells (2,3) and (3,3) touch no clue: only the total row speaks of them. With one mine on the board,
# and that mine proved at (0,0), the total minus clue (0,1) leaves `x(2,3) + x(3,3) = 0`. Without the
# total, nothing (not even exact enumeration) proves them.

# %%
obs = EXAMPLES["proof-needs-total"].observation
d = sweeplab.deduce(obs, "rref", proofs=True)
print(d.proofs[(3, 3)].explain(obs))
print("\nwithout the total:", sorted(sweeplab.deduce(obs, "enumerate", use_total=False).cells))
sweeplab.plot_proofs(obs, [d.proofs[(0, 0)], d.proofs[(3, 3)]])
plt.show()

# %% [markdown]
# ## One only the LP relaxation finds
#
# A single combining step that proves a cell is exactly a *dual certificate* of the LP relaxation
# (`0 <= x <= 1`): multipliers of the clue rows whose combination bounds the cell's value, which is what
# linear-programming duality provides when the relaxation's optimum is 0 or 1. So `lp` finds every cell
# that has a one-step proof over the integers (no modulus: the mod-7 step further down is one `lp`
# misses). On this board such a step exists,
# `clue (0,1) - clue (2,1) + clue (3,1)`, but it is neither a row of one RREF pass nor a difference of two
# clues, and bounds propagation and reduction modulo 2 or 7 miss it too.

# %%
obs = EXAMPLES["proof-lp-only"].observation
found = {m: sorted(sweeplab.deduce(obs, m).cells) for m in
         ("trivial", "subset", "rref", "bounded", "gf2", "gfp", "lp", "enumerate")}
print(pd.Series(found, name="cells found").to_string())
d = sweeplab.deduce(obs, "lp", proofs=True)
print()
print(d.proofs[(0, 0)].explain(obs))
sweeplab.plot_proofs(obs, [d.proofs[(0, 0)]])
plt.show()

# %% [markdown]
# ## One only GF(p) finds, and one that needs a split
#
# On this board the LP relaxation fixes nothing: a fractional point fits every clue whatever the cell.
# That is the *integrality gap*, and it means that no combining step over the integers proves any cell
# here, nor any chain of them (a chain has to start with one). Two ways out remain:
#
# * **reading a step modulo a prime**: `gfp` proves five cells with one step each, read modulo 7. The
#   multipliers of 3 in its step are not arbitrary: 3 is invertible modulo 7 ($3 \cdot 5 \equiv 1$), and
#   $3 \cdot (-2) = -6 \equiv 1$ turns a coefficient $-2$ into $+1$, so the row bound rule can read the row;
# * **case analysis**: assume the opposite and split on another cell until every branch contradicts.
#
# (`bounded`, in the printed line below, also solves the board, and its proofs are of the second kind:
# assuming (0,2) is a mine turns $-2x_{(0,2)} + x_{(3,2)} = 0$ into $x_{(3,2)} = 2$, impossible for a
# 0/1 cell.)
#
# (3,2) gets both kinds of proof: one step modulo 7, or a split over the integers. For (1,1), which no
# single step proves even modulo 7, assuming it safe and reasoning with single steps is not enough
# (`prove` with `max_depth=0`, no splits, finds nothing); splitting on (2,1) closes both branches.

# %%
obs = EXAMPLES["gfp-beats-rref"].observation
print({m: len(sweeplab.deduce(obs, m).cells) for m in ("rref", "lp", "gfp", "bounded", "enumerate")})
gfp = sweeplab.deduce(obs, "gfp", proofs=True)
print(gfp.proofs[(3, 2)].explain(obs))
split_32 = prove(obs, (3, 2), 0, method="enumerate")
print(f"\n(3,2) over the integers: {tuple(split_32.size)} (steps, rows), case analysis: "
      f"{split_32.case_analysis}")

# %%
print("(1,1) without splits:", prove(obs, (1, 1), 1, method="enumerate", max_depth=0))
split_11 = prove(obs, (1, 1), 1, method="enumerate")
print(split_11.explain(obs))
sweeplab.plot_proofs(obs, [gfp.proofs[(3, 2)], split_32, split_11])
plt.show()

# %% [markdown]
# ## Proof size as a measure of difficulty
#
# The bench proves every claim of each method on corpus positions met in real games
# (`sweeplab.bench.run_bench(..., proofs=True)`, or `sweeplab bench --proofs`), and records each proof's
# size; `summarize` gives the distribution per method and level, the share of proofs that need an assume
# or a split, and the claims over the prover's budget. Each method proves in its own style (`trivial`:
# single clues; `subset`: pairs; `rref`, `lp`: one linear step; `gfp`: one step modulo 7; `bounded`:
# chains with assumptions), while `enumerate` gets the shortest proof the prover finds, so its sizes
# measure the position more than a method's style. No step of a proof can be left out (each one is tried
# without, and dropped if the rest still checks), yet a shorter proof of another shape may exist: a size is
# an upper bound. The preset picks the number of positions
# (`SWEEPLAB_PRESET=smoke` runs a few).

# %%
PRESET = experiments.preset_from_env()
display(experiments.PresetNote(PRESET))
rows = experiments.run("015-proofs", preset=PRESET)
table = bench.summarize(rows)
cols = ["method", "use_total", "slice", "proved", "over_budget", "proof_steps_median", "proof_steps_p90",
        "proof_rows_median", "proof_rows_p90", "proof_rows_max", "case_share"]
print(f"preset {PRESET}: {rows['id'].nunique()} positions")
print(table[table["slice"] == "all"][cols].to_string(index=False, float_format=lambda v: f"{v:.3g}"))

# %%
FIGURES["015-proofs"](rows)
plt.show()

# %% [markdown]
# What the small committed corpus shows (all its 349 positions, both uses of the total, ten sound methods:
# `experiments.run("015-proofs", preset="full")`, about a minute and a half, or `sweeplab bench --proofs
# --methods trivial,subset,rref,lstsq-certified,bounded,lp,gf2,gfp,milp,enumerate`; the table above, at a
# smaller preset, can differ):
#
# * every one of the 144,247 claims on positions with exact clues has a checked proof, and none is over
#   the prover's budget (the claims without a proof, 26 for each of `trivial`, `lp`, `milp` and
#   `enumerate` with and without the total, are on `noisy-under` positions, whose clues are only bounds:
#   proofs are not defined there, and the other methods refuse those positions);
# * forced cells of real games have tiny proofs: a median
#   of 2 rows (1 for `trivial`) in one step; 90% use
#   at most 3 rows (`rref`, `lstsq-certified`) to 4 (the others); the longest of `enumerate`'s proofs has 13;
# * the level barely matters: the median is 2 rows from beginner to 100x100 boards, and the 90th percentile
#   stays between 3 and 5. Single-clue and pair reasoning pay with chains (90th percentile 4 steps, up to
#   15, where the prover gives way to a shorter proof of a more general kind) where one combined step
#   suffices for the linear methods;
# * case analysis never appears in positions met in real games: all 46 proofs that need an assume or a
#   split are on the hand-made examples (15% of `enumerate`'s proofs there). An integrality gap like the
#   board above is rare in play.

# %%
cells = bench.proof_cells(rows)
by_level = cells[cells["use_total"]].pivot_table(index="method", columns="slice", values="proof_rows",
                                                 aggfunc="median", sort=False)
print("median distinct rows per proof, with the total")
print(by_level.to_string(float_format=lambda v: f"{v:.3g}"))

# %% [markdown]
# ## Try it
#
# 1. Write a proof dict by hand for the 1-2-1 safe cell (one combining step of three clues; print
#    `proof.to_dict()` of any proof above to see the form, or read SPEC §6 in the book) and check it with
#    `sweeplab.check_proof(obs, your_dict)`; then change one multiplier and watch it fail.
# 2. Take `gfp`'s modulo-7 step above and read it modulo 5 instead: does it still prove the cell?
# 3. Find a cell of a real game (`sweeplab.new_game`, play some moves) whose shortest proof needs more
#    than three rows.

# %% [markdown]
# <details><summary>Answers (for teachers; try first)</summary>
#
# 1. Clue `(1,0)` minus clue `(1,1)` plus clue `(1,2)` gives `x(0,1) = 0`, which passes the check. With
#    clue `(1,2)` taken twice instead, the step gives `2·x(0,1) + x(0,2) = 1`. Its range is [0, 3] and 1
#    lies inside, so the step fixes nothing and the check fails.
#
#    ```python
#    from sweeplab.proof_check import explain_failure
#    obs = EXAMPLES["one-two-one"].observation   # ???/121
#    step = {"rows": [[[1, 0], 1], [[1, 1], -1], [[1, 2], 1]], "modulus": None, "fixes": [[[0, 1], 0]]}
#    proof = {"cell": [0, 1], "value": 0, "method": "by hand", "steps": [step]}
#    print(sweeplab.check_proof(obs, proof))                               # True
#    step["rows"][2][1] = 2
#    print(sweeplab.check_proof(obs, proof), explain_failure(obs, proof))
#    # False step 1: the rule does not fix (0, 1) to 0
#    ```
#
# 2. Yes. The step for `(3,2)` on `gfp-beats-rref` sums to $-6x_{(0,2)} + 3x_{(3,2)} = 0$. Modulo 5 that is
#    $-x_{(0,2)} - 2x_{(3,2)} \equiv 0$, whose range is $[-3, 0]$, and only 0 fits, so both cells are still
#    safe. (Modulo 3 every coefficient vanishes and the check fails.) Report 002's second board's step
#    for `(0,4)` also checks modulo 5.
#
#    ```python
#    obs = EXAMPLES["gfp-beats-rref"].observation
#    proof = sweeplab.deduce(obs, "gfp", proofs=True).proofs[(3, 2)].to_dict()
#    for p in (7, 5, 3):
#        proof["steps"][0]["modulus"] = p
#        print(p, sweeplab.check_proof(obs, proof))       # 7 True, 5 True, 3 False
#    proof["steps"][0]["modulus"] = 5
#    print(sweeplab.Proof.from_dict(proof).explain(obs))   # "-x(0,2) - 2*x(3,2) ≡ 0 (mod 5)" ...
#    ```
#
# 3. In an intermediate game with seed 0, the first click at `(8,8)` already gives one. The shortest
#    proof the prover finds for the safe cell `(12,9)` is one step over 4 rows: clues `(11,8)` and
#    `(11,10)` minus clues `(10,8)` and `(11,9)`. `trivial` and `rref` do not claim the cell, and `subset`
#    needs a chain of 5 steps over 6 rows.
#
#    ```python
#    game = sweeplab.new_game("intermediate", first_click="zero", seed=0)
#    game.reveal(8, 8)
#    obs = game.observation
#    for method in ("trivial", "subset", "rref", "lp", "enumerate"):
#        proof = sweeplab.deduce(obs, method, proofs=True).proofs.get((12, 9))
#        print(method, proof and tuple(proof.size))   # None, (5, 6), None, (1, 4), (1, 4)
#    proof = sweeplab.deduce(obs, "enumerate", proofs=True).proofs[(12, 9)]
#    print(proof.value, proof.sources, sweeplab.check_proof(obs, proof))
#    # 0 {(11, 8): 1, (10, 8): -1, (11, 9): -1, (11, 10): 1} True
#    ```
#
# </details>
