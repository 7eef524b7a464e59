"""Fugitive's probes: the detective's exact belief and determinization.

The implementation lives in :mod:`gamelib.fugitive.belief`; this module re-exports its names so
that every existing import (``from gamelib.fugitive.analysis import belief``) keeps working.
"""

from __future__ import annotations

from gamelib.fugitive.belief import (
    _BELIEFS,
    _CACHE,
    _CLASS_OF,
    _GROUP_OF,
    CLASSES,
    GROUPS,
    MEASURES,
    Belief,
    BeliefTooLarge,
    _facts_from_observation,
    _facts_from_state,
    _tables,
    belief,
    card_class,
    clear_caches,
    determinize,
    group_of,
)

__all__ = [
    "CLASSES",
    "GROUPS",
    "MEASURES",
    "_BELIEFS",
    "_CACHE",
    "_CLASS_OF",
    "_GROUP_OF",
    "Belief",
    "BeliefTooLarge",
    "_facts_from_observation",
    "_facts_from_state",
    "_tables",
    "belief",
    "card_class",
    "clear_caches",
    "determinize",
    "group_of",
]
