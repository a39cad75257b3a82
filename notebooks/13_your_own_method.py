# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 13. Your own method: register it, check it, bench it
#
# sweeplab's registry is open (SPEC §4). A method is a function
# `function(obs, *, use_total=True, **options) -> (safe, mines)` that reads the position's clue system
# `lo <= A x <= hi` (`sweeplab.clue_system`). Registered with `sweeplab.register_method`, it works
# wherever a built-in does: `deduce`, chain agents in `play` (on any number of workers), `sweeplab solve`,
# `sweeplab bench` and the explorer (on the command line, `--plugin MODULE` imports the module that
# registers it).
#
# Report 002 notes that the order of the columns changes what one pass of RREF finds. The module
# `sweeplab.example_plugin` tries the reversed order; here is the method's source:

# %%
# %matplotlib inline
import inspect

import matplotlib.pyplot as plt
import pandas as pd

import sweeplab
from sweeplab import example_plugin, experiments
from sweeplab.stats import paired_difference, wilson_interval
from sweeplab.testing import check_sound, random_positions

print(inspect.getsource(example_plugin.rref_reversed))

# %% [markdown]
# Importing the module registered it (the last lines of the module call `register_method`). On report
# 002's board the two orders find the same cells; on the row `?1?1??` with one mine, the usual order finds
# every forced cell and the reversed one only two:

# %%
info = sweeplab.METHODS["rref-reversed"]
print(info.name, "| sound:", info.sound, "| complete:", info.complete, "|", info.summary)
for text, mines in (("??????\n?1122?", 3), ("?1?1??", 1)):
    obs = sweeplab.Observation.from_text(text, mines=mines)
    print(f"\n{text.replace(chr(10), ' / ')}  (mines={mines})")
    for name in ("rref", "rref-reversed", "enumerate"):
        d = sweeplab.deduce(obs, name)
        print(f"  {name:14s} safe {sorted(d.safe)}  mines {sorted(d.mines)}")

# %% [markdown]
# ## Is it sound? Check it against exact enumeration
#
# `sweeplab.testing.check_sound` compares every claim with exact enumeration on small random
# positions, adversarial ones included (flags, revealed mines, lost clues, clue noise, clues that fit
# no layout). The report is true when the method never claimed a wrong cell (and, for a method
# registered `complete=True`, never missed a forced one); put `assert check_sound("my-method")` in your
# own test suite. A deliberately reckless method is caught:

# %%
PRESET = experiments.preset_from_env()
n = {"smoke": 60, "quick": 300, "full": 2000}[PRESET]
positions = list(random_positions(n, seed=13))
print(check_sound("rref-reversed", positions=positions))


def first_covered_is_safe(obs, *, use_total=True):
    """Unsound on purpose: calls the first covered cell safe."""
    covered = [(r, c) for r, c in zip(*(obs.grid == sweeplab.COVERED).nonzero(), strict=True)]
    return set(covered[:1]), set()


bad = check_sound(first_covered_is_safe, positions=positions)
print(bad.method, "sound:", bad.sound, "| wrong claims:", bad.wrong_claims)
print(bad.counterexamples[0])

# %% [markdown]
# ## Proofs come free
#
# A method needs no proof code of its own. `deduce(obs, name, proofs=True)` asks sweeplab's prover for a
# proof of every claimed cell, built from the clue system alone (SPEC §6), which `sweeplab.check_proof`
# checks independently. A wrong claim has none, and `unproved_reason` says why:

# %%
d = sweeplab.deduce(obs, "rref-reversed", proofs=True)
print("every proof checks:", all(sweeplab.check_proof(obs, p) for p in d.proofs.values()))
cell = min(d.proofs)
print(d.proofs[cell].explain(obs))
example = bad.counterexamples[0]  # the reckless method's first wrong claim, above
wrong = sweeplab.deduce(example.observation, first_covered_is_safe, proofs=True, use_total=example.use_total)
print({c: wrong.unproved_reason(c, example.observation) for c in wrong.unproved})

