# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 3. Least squares (report 000 §3.1): a wrong claim, and the null-space certificate
#
# Report 000 §3.1 proposes to drop integrality, solve `A x = b` over the reals with
# `numpy.linalg.lstsq` (the minimum-norm solution when there are many), and "take the parts that are 0
# or 1 from it and consider them constants". The report admits "we haven't had a solid proof for it
# yet". There is none: the minimum-norm solution is one point of the solution space, and a coordinate
# can be 0 or 1 there without being fixed on the whole space.

# %%
# %matplotlib inline
import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import scipy.linalg

import sweeplab
from sweeplab.examples import EXAMPLES
from sweeplab.experiments import preset_from_env
from sweeplab.explorer import clue_table

# %% [markdown]
# ## A position where least squares claims a wrong cell
#
# A 5×5 mid-game position from real play (simple-logic agent), no total used:

# %%
obs = sweeplab.Observation.from_text("""
...1?
.112?
.1F2?
.12??
..1??
""")
system = sweeplab.clue_system(obs, use_total=False)
clue_table(system)

# %%
x = np.linalg.lstsq(system.A.astype(float), system.b.astype(float), rcond=None)[0]
pd.DataFrame({"cell": system.cells, "min-norm value": x.round(6) + 0.0})  # + 0.0: no "-0.0"

# %% [markdown]
# Cells `(2,4)` and `(3,4)` have minimum-norm value 0, so report 000's rule opens both. Of the
# $2^6 = 64$ vectors of 0s and 1s, these solve the system:

# %%
solutions = [v for v in itertools.product((0, 1), repeat=system.n_variables)
             if np.array_equal(system.A @ np.array(v), system.b)]
pd.DataFrame(solutions, columns=[f"{c}" for c in system.cells])

# %% [markdown]
# `(3,4)` is a mine in one of the layouts: opening it "safely" can lose the game. `(2,4)` is 0 in every
# layout and is a correct claim.
#
# ## The null-space certificate
#
# The solutions of `A x = b` are $x_0 + N t$, where the columns of $N$ span the null space of $A$.
# Variable $j$ is the same in every real solution exactly when row $j$ of $N$ is zero, i.e. when the
# unit vector $e_j$ lies in the row space of $A$. Then its value is proved (and, being the value of
# any solution, it is 0 or 1 whenever a layout exists). This is the `lstsq-certified` method.

# %%
N = scipy.linalg.null_space(system.A.astype(float))
pd.DataFrame(N.round(3) + 0.0, index=[str(c) for c in system.cells],  # + 0.0: no "-0.000"
             columns=[f"null vector {k}" for k in range(N.shape[1])]).assign(
    determined=np.abs(N).max(axis=1) < 1e-9)

# %% [markdown]
# Row `(3,4)` of the null space is not zero: moving along the null space changes it, so its 0 is an
# accident of the minimum norm. Row `(2,4)` is zero: that cell is determined.

# %%
truth = sweeplab.deduce(obs, method="enumerate", use_total=False)
fig, axes = plt.subplots(1, 3, figsize=(10, 3.6))
for ax, method in zip(axes, ("lstsq", "lstsq-certified", "enumerate"), strict=True):
    d = sweeplab.deduce(obs, method=method, use_total=False)
    sweeplab.plot_position(obs, ax=ax, safe=d.safe, mines=d.mines)
    wrong = sorted((d.safe - truth.safe) | (d.mines - truth.mines))  # claimed, but not forced
    if wrong:  # framed in red
        ax.scatter([c for _, c in wrong], [r for r, _ in wrong], s=420, marker="s", facecolors="none",
                   edgecolors="#d62020", linewidths=2.5)
    sound = "sound" if sweeplab.METHODS[method].sound else "UNSOUND"
    ax.set_title(f"{method} ({sound})\nsafe {sorted(d.safe)}" + (f"\nwrong: {wrong}" if wrong else ""),
                 fontsize=8, color="#d62020" if wrong else "black")
plt.show()

# %% [markdown]
# The catalogue keeps a smaller position of the same kind, where both claims are wrong and nothing is
# forced:

# %%
tiny = EXAMPLES["lstsq-wrong-claim"]
print(tiny.observation.to_text(), "\n", tiny.description)
for method in ("lstsq", "lstsq-certified", "enumerate"):
    d = sweeplab.deduce(tiny.observation, method=method, use_total=False)
    print(f"{method:16s} safe {sorted(d.safe)}  mines {sorted(d.mines)}")

# %% [markdown]
# ## How often, in real play?
#
# The benchmark ([notebook 6](06_method_comparison.ipynb)) counts wrong claims of every method on a labelled
# corpus. Inside a game, the simulator counts the `lstsq` agent's wrong claims (a "certain" reveal of a mine
# or flag on a safe cell, played or not: a zero's flood can open a cell before the same turn's flag on it):

# %%
PRESET = preset_from_env()
games = {"smoke": 300, "quick": 2000, "full": 20000}[PRESET]
df = sweeplab.play("lstsq", level="intermediate", games=games, seed=0, workers=2)
lost_to_claims = int(((df["wrong_claims"] > 0) & ~df["won"]).sum())
print(f"{games} intermediate games: {int(df['wrong_claims'].sum())} wrong claims in "
      f"{int((df['wrong_claims'] > 0).sum())} games; {lost_to_claims} games lost on a wrong claim")

