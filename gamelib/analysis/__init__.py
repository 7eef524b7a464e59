"""Experiments over many games: tournaments, agent comparisons, rule sweeps, statistics, executors.

* :func:`tournament` (also ``gamelib.tournament``): agents in rotating seats, recorded seeds,
  win rates and mean returns with 95% intervals, run here, on a process pool or on Dask;
* :func:`compare_agents`: each agent against a common field of baseline opponents;
* :func:`paired`: agent A against agent B on the same seeds, seats and opponents, with paired
  intervals of the difference;
* :func:`round_robin`: more agents than seats, every group meets (a win matrix for two players);
* :func:`sweep` (also ``gamelib.sweep``): the same tournament across values of a rule option,
  by seat, role (drawn by lot or not) or agent, win rates and mean scores with intervals;
* unfinished games (a safety limit stopped them) are counted apart, never as draws;
* :mod:`~gamelib.analysis.stats`: Wilson, t and bootstrap intervals;
* :func:`tree_size`: histories and information states of a configuration (is it small enough
  for an exact solver such as CFR?).

pandas, tqdm, loky and Dask are optional: imported only by the features that use them.
"""

from gamelib.analysis.compare import Comparison, compare_agents
from gamelib.analysis.paired import PairedComparison, PairedStat, paired
from gamelib.analysis.round_robin import RoundRobin, round_robin
from gamelib.analysis.stats import bootstrap_interval, mean_interval, wilson_interval
from gamelib.analysis.sweep import SweepResults, sweep
from gamelib.analysis.tournament import RoleWarning, Stat, TournamentResults, tournament
from gamelib.analysis.tree import TreeSize, TreeTooLarge, tree_size

__all__ = [
    "Comparison",
    "PairedComparison",
    "PairedStat",
    "RoleWarning",
    "RoundRobin",
    "Stat",
    "SweepResults",
    "TournamentResults",
    "TreeSize",
    "TreeTooLarge",
    "bootstrap_interval",
    "compare_agents",
    "mean_interval",
    "paired",
    "round_robin",
    "sweep",
    "tournament",
    "tree_size",
    "wilson_interval",
]
