"""The belief itself: :func:`belief` counts once and gives the world total and the probabilities
(:class:`Belief`): the hideout probabilities at once, the card locations on first use from the
same count (:mod:`~.locations`), with the caches a live panel or an agent relies on.

The caches are bounded by entries and edges, so that together they stay under about 35 MiB of live
Python memory however many positions are counted, and under 10 MiB in a panel's or an agent's run
(each count's card locations or samples asked at once: they let the kept count go).  Measured
(deep size of each cache, sampled every 100 positions, in one process over 2,640 positions in a
row: shared, heldout-C, heldout-A, each belief's world count and card locations asked): beliefs
2.3-2.4 MiB, shared polynomials 1.8-2.3 MiB (3.9-21 MiB with the former 40,000 entries), kept
counts 0 after the locations: 4.1-4.6 MiB in all, from 5.6-23.7 MiB.  The bounds, with their
worst size:

* the latest beliefs, :data:`_BELIEFS_SIZE` = 256 (about 7-10 KiB each with their card locations:
  under 2.5 MiB);
* the last stack's polynomials shared between programmes, :data:`POLYS_KEPT` = 4,000 entries
  (about 830 and 230 bytes an entry in the two memos of :mod:`~.weights`: under 4.5 MiB);
* the direct counts' last-stack weights, :data:`~.direct.ENDS_KEPT` = 4,000 entries (some 300-400
  bytes each: under 1.6 MiB);
* the counts kept for the card locations, :data:`_COUNTED_EDGES` = 100,000 edges (about 70 bytes
  an edge: under 7 MiB; the benchmark's panel asks for the locations at once, which lets them go);
* full programmes kept for sampling, :data:`_CACHE_EDGES` = 300,000 edges (under 21 MiB), and
  :data:`SAMPLERS_SIZE` samplers.

The newest count is kept whatever its size (the card locations right after must not count again),
so on top of these bounds lies the one count being served: its own size (565,752 edges, about
38 MiB, for the hardest held-out position), let go by the next count or by its card locations.
The resident memory is set by the hardest counts' transient programmes, not by these caches.

For the garbage collector, the caches hold few objects it tracks: a kept belief is 3 (its facts and
key, no closures), the shared polynomials are tuples of ints (untracked once a collection has seen
them), counts are dicts of ints.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import compress
from typing import Any

from gamelib.core.game import InformationState
from gamelib.fugitive.belief import both, direct, kernel, weights
from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.belief.direct import Counted, direct_count
from gamelib.fugitive.belief.direct_early import early_count
from gamelib.fugitive.belief.direct_locations import direct_locations
from gamelib.fugitive.belief.facts import Facts, facts_key, facts_of
from gamelib.fugitive.belief.locations import Where, card_locations
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.belief.tables import MEASURES
from gamelib.fugitive.rules import FugitiveObservation, FugitiveState


class Belief:
    """The detective's exact belief over the fugitive's hidden cards, under one measure.

    ``measure`` is ``"deals"`` (a world weighs the number of deal orders that produce it: what
    shuffled decks imply) or ``"worlds"`` (every consistent world counts once).
    ``mass`` is the total weight under that measure; :attr:`worlds` the number of consistent
    worlds (the same for both measures).
    ``position_probs[i][v]``: P(the face-down hideout at position ``i`` is ``v``);
    ``hideout_prob[v]``: P(``v`` is a face-down hideout); ``sprint_prob[v]``: P(``v`` is a
    face-down sprint card); ``hand_prob[v]``: P(``v`` is in the fugitive's hand) (1 for the
    escape card until it is played); ``deck_prob[v]``: P(``v`` is still in a deck).  All indexed
    0..42 whatever the deck size, so that callers index them the same way in every game; in a
    smaller deck (option ``escape_card``) the entries above the escape card are 0.
    The card locations and, under ``deals``, the world count are computed on first use.
    """

    __slots__ = (
        "_cache",
        "_source",
        "_where",
        "_worlds",
        "exact",
        "hideout_prob",
        "mass",
        "measure",
        "position_probs",
    )

    def __init__(
        self,
        *,
        mass: int,
        position_probs: dict[int, tuple[float, ...]],
        hideout_prob: tuple[float, ...],
        exact: bool = True,
        measure: str = "deals",
        worlds: int | Callable[[], int] | None = None,
        where: Callable[[], tuple[tuple[float, ...], ...]] | None = None,
        source: tuple[tuple[Any, ...], Facts] | None = None,
    ) -> None:
        self.mass = mass
        self.position_probs = position_probs
        self.hideout_prob = hideout_prob
        self.exact = exact
        """False only for the edition-2 first-turn pass and, with canonical order, mid-stack (see the
        module docstring): the counts then include worlds those rules exclude."""
        self.measure = measure
        self._worlds = worlds if worlds is not None else (mass if measure == "worlds" else None)
        self._where = where
        self._source = source
        """(key, facts) of a belief :func:`belief_of` made: its world count and card locations come
        from them on first use (no closures kept: a kept belief is fewer objects for the collector)."""
        self._cache: dict[str, tuple[float, ...]] = {}

    def __repr__(self) -> str:
        return f"Belief(measure={self.measure!r}, mass={self.mass}, positions={self.hidden_positions})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Belief):
            return NotImplemented
        return (self.measure, self.mass, self.exact, self.position_probs, self.hideout_prob) == (
            other.measure,
            other.mass,
            other.exact,
            other.position_probs,
            other.hideout_prob,
        )

    # no __hash__: a class that defines __eq__ alone gets __hash__ = None, so a Belief (mutable
    # caches, float fields) is unhashable (Belief.__hash__ is None)

    @property
    def worlds(self) -> int:
        """The number of consistent worlds (each counted once, whatever the measure)."""
        if callable(self._worlds):
            self._worlds = self._worlds()
        elif self._worlds is None and self._source is not None:
            self._worlds = world_count(self._source[1], self._source[0])
        assert isinstance(self._worlds, int)
        return self._worlds

    def _secondary(self, name: str) -> tuple[float, ...]:
        # sprint / hand / deck probabilities need a wider backward pass: computed on first use
        if not self._cache:
            if self._where is not None:
                sprint, hand, deck = self._where()
            elif self._source is not None:
                sprint, hand, deck = _locations(*self._source, self.hideout_prob)
            else:
                raise ValueError("this belief was built without its card-location probabilities")
            self._cache.update(sprint=sprint, hand=hand, deck=deck)
        return self._cache[name]

    @property
    def sprint_prob(self) -> tuple[float, ...]:
        """P(number is a face-down sprint card), indexed 0..42 (0 above the escape card)."""
        return self._secondary("sprint")

    @property
    def hand_prob(self) -> tuple[float, ...]:
        """P(number is in the fugitive's hand), indexed 0..42 (the escape card: 1 until it is played)."""
        return self._secondary("hand")

    @property
    def deck_prob(self) -> tuple[float, ...]:
        """P(number is still in a deck), indexed 0..42 (0 above the escape card)."""
        return self._secondary("deck")

    @property
    def hidden_positions(self) -> list[int]:
        return sorted(self.position_probs)

    def most_likely(self, position: int | None = None) -> int:
        """The most probable value at ``position``, or the most probable face-down hideout number."""
        probs = self.hideout_prob if position is None else self.position_probs[position]
        best = max(range(43), key=lambda v: (probs[v], -v))
        return best

    def candidates(self, position: int) -> list[int]:
        """The values ``position`` can still hold."""
        return [v for v, p in enumerate(self.position_probs[position]) if p > 0]

    def certain_numbers(self) -> list[int]:
        """Numbers that are a face-down hideout in every consistent world."""
        return [v for v, p in enumerate(self.hideout_prob) if p >= 1.0 - 1e-12]

    def entropy(self, position: int) -> float:
        """Shannon entropy (bits) of one face-down position: how spread the detective's doubt is."""
        return -sum(p * math.log2(p) for p in self.position_probs[position] if p > 0)


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Pause the cyclic garbage collector while a programme is built or walked.

    A programme allocates millions of small tuples, lists and dicts; each batch of allocations
    triggers a collection that traverses every live container, the programme's own included, so
    the collector took 30-45% of the CPU time on the largest positions.  Nothing the programme
    builds holds a reference cycle (plain ints, tuples, lists and dicts), so reference counting
    still frees everything at once; the collector is restored (if it was on) when the block ends.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_CACHE: dict[tuple[Any, ...], Programme] = {}
"""Full programmes (every layer kept: card locations and sampling walk them), oldest first."""
_CACHE_EDGES = 300_000
"""The cached programmes' edges in total: beyond it the oldest go (memory stays bounded however
many positions a panel or an agent visits; a single larger programme is not kept, its sampler is:
:data:`SAMPLERS`)."""


def programme_for(facts: Facts, measure: str, max_edges: int | None = None, full: bool = False) -> Programme:
    """The programme of ``facts``: full ones (sampling) are cached here, bounded by their edges;
    counting ones are built afresh (the belief is cached, and :func:`belief_of` keeps its count
    for the card locations in :data:`_COUNTED`)."""
    key = (*facts_key(facts), measure, full)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    prog = build(facts, measure, max_edges, full=full)
    if not full or prog.edges > _CACHE_EDGES:
        return prog
    while _CACHE and sum(p.edges for p in _CACHE.values()) + prog.edges > _CACHE_EDGES:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = prog
    return prog


_BELIEFS: dict[tuple[Any, ...], Belief] = {}
_BELIEFS_SIZE = 256
"""Beliefs kept by their facts: a panel or an agent asks the position it is at again, not 1,000 old ones."""

POLYS_KEPT = 4_000
"""Entries each shared polynomial memo of :mod:`~.weights` keeps before starting again (its
``POLYS_SIZE``, set here with the other caches' bounds): a position adds tens to hundreds (the
hardest held-out ones 550-700), so they serve the positions of a game and its neighbours; 400
held-out random positions in a row took the same time with 500, 2,000, 8,000 or 40,000 kept
(+-10%, the noise of the 2 shared cores), while 40,000 held some 33 MiB."""
weights.POLYS_SIZE = POLYS_KEPT

SAMPLERS: dict[tuple[Any, ...], Any] = {}
"""Determinization samplers by facts and measure: the count samplers :func:`~.sampling.determinize`
draws from (:class:`~.sampling.CountSampler`, or a full programme's :class:`~.sampling.Sampler`)."""
SAMPLERS_SIZE = 4
"""Samplers kept: a search draws many worlds at one position, then moves on."""


_COUNTED: dict[tuple[Any, ...], Programme] = {}
"""Counting programmes of the latest beliefs (forward weights and completions), oldest first: the
card locations walk the very count that gave the belief's total (a panel asks for them at once)."""
_COUNTED_SIZE = 8
"""At most this many kept: a panel or an agent asks for the card locations of the position it just
counted, and every kept count holds its forward and backward dicts (memory, collector passes)."""
_COUNTED_EDGES = 100_000
"""Their edges in total: beyond it the oldest go (their card locations would be counted again).
The newest count is kept whatever its size, so the card locations right after never count again."""
_counted_edges = [0]
"""The kept counts' edges in total, kept as they come and go (no sum over them per belief)."""


def _keep_counted(key: tuple[Any, ...], prog: Programme) -> None:
    old = _COUNTED.pop(key, None)
    if old is not None:
        _counted_edges[0] -= old.edges
    while _COUNTED and (len(_COUNTED) >= _COUNTED_SIZE or _counted_edges[0] + prog.edges > _COUNTED_EDGES):
        _counted_edges[0] -= _COUNTED.pop(next(iter(_COUNTED))).edges
    _COUNTED[key] = prog
    _counted_edges[0] += prog.edges


def _take_counted(key: tuple[Any, ...]) -> Programme | None:
    """The kept count of ``key``, no longer kept (None: dropped since, or never kept)."""
    prog = _COUNTED.pop(key, None)
    if prog is not None:
        _counted_edges[0] -= prog.edges
    return prog


def clear_caches() -> None:
    """Forget memoized programmes, beliefs and samplers (benchmarks, memory)."""
    _CACHE.clear()
    _BELIEFS.clear()
    _COUNTED.clear()
    _counted_edges[0] = 0
    SAMPLERS.clear()
    weights.clear_shared()
    direct.clear_shared()


def cache_sizes() -> dict[str, int]:
    """How many programmes, beliefs, counts kept for their card locations and samplers the caches
    hold now (tests, memory)."""
    return {
        "programmes": len(_CACHE),
        "beliefs": len(_BELIEFS),
        "counted": len(_COUNTED),
        "samplers": len(SAMPLERS),
        "direct_ends": len(direct.ENDS),
        **weights.shared_sizes(),
    }


def belief(
    state_or_observation: FugitiveState | FugitiveObservation | InformationState,
    edition: int | None = None,
    max_edges: int | None = None,
    canonical_order: bool = False,
    measure: str = "deals",
) -> Belief:
    """The detective's exact belief over the fugitive's hidden cards.

    Accepts a :class:`FugitiveState` (its detective's view is used) or the detective's
    :class:`FugitiveObservation`; ``edition`` and ``canonical_order`` matter only for an
    observation (the options are not part of it; a state brings its own): the edition for an
    edition-2 game, canonical order only for :attr:`Belief.exact` mid-stack.  The deck size
    (option ``escape_card``) is read from the state, or worked out from the observation's card
    counts.  ``measure`` weighs the worlds: ``"deals"`` (default) by the number of deal orders
    that produce each, as shuffled decks imply; ``"worlds"`` counts each world once
    (docs/rules/fugitive.md).  Results are memoized on the facts.
    ``max_edges`` bounds the work: :class:`BeliefTooLarge` (a ValueError) when the count would
    need more edges (the default counts whatever it takes).
    """
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
    facts = facts_of(state_or_observation, edition, canonical_order)
    made = facts_key(facts)  # once: both keys below are made from it
    key = (*made, facts.stuck_first_turn, facts.canonical_pending, measure)
    hit = _BELIEFS.get(key)
    if hit is not None:
        return hit
    was_enabled = gc.isenabled()  # no_cycle_collection() without a generator's cost
    gc.disable()
    try:
        result = belief_of(facts, measure, max_edges, key=(*made, measure))
    finally:
        if was_enabled:
            gc.enable()
    if len(_BELIEFS) >= _BELIEFS_SIZE:
        _BELIEFS.pop(next(iter(_BELIEFS)))
    _BELIEFS[key] = result
    return result


DIRECT_COUNT = True
"""Count the simplest positions directly (:mod:`~.direct`, :mod:`~.direct_early`); tests of the
programme's caches turn it off."""


def counted_directly(facts: Facts, measure: str) -> Counted | None:
    """The direct count of ``facts`` (:mod:`~.direct`, else :mod:`~.direct_early`), or None."""
    if not DIRECT_COUNT:
        return None
    return direct_count(facts, measure) or early_count(facts, measure)


def belief_of(
    facts: Facts, measure: str, max_edges: int | None = None, *, key: tuple[Any, ...] | None = None
) -> Belief:
    """Count ``facts`` once: directly for the simplest positions (:mod:`~.direct`,
    :mod:`~.direct_early`: no programme to build), else by the programme, whose count is kept for
    the card locations (:data:`_COUNTED`).

    A position counted directly keeps no programme: its card locations come from walks of the same
    kind (:mod:`~.direct_locations`, which hands the early ones to :mod:`~.direct_early_locations`),
    and a sampler builds one (a second count).  ``key`` is ``(*facts_key(facts), measure)``, the
    count's key, when the caller made it already (:func:`belief`: the facts' key is made once)."""
    if key is None:
        key = (*facts_key(facts), measure)
    counted = counted_directly(facts, measure) if max_edges is None else None
    if counted is not None:
        total, marginals = counted
        mass = total
        if not total:
            raise ValueError("inconsistent observation: no fugitive world explains it")
    else:
        prog = programme_for(facts, measure, max_edges=max_edges)
        total = prog.total
        if not total:
            raise ValueError("inconsistent observation: no fugitive world explains it")
        if measure == "deals":
            both.keep_moves(prog)  # Belief.worlds walks them (both.world_total), then lets them go
        backward(prog)
        assert prog.marginals is not None
        marginals = prog.marginals
        mass, rest = divmod(total, prog.stacks)
        assert rest == 0, "ordered sprint stacks must divide evenly"
        _keep_counted(key, prog)
    position_probs, hideout = probabilities_of(marginals, total)
    return Belief(
        mass=mass,
        position_probs=position_probs,
        hideout_prob=hideout,
        exact=not (facts.stuck_first_turn or facts.canonical_pending),
        measure=measure,
        source=(key, facts),
    )


_NUMBERS = range(43)


def probabilities_of(
    marginals: dict[int, list[int]], total: int
) -> tuple[dict[int, tuple[float, ...]], tuple[float, ...]]:
    """Per face-down position the probability of each number, and each number's of being a
    face-down hideout (the sum over positions), from the weights by position and number.  Made in
    C when :data:`~.kernel.COMPILED` (``_direct.probabilities``: the same Python divisions and sums,
    ~4 us of Python saved on every belief), else, or when C cannot read the weights (it raises), by
    :func:`_probabilities_pure`."""
    if _compiled_probabilities is not None and kernel.COMPILED:
        try:
            return _compiled_probabilities(marginals, total)
        except Exception:  # whatever C could not read, the pure loop answers or raises
            pass
    return _probabilities_pure(marginals, total)


_compiled_probabilities = direct._direct.probabilities if direct._direct is not None else None
"""``_direct.probabilities`` bound once (no attribute read per belief), None without the extension."""


def _probabilities_pure(
    marginals: dict[int, list[int]], total: int
) -> tuple[dict[int, tuple[float, ...]], tuple[float, ...]]:
    """:func:`probabilities_of` in Python, the reference: one pass over the numbers whose weight is
    not 0 (most are out of reach; ``compress`` finds them in C), one division each.  The same
    floats as dividing every sum (Python divides integers exactly rounded)."""
    position_probs: dict[int, tuple[float, ...]] = {}
    if len(marginals) == 1:  # one face-down hideout: its numbers' probabilities are its own (no sums)
        for i, counts in marginals.items():
            probs = [0.0] * 43
            for v in compress(_NUMBERS, counts):
                probs[v] = counts[v] / total
            hideout = position_probs[i] = tuple(probs)
        return position_probs, hideout
    sums = [0] * 43
    for i, counts in marginals.items():
        probs = [0.0] * 43
        for v in compress(_NUMBERS, counts):
            c = counts[v]
            probs[v] = c / total
            sums[v] += c
        position_probs[i] = tuple(probs)
    probs = [0.0] * 43
    for v in compress(_NUMBERS, sums):
        probs[v] = sums[v] / total
    return position_probs, tuple(probs)


def world_count(facts: Facts, key: tuple[Any, ...] | None = None) -> int:
    """The number of worlds of ``facts`` (measure ``worlds``): from the moves of the deals count
    that gave the belief ``key`` when it is still kept (:func:`~.both.world_total`: no second
    build), else directly when :mod:`~.direct` counts the position, else by a programme that keeps
    nothing but the total (``count_only``: no edges, one layer at a time).  The collector paused."""
    with no_cycle_collection():
        if key is not None and key[-1] == "deals":
            # a position the deals belief counted by a programme is no direct one: its kept count
            # first (world_total lets the kept moves go after use)
            prog = _COUNTED.get(key)
            if prog is not None:
                total = both.world_total(prog)  # None if its moves were not kept
                if total is not None:
                    return total // prog.stacks
        counted = counted_directly(facts, "worlds")
        if counted is not None:
            return counted[0]
        return build(facts, "worlds", count_only=True).mass


def _locations(key: tuple[Any, ...], facts: Facts, hideout: tuple[float, ...]) -> Where:
    """The card locations from the count that gave the belief (kept in :data:`_COUNTED`; counted
    again only if it was dropped since), the collector paused.  The belief keeps the result, so
    the count is let go."""
    with no_cycle_collection():
        prog = _take_counted(key)
        if prog is None:
            where = direct_locations(facts, key[-1], hideout) if DIRECT_COUNT else None
            if where is not None:
                return where
            prog = build(facts, key[-1])
        return card_locations(prog, hideout)