# %% [markdown]
# Rare, but real: at the `quick` preset (2,000 games, seed 0) 10 games meet a wrong claim, the first at
# game 445, and every one of them is lost; with a first click that opens a zero, 6 of 2,000. A few hundred
# games, as a report would play, can easily show none.

# %% [markdown]
# ## Try it
#
# 1. Find a position where `lstsq` wrongly claims a *mine* (play `sweeplab.play("lstsq", ...)` and look
#    at `wrong_claims`, or search random positions with `sweeplab.testing.random_positions`).
# 2. Change the tolerance of `lstsq` (`sweeplab.deduce(obs, "lstsq", tol=...)`): when does it claim more,
#    and are those claims right?
# 3. For a cell that `lstsq-certified` claims, find the combination of rows equal to its unit vector
#    (`numpy.linalg.lstsq(A.T, e_j)`): that combination is its proof.

# %% [markdown]
# <details><summary>Answers (for teachers; try first)</summary>
#
# 1. `??/2?/22/??` without the total. The clues read `x(0,0) + x(0,1) + x(1,1) = 2` and
#    `x(1,1) + x(3,0) + x(3,1) = 2` (twice). The minimum-norm solution puts `(1,1)` at exactly 1 (the other
#    four cells at 1/2), so `lstsq` claims a mine there. But the layout with `(1,1)` safe and the other
#    four cells mines fits every clue, and `enumerate` proves nothing. Found by scanning
#    `sweeplab.testing.random_positions(3000, seed=5, noise=False, max_side=5)` (position 409) for
#    `lstsq` mines that `enumerate` does not prove.
#
#    ```python
#    obs = sweeplab.Observation.from_text("??\n2?\n22\n??")
#    for method in ("lstsq", "enumerate"):
#        d = sweeplab.deduce(obs, method, use_total=False)
#        print(method, "safe", sorted(d.safe), "mines", sorted(d.mines))
#    # lstsq safe [] mines [(1, 1)]
#    # enumerate safe [] mines []
#    s = sweeplab.clue_system(obs, use_total=False)
#    print(s.cells, s.A @ [1, 1, 0, 1, 1], s.b)   # ((0,0), (0,1), (1,1), (3,0), (3,1)) [2 2 2] [2 2 2]
#    ```
#
# 2. A larger `tol` claims every cell whose minimum-norm value lies within `tol` of 0 or 1, so it claims
#    more, and the extra claims are more and more often wrong. Over the exact-clue positions of
#    `random_positions(1000, seed=0, noise=False)` (total used), checked against `enumerate`:
#
#    | tol | 1e-6 (default) | 1e-3 | 0.13 | 0.27 | 0.43 |
#    |---|---|---|---|---|---|
#    | claims | 2459 | 2467 | 3051 | 3823 | 4866 |
#    | wrong | 4 | 8 | 102 | 494 | 1432 |
#
#    Going from 0.27 to 0.43 adds 1043 claims, and 938 of them are wrong. No tolerance makes the method
#    sound (`tol` must lie in [0, 0.5)). The tolerances avoid simple fractions such as 1/10, 1/5 and 2/5:
#    many minimum-norm values are exactly such fractions, and at a tolerance equal to one, the last bit
#    of floating-point rounding (which differs between machines) decides whether those cells are claimed.
#
#    ```python
#    from sweeplab.testing import random_positions
#    tols = (1e-6, 1e-3, 0.13, 0.27, 0.43)
#    claims, wrong = dict.fromkeys(tols, 0), dict.fromkeys(tols, 0)
#    for obs in random_positions(1000, seed=0, noise=False):
#        try:
#            exact = sweeplab.deduce(obs, "enumerate")
#            found = {tol: sweeplab.deduce(obs, "lstsq", tol=tol) for tol in tols}
#        except sweeplab.InconsistentPositionError:   # 136 positions no layout fits
#            continue
#        for tol, d in found.items():
#            claims[tol] += len(d)
#            wrong[tol] += len((d.safe - exact.safe) | (d.mines - exact.mines))
#    print(list(claims.values()), list(wrong.values()))
#    # [2459, 2467, 3051, 3823, 4866] [4, 8, 102, 494, 1432]
#    ```
#
# 3. For `(2,4)` in the 5×5 position above, the combination is clue `(1,3)` minus clue `(0,3)`:
#    `A.T @ y` is the unit vector of `(2,4)` and `y @ b = 0`, so `x(2,4) = 0` in every solution. This is
#    the proof `deduce(obs, "lstsq-certified", use_total=False, proofs=True)` gives too.
#
#    ```python
#    e = np.zeros(system.n_variables)
#    e[system.cells.index((2, 4))] = 1
#    y = np.linalg.lstsq(system.A.T.astype(float), e, rcond=None)[0]
#    print({clue: round(float(v), 6) + 0.0 for clue, v in zip(system.clues, y)})
#    # {(0, 3): -1.0, (1, 3): 1.0, (2, 3): 0.0, (3, 2): 0.0, (4, 2): 0.0}
#    print((system.A.T @ y).round(6) + 0.0, round(float(y @ system.b), 6) + 0.0)   # [0. 0. 1. 0. 0. 0.] 0.0
#    ```
#
# </details>
