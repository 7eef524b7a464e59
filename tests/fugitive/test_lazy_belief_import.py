"""A Fugitive tournament between agents that never ask for the belief must not import it.

Every fresh tournament worker reads ``gamelib.fugitive.analysis`` for its role hooks and resolves
the agents by name through ``gamelib.fugitive.agents``; both used to import the exact belief and
networkx at the top (~0.3 s per worker, inside a user's first tournament call).  They now import
them on first use, and the names they re-export still resolve.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys
import gamelib
from gamelib.analysis import tournament
import gamelib.fugitive.agents
tournament(gamelib.make("fugitive"), ["random", "heuristic"], games=4, seed=3, progress=False)
print(sorted(m for m in sys.modules if m == "networkx" or m.startswith("gamelib.fugitive.belief")))
"""


def test_a_tournament_of_cheap_agents_imports_neither_the_belief_nor_networkx() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_the_re_exported_names_still_resolve_and_unknown_names_raise() -> None:
    import gamelib.fugitive.analysis as analysis
    from gamelib.fugitive import belief as belief_package

    for name in ("belief", "Belief", "MEASURES", "tables_for", "clear_caches", "determinize"):
        assert getattr(analysis, name) is getattr(belief_package, name)
    assert analysis._CLASS_OF is belief_package.PUBLISHED_CLASSES
    assert analysis._tables is belief_package.tables_for
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        analysis.nope  # noqa: B018


def test_the_belief_detective_still_checks_its_measure_and_plays() -> None:
    import random

    import gamelib
    from gamelib.fugitive.agents import BeliefDetective
    from gamelib.fugitive.rules import DETECTIVE

    with pytest.raises(ValueError, match="measure must be one of"):
        BeliefDetective(measure="nope")
    state = gamelib.make("fugitive").new_game(seed=5)
    rng = random.Random(5)
    detective = BeliefDetective()
    while state.current_player != DETECTIVE:
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert detective.act(state, DETECTIVE, rng) in state.legal_actions()
