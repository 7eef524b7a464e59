"""Fugitive's probes: the table seen from a seat as a graph, and the detective's exact belief.

:func:`hideout_graph` is the hideout sequence of one position as a path graph, node ``i`` being
the ``i``-th card from the start card 0, seen from a perspective: values the viewer cannot see are
``None``, with the bounds any viewer can deduce from the step limits.  It is what
:mod:`gamelib.fugitive.draw` draws, so the drawing can only show what the viewer is allowed to
know.  It is built per call (a table has at most 43 cards); nothing in the rules depends on it.

The exact belief lives in the package :mod:`gamelib.fugitive.belief`; this module re-exports its
public names so that every existing import (``from gamelib.fugitive.analysis import belief``)
keeps working.  They, and networkx, are imported on first use: a tournament reads this module
for its role hooks in every fresh worker, and a game between agents that never ask for the belief
must not pay ~0.3 s to import it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

    from gamelib.fugitive.belief import (
        CLASSES,
        GROUPS,
        MEASURES,
        PUBLISHED_CLASSES,
        Belief,
        BeliefTooLarge,
        belief,
        card_class,
        clear_caches,
        determinize,
        group_of,
        tables_for,
    )

from gamelib.fugitive.board import STEP_LIMIT, footprints
from gamelib.fugitive.rules import DETECTIVE, F_SPRINT, FUGITIVE, FugitiveState


def check_perspective(perspective: object) -> int | None:
    """``None`` (omniscient), 0 (fugitive) or 1 (detective); anything else is a ValueError."""
    if perspective is None:
        return None
    if type(perspective) is not int or perspective not in (FUGITIVE, DETECTIVE):
        raise ValueError(
            f"perspective must be None (omniscient), 0 (fugitive) or 1 (detective), got {perspective!r}"
        )
    return perspective


def hideout_graph(state: FugitiveState, perspective: int | None = None) -> nx.DiGraph:
    """The hideout sequence of ``state`` as a path graph, seen from ``perspective``.

    ``perspective``: ``None`` sees everything, 0 (the fugitive) everything on the table, 1 (the
    detective) only face-up cards, as in :meth:`FugitiveState.observation`.

    Node ``i`` (0 = the start card) has:

    * ``card``: the number, or ``None`` if face down and hidden from the viewer;
    * ``revealed``: face up (the start card, cards found by the detective, and the escape card);
    * ``sprint_count`` (public) and ``sprint_cards`` (tuple, or ``None`` when hidden);
    * ``footprints``: their total sprint value, or ``None`` when hidden;
      ``footprints_range``: what the viewer knows of it, ``(count, 2 * count)`` when hidden;
    * ``max_reach``: the highest number this hideout could be, counted from the previous card
      (``previous + 3 + footprints``), or ``None`` if the viewer cannot tell;
    * ``low`` / ``high``: bounds on the number deduced from the step limits alone (equal to
      ``card`` when known): what any viewer can infer from the visible cards and sprint counts
      (a face-down card lies in 1..last-1, ``last`` being the state's escape card);
    * ``pending``: the hideout whose sprint cards are still being laid (its limit is not final).

    Edge ``i -> i + 1`` has ``step`` (the difference, ``None`` if unknown) and ``sprint_needed``
    (footprints that step required, ``None`` if unknown).
    """
    perspective = check_perspective(perspective)
    see_all = perspective != DETECTIVE
    n = len(state.hideouts)
    last_pending = state.phase == F_SPRINT
    last = state.last  # the escape card of this game's deck (42 published)
    import networkx as nx

    graph = nx.DiGraph(perspective=perspective, phase=state.phase, round=state.round, last=last)

    cards: list[int | None] = []
    fp_low: list[int] = []
    fp_high: list[int] = []
    for i, (card, revealed, sprints) in enumerate(
        zip(state.hideouts, state.revealed, state.sprints, strict=True)
    ):
        visible = revealed or see_all
        stack_visible = see_all or state.sprints_shown(i)  # option escape_sprints="hidden"
        known_fp = sum(footprints(c) for c in sprints) if stack_visible else None
        cards.append(card if visible else None)
        fp_low.append(known_fp if known_fp is not None else len(sprints))
        fp_high.append(known_fp if known_fp is not None else 2 * len(sprints))
        graph.add_node(
            i,
            card=card if visible else None,
            revealed=revealed,
            sprint_count=len(sprints),
            sprint_cards=tuple(sprints) if stack_visible else None,
            footprints=known_fp,
            footprints_range=(fp_low[i], fp_high[i]),
            pending=last_pending and i == n - 1,
        )

    low, high = _step_bounds(cards, fp_high, last, last_pending)

    for i in range(n):
        value = cards[i]
        previous: int | None = cards[i - 1] if i > 0 else None
        graph.nodes[i]["low"] = low[i]
        graph.nodes[i]["high"] = high[i]
        known_fp = graph.nodes[i]["footprints"]
        graph.nodes[i]["max_reach"] = (
            min(last, previous + STEP_LIMIT + known_fp)
            if previous is not None and known_fp is not None
            else None
        )
        if i > 0:
            step = value - previous if value is not None and previous is not None else None
            graph.add_edge(
                i - 1,
                i,
                step=step,
                sprint_needed=max(0, step - STEP_LIMIT) if step is not None else None,
            )
    return graph


def _step_bounds(
    cards: list[int | None], fp_high: list[int], last: int, last_pending: bool
) -> tuple[list[int], list[int]]:
    """Bounds on each hideout's number from the step limits alone.

    Increasing numbers, each at most previous + 3 + footprints (unbounded while its sprint cards
    are still being laid), the start card 0, hidden cards <= last - 1; propagated forward then
    backward, so each bound is what any viewer of these cards and stack sizes can infer.
    """
    n = len(cards)
    max_step = [
        last if (last_pending and i == n - 1) or i == 0 else STEP_LIMIT + fp_high[i] for i in range(n)
    ]
    low = [0] * n
    high = [last] * n
    for i in range(n):
        known = cards[i]
        lo, hi = (1, last - 1) if known is None else (known, known)
        if i > 0:
            lo = max(lo, low[i - 1] + 1)
            hi = min(hi, high[i - 1] + max_step[i])
        low[i], high[i] = lo, hi
    for i in range(n - 2, -1, -1):
        high[i] = min(high[i], high[i + 1] - 1)
        low[i] = max(low[i], low[i + 1] - max_step[i + 1])
    return low, high


_DEPRECATED = {"_CLASS_OF": "PUBLISHED_CLASSES", "_tables": "tables_for"}
"""Deprecated aliases: ``_CLASS_OF`` of :data:`gamelib.fugitive.belief.PUBLISHED_CLASSES` and
``_tables`` of :func:`gamelib.fugitive.belief.tables_for` (tests of the small decks still read
them; new code imports the belief package's public names)."""

__all__ = [
    "CLASSES",
    "GROUPS",
    "MEASURES",
    "PUBLISHED_CLASSES",
    "Belief",
    "BeliefTooLarge",
    "belief",
    "card_class",
    "check_perspective",
    "clear_caches",
    "determinize",
    "group_of",
    "hideout_graph",
    "tables_for",
]


_BELIEF_NAMES = frozenset(
    (
        "CLASSES",
        "GROUPS",
        "MEASURES",
        "PUBLISHED_CLASSES",
        "Belief",
        "BeliefTooLarge",
        "belief",
        "card_class",
        "clear_caches",
        "determinize",
        "group_of",
        "tables_for",
    )
)


def __getattr__(name: str) -> Any:
    """The belief's public names, imported from :mod:`gamelib.fugitive.belief` on first use."""
    if name in _BELIEF_NAMES or name in _DEPRECATED:
        value = getattr(import_module("gamelib.fugitive.belief"), _DEPRECATED.get(name, name))
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
