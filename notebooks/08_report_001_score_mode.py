# %% [markdown]
# # 8. Reproducing report 001 (CS440 project 2): mine density against final score
#
# Report 001 plays in **score mode**: stepping on a mine shows it and play goes on; the final score is
# the share of mines flagged or deduced rather than stepped on. Its figures plot the average final score
# against the mine density ($0.05 \le q \le 1$) for
#
# 1. the basic agent (single-rule inferences, random guess) and the advanced "reductio ad absurdum"
#    agent (proof by contradiction over the whole knowledge base) — Figure 1;
# 2. the advanced agent with *global information* (the total-mines rule) — Figure 2;
# 3. the advanced agent with *better decisions* (guess the cell with the lowest local estimate) — Figure 3;
#
# and a step-by-step strip of one 5×5 game at density 0.3 (final score 0.75). The report states no
# numbers in its text except that with global information the score at density 1.0 is 1.0.
# Board size: the report does not give it for Figures 1–3; we use 10×10 (report 004 uses the same).

# %%
# %matplotlib inline
from sweeplab import experiments, figures

PRESET = experiments.preset_from_env()
scores = experiments.run("001-density-score", preset=PRESET)
scores.pivot(index="density", columns="agent", values="mean_score").round(3)

# %%
fig = figures.density_score_figure(scores)

# %% [markdown]
# **Reading the curves against the report.**
#
# * The advanced agent beats the basic one at low and medium densities, as in the report's Figure 1.
#   The report also saw the basic agent *better* above density 0.65 and blamed "implementation
#   issues" of its advanced agent. Ours, a complete test by enumeration, is never worse on the same
#   boards beyond sampling error: proving more cells can only avoid guesses. The crossing in the
#   report is a flaw of its implementation, not of the method.
# * Global information: at density 1.0 every cell is a mine; the total-mines rule then says every
#   covered cell is a mine and the agent flags them all (score 1.0), as the report found. More
#   generally the total helps most at high density, where few covered cells are safe.
# * Better decisions: guessing the lowest local estimate is better than a uniform guess at low
#   density. It is a heuristic, not a probability (notebook 10's exact probabilities do better).

# %%
high = scores[scores["density"] == scores["density"].max()].set_index("agent")["mean_score"]
print("score at the highest density:", high.round(3).to_dict())

# %% [markdown]
# ## One game, move by move (report 001 "Performance 1")
#
# A 5×5 board at density 0.3, the advanced agent, score mode. Green circles mark cells the agent
# *proved* safe before opening them; the titles say why each move was played (`guess`, or the method
# that proved it).

# %%
steps = experiments.run("001-game-steps", preset=PRESET)
steps[["step", "kind", "row", "col", "source"]]

# %%
fig = figures.game_steps_figure(steps)
