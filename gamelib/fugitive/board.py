"""Fugitive's boards as networkx graphs: the hideout sequence on the table and the step graph 0..42.

Two graphs describe the game:

* :func:`step_graph` is the static topology: which number may follow which.  A normal move goes
  at most 3 higher than the previous hideout; a longer jump needs sprint cards worth the excess
  in footprints (odd cards 1, even cards 2).  It is built once per bound and deck size
  (``functools.cache``) and the published graph's adjacency is also exposed as plain tuples
  (:data:`NORMAL_SUCCESSORS`, :data:`MIN_HIDEOUTS_FROM_START`...) so that hot code never touches
  a graph.  Every static helper takes ``last``, the escape card of the deck (option
  ``escape_card``, 7..42; default the published 42), so that a small game has its own board
  0..last and its errors name its own range.
* :func:`hideout_graph` is the table of one position as a path graph, node ``i`` being the
  ``i``-th card from the start card 0, seen from a perspective: values the viewer cannot see are
  ``None``.  It is what :mod:`gamelib.fugitive.draw` draws, so the drawing can only show what
  the viewer is allowed to know.  It is built per call (a table has at most 43 cards); nothing
  in the rules engine depends on it.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import networkx as nx

from gamelib.fugitive.rules import (
    DETECTIVE,
    F_SPRINT,
    FUGITIVE,
    LAST,
    MIN_ESCAPE_CARD,
    STEP_LIMIT,
    footprints,
    layout_for,
)

if TYPE_CHECKING:
    from gamelib.fugitive.rules import FugitiveState

NUMBERS = tuple(range(LAST + 1))
"""The card numbers 0..42: the nodes of the published step graph (``range(last + 1)`` in general)."""

MAX_JUMP = LAST
"""The longest jump conceivable in the published deck (0 straight to 42; ``last`` in general)."""

MAX_SPRINT = MAX_JUMP - STEP_LIMIT
"""Footprints needed by the longest published jump: beyond this bound, no new edge appears in the
step graph (:func:`max_sprint_for` gives the bound of a smaller deck)."""


def check_last(last: object) -> int:
    """``last`` as a valid escape card (7..42), or a ValueError naming ``last``.

    The board helpers accept any deck size the rules accept (``FugitiveOptions.escape_card``).
    """
    return _check_int(last, "last", MIN_ESCAPE_CARD, LAST)


def max_sprint_for(last: int = LAST) -> int:
    """The largest useful sprint bound of the deck 0..``last``: the jump from 0 to ``last``."""
    return check_last(last) - STEP_LIMIT


def _check_int(value: object, name: str, low: int, high: int) -> int:
    """``value`` as an int in [low, high], or a ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an int, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")
    return value


def check_perspective(perspective: object) -> int | None:
    """``None`` (omniscient), 0 (fugitive) or 1 (detective); anything else is a ValueError."""
    if perspective is None:
        return None
    if type(perspective) is not int or perspective not in (FUGITIVE, DETECTIVE):
        raise ValueError(
            f"perspective must be None (omniscient), 0 (fugitive) or 1 (detective), got {perspective!r}"
        )
    return perspective


# ---------------------------------------------------------------------------- the step graph
def step_graph(max_sprint: int = 0, last: int = LAST) -> nx.DiGraph:
    """The numbers 0..``last`` with an edge ``a -> b`` whenever ``b`` may follow ``a`` as a hideout.

    ``b - a`` in 1..3 is a normal move (``sprint_needed == 0``); longer jumps appear up to
    ``3 + max_sprint`` with ``sprint_needed = b - a - 3``, the footprints of sprint cards the
    fugitive must slip under ``b``.  Nodes carry ``deck`` (0-2, or -1 for 0-3 and the escape
    card, from the layout of ``last``) and ``footprints`` (the card's value as a sprint card).
    The graph has ``last`` and ``max_sprint`` as graph attributes.  It is shared: do not mutate
    it (it is frozen to make that an error).
    """
    last = check_last(last)
    max_sprint = _check_int(max_sprint, "max_sprint", 0, last - STEP_LIMIT)
    return _step_graph(max_sprint, last)


@functools.cache
def _step_graph(max_sprint: int, last: int) -> nx.DiGraph:
    """:func:`step_graph` once validated: one frozen graph per (bound, deck size)."""
    layout = layout_for(last)
    graph = nx.DiGraph(max_sprint=max_sprint, last=last)
    for n in range(last + 1):
        graph.add_node(n, deck=layout.deck_of(n), footprints=footprints(n))
    for a in range(last + 1):
        for b in range(a + 1, min(last, a + STEP_LIMIT + max_sprint) + 1):
            step = b - a
            graph.add_edge(a, b, step=step, sprint_needed=max(0, step - STEP_LIMIT))
    return nx.freeze(graph)