# %% [markdown]
# ## How far does it get? Beside the built-ins, in whole games
#
# A chain agent opens what its methods prove and guesses otherwise. With only one pass of RREF, the
# column order decides what is found; `seconds_<method>` in every row of `play` says what each method
# cost.

# %%
games = {"smoke": 10, "quick": 200, "full": 2000}[PRESET]
SEED = 2026  # the seed of every game below: change it here, once, so that the comparisons stay paired
rows, played = [], {}
for methods in (["rref"], ["rref-reversed"], ["trivial", "rref"], ["trivial", "rref-reversed"]):
    df = played[" → ".join(methods)] = sweeplab.play("chain", methods=methods, level="beginner", games=games,
                                                      seed=SEED, first_click="zero")
    rows.append({"methods": " → ".join(methods), "games": len(df), "win rate": df["won"].mean(),
                 "guesses per game": df["guesses"].mean(),
                 "ms per game in its methods": 1e3 * sum(df[f"seconds_{m.replace('-', '_')}"].mean()
                                                         for m in methods)})
table = pd.DataFrame(rows).set_index("methods")
table.round(3)

# %%
fig, ax = plt.subplots(figsize=(6, 2.6))
wins = (table["win rate"] * table["games"]).round().astype(int)
low, high = wilson_interval(wins.to_numpy(), table["games"].to_numpy())
ax.barh(table.index, table["win rate"], color="#4c72b0",
        xerr=[table["win rate"] - low, high - table["win rate"]], capsize=3)
ax.invert_yaxis()
ax.set_xlabel(f"beginner win rate, Wilson 95% interval ({games} games each, zero first click)")
ax.set_xlim(0, 1)
ax.set_title("Win rate of each method chain on the same beginner games")
fig.tight_layout()

# %% [markdown]
# ## Better, or lucky? The same games, game by game
#
# Every chain above played the same seeded games (`SEED`, 2026 as shipped), so two chains can be compared game by game:
# most games end alike, and only those one won and the other lost tell them apart.
# `sweeplab.stats.paired_difference` counts them (`+` won only by the second chain, `-` only by the
# first) and gives the difference with a paired 95% interval (Newcombe's) and McNemar's exact p-value.
# An interval that holds 0 says the games played cannot tell the two apart. From the shell,
# `sweeplab compare 'chain methods=["rref"]' 'chain methods=["rref-reversed"]' --level beginner
# --first-click zero --seed 2026 --games 200 --plugin sweeplab.example_plugin` plays the same games (the
# `quick` preset's) on every core.

# %%
for name in ("rref-reversed", "trivial → rref", "trivial → rref-reversed"):
    print(f"{name:24s} against rref: {paired_difference(played['rref']['won'], played[name]['won'])}")

# %% [markdown]
# ## Your own agent: register it, play it by name
#
# An agent is a frozen dataclass subclassing `sweeplab.agents.Agent`: its fields are its options,
# `methods` the chain it deduces with, and `guess(obs, rng)` the cell it opens when no method proves one.
# It sees only the observation. `sweeplab.register_agent` gives it a name that works wherever a built-in
# agent's does: `play`, `compare`, sweeps, the command line's `--agent` (with `--plugin`) and the explorer.
# The example plugin registers one that guesses on the border first (report 000 §2.3 found border cells
# "a bit better"):

# %%
print(inspect.getsource(example_plugin.BorderFirstAgent.guess))
print(sweeplab.AGENTS["border-first"].summary)
# the chain above, the same games and first click (random, as the chain agent's), guessing on the border
border = sweeplab.play("border-first", first_move="random", level="beginner", games=games, seed=SEED,
                       first_click="zero")
uniform = played["trivial → rref-reversed"]
print(f"border-first against guesses anywhere: {paired_difference(uniform['won'], border['won'])}")