@functools.cache
def _distances_from(start: int, max_sprint: int, last: int = LAST) -> dict[int, int]:
    return dict(nx.single_source_shortest_path_length(_step_graph(max_sprint, last), start))


def _successor_tuples() -> tuple[tuple[int, ...], ...]:
    graph = step_graph(0)
    return tuple(tuple(sorted(graph.successors(n))) for n in NUMBERS)


def _predecessor_tuples() -> tuple[tuple[int, ...], ...]:
    graph = step_graph(0)
    return tuple(tuple(sorted(graph.predecessors(n))) for n in NUMBERS)


NORMAL_SUCCESSORS: tuple[tuple[int, ...], ...] = _successor_tuples()
"""``NORMAL_SUCCESSORS[a]``: the numbers a normal move (no sprint) can lay after ``a``."""

NORMAL_PREDECESSORS: tuple[tuple[int, ...], ...] = _predecessor_tuples()
"""``NORMAL_PREDECESSORS[b]``: the numbers ``b`` can follow by a normal move."""

MIN_HIDEOUTS_FROM_START: tuple[int, ...] = tuple(_distances_from(0, 0)[n] for n in NUMBERS)
"""Fewest hideouts laid to reach each number from card 0 without sprinting (42 needs 14)."""

MIN_HIDEOUTS_TO_ESCAPE: tuple[int, ...] = tuple(
    nx.shortest_path_length(step_graph(0), n, LAST) for n in NUMBERS
)
"""Fewest hideouts (42 included) from each number to the escape card, without sprinting."""


def sprint_needed(from_card: int, to_card: int, last: int = LAST) -> int:
    """Footprints of sprint cards needed to lay ``to_card`` right after ``from_card``.

    Both cards are numbers of the deck 0..``last``.
    """
    last = check_last(last)
    from_card = _check_int(from_card, "from_card", 0, last)
    to_card = _check_int(to_card, "to_card", 0, last)
    if to_card <= from_card:
        raise ValueError(f"hideouts increase: {to_card} cannot follow {from_card}")
    return max(0, to_card - from_card - STEP_LIMIT)


def reachable(from_card: int, footprints: int = 0, last: int = LAST) -> tuple[int, ...]:
    """The numbers that may follow ``from_card`` with sprint cards worth ``footprints`` underneath.

    Every number above ``from_card`` up to ``from_card + 3 + footprints`` (capped at the escape
    card ``last``): sprint cards only raise the limit, so overpaying is allowed.
    """
    last = check_last(last)
    from_card = _check_int(from_card, "from_card", 0, last)
    footprints = _check_int(footprints, "footprints", 0, 2 * last)
    return tuple(range(from_card + 1, min(last, from_card + STEP_LIMIT + footprints) + 1))


def min_hideouts_to(target: int, start: int = 0, max_sprint: int = 0, last: int = LAST) -> int:
    """The fewest hideouts laid to go from ``start`` to ``target`` (the shortest path length).

    With ``max_sprint`` footprints allowed under every hideout (0: normal moves only), in the
    deck 0..``last``.  From 0 to 42 without sprinting that is 14 hideouts.
    """
    last = check_last(last)
    start = _check_int(start, "start", 0, last)
    target = _check_int(target, "target", 0, last)
    max_sprint = _check_int(max_sprint, "max_sprint", 0, last - STEP_LIMIT)
    if target <= start:
        raise ValueError(f"target must be above start (hideouts increase), got {start} -> {target}")
    return _distances_from(start, max_sprint, last)[target]


def shortest_route(target: int, start: int = 0, max_sprint: int = 0, last: int = LAST) -> tuple[int, ...]:
    """One fewest-hideouts route from ``start`` to ``target`` (both included), as card numbers."""
    min_hideouts_to(target, start, max_sprint, last)  # validates the arguments
    return tuple(nx.shortest_path(_step_graph(max_sprint, last), start, target))


# ---------------------------------------------------------------------------- the hideout graph
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

    # Interval bounds: increasing numbers, each at most previous + 3 + footprints (unbounded
    # while its sprint cards are still being laid), the start card 0, hidden cards <= last - 1.
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
