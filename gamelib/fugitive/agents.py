"""Fugitive agents that know the game: a heuristic fugitive and a detective that reasons exactly.

* :class:`RandomUnseen` and :class:`RandomSingleGuess`: baselines for either seat, uniformly
  random but never making a certain miss (naming a number the detective holds or sees face up),
  so their games end by the rules, where the uniform ``"random"`` detective of the text's defaults
  mostly runs into the engine's round limit.

Each follows the agent protocol ``act(state, player, rng) -> Action`` and use only ``rng`` for
their randomness, so a seeded game replays.

* :class:`FugitiveHeuristic` runs as far as its *dead* cards allow (cards below the hideout it
  lays can never be hideouts again, so they are free sprint fodder), keeps its live cards for
  later steps, slips a bluffing sprint card under a hideout now and then to widen the
  detective's window, plays the escape card as soon as it can, and passes when the detective has
  pinned down the previous hideout and the new one would sit in a window of three numbers.
* :class:`BeliefDetective` computes the exact belief (:func:`gamelib.fugitive.analysis.belief`),
  reveals every certain hideout at once with a series, otherwise names the most probable number,
  and draws from the deck the fugitive is heading into (denying it cards).

Both read the deck from the state (``state.last``, ``state.layout``), so they play any
``escape_card``; they choose among ``state.legal_actions()`` whenever a preferred move is not
legal, which keeps them legal under ``canonical_order`` (increasing sprint cards and series).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from gamelib.core.game import Action, State
from gamelib.fugitive.rules import (
    ADDS,
    D_DRAW,
    D_GUESS,
    D_SERIES,
    DETECTIVE,
    DONE,
    DRAWS,
    F_DRAW,
    F_PLACE,
    F_SPRINT,
    FUGITIVE,
    GUESSES,
    HIDES,
    HUNTING,
    MANHUNT_CALL,
    PASS,
    REVEAL,
    SPRINTS,
    STEP_LIMIT,
    Add,
    FugitiveState,
    Guess,
    Hide,
    Sprint,
    cards_of,
    footprints,
)

if TYPE_CHECKING:
    from gamelib.fugitive.belief.probabilities import Belief

__all__ = [
    "AGENTS",
    "ROLLOUT_AGENT",
    "BeliefDetective",
    "FugitiveHeuristic",
    "RandomSingleGuess",
    "RandomUnseen",
]


def _deck_for(number: int, state: FugitiveState) -> int:
    """The deck holding ``number`` if it still has cards, else the nearest non-empty one."""
    decks = state.decks
    target = next((d for d, (_, hi) in enumerate(state.layout.deck_ranges) if number <= hi), 2)
    order = sorted(range(3), key=lambda d: (abs(d - target), -d))
    return next(d for d in order if decks[d])


def _belief(state: FugitiveState, measure: str) -> Belief:
    """The exact belief, imported on first use: a tournament seating only the random or heuristic
    agents (this module's cheap ones) must not pay for importing the belief and networkx (~0.3 s
    in every fresh worker)."""
    from gamelib.fugitive.analysis import belief

    return belief(state, measure=measure)


def _check(state: object) -> FugitiveState:
    if not isinstance(state, FugitiveState):
        raise TypeError(f"Fugitive agents play Fugitive states, got {type(state).__name__}")
    return state


class FugitiveHeuristic:
    """A fugitive that spaces its hideouts with dead cards, bluffs, and escapes as early as it can.

    ``bluff``: probability of slipping one more (dead) sprint card than needed under a hideout;
    ``caution``: probability of passing when the new hideout would be too easy to guess.
    """

    name = "fugitive-heuristic"
    seats = (FUGITIVE,)
    """The one seat it knows how to play (a tournament warns when it is seated elsewhere)."""

    def __init__(self, bluff: float = 0.35, caution: float = 0.6) -> None:
        if not (0.0 <= bluff <= 1.0 and 0.0 <= caution <= 1.0):
            raise ValueError("bluff and caution are probabilities in [0, 1]")
        self.bluff = bluff
        self.caution = caution

    def __repr__(self) -> str:
        return f"FugitiveHeuristic(bluff={self.bluff}, caution={self.caution})"

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        state = _check(state)
        legal = state.legal_actions()
        phase = state.phase
        if phase == F_DRAW:
            return DRAWS[_deck_for(state.previous_hideout + STEP_LIMIT + 2, state)]
        if phase == F_PLACE:
            return self._place(state, legal, rng)
        if phase == F_SPRINT:
            return self._sprint(state, legal, rng)
        return legal[int(rng.random() * len(legal))]

    def _place(self, state: FugitiveState, legal: list[Action], rng: random.Random) -> Action:
        last = state.last
        escape = HIDES[last]
        if escape in legal and not self._caught_by_escaping(state):
            return escape
        prev = state.previous_hideout
        hand = state.fhand & ~(1 << last)
        best, best_score = None, float("-inf")
        for action in legal:
            if not isinstance(action, Hide) or action is escape:
                continue
            v = action.card
            need = v - prev - STEP_LIMIT
            # dead cards: below v, they can never be hideouts after this one
            dead_fp = sum(footprints(c) for c in cards_of(hand & ((1 << v) - 1)))
            live_spent = 0 if need <= dead_fp else 1 + (need - dead_fp) // 2
            score = (v - prev) - 6 * live_spent + rng.random() * 0.5
            if score > best_score:
                best, best_score = action, score
        if best is None:
            return PASS if PASS in legal or escape not in legal else escape
        too_easy = PASS in legal and not state.first_turn and self._too_easy(state, best)
        if too_easy and rng.random() < self.caution:
            return PASS
        return best

    @staticmethod
    def _caught_by_escaping(state: FugitiveState) -> bool:
        """Laying the escape card now loses for sure: no hideout is face down for the manhunt.

        A manhunt follows when the detective lags (highest revealed <= the layout's threshold)
        and ends with the detective's win once every hideout is face up.  Small decks make this
        common: in ``escape_card=7`` the starting hand alone pays the jump from 0 to 7.
        """
        lagging = state.highest_revealed() <= state.layout.manhunt_threshold
        return lagging and all(state.revealed)

    def _too_easy(self, state: FugitiveState, action: Hide) -> bool:
        """The detective knows the previous hideout and the new one would sit within +3 of it."""
        prev = state.previous_hideout
        v = action.card
        dead = state.fhand & ((1 << v) - 1) & ~(1 << state.last)
        return state.revealed[-1] and v - prev <= STEP_LIMIT and not dead and state.fhand.bit_count() < 9

    def _sprint(self, state: FugitiveState, legal: list[Action], rng: random.Random) -> Action:
        v = state.hideouts[-1]
        # only the sprint cards legal now: with canonical_order, cards above the last one laid
        # that leave the deficit payable (the engine's rule, so the agent never strands itself)
        allowed = {a.card for a in legal if isinstance(a, Sprint)}
        hand = state.fhand & ~(1 << state.last) & ~(1 << v)
        dead = [c for c in cards_of(hand & ((1 << v) - 1)) if c in allowed]
        stack = state.sprints[-1]
        if state.deficit > 0:
            # cover the deficit with dead cards first (even ones give 2), then the lowest live card
            if dead:
                evens = [c for c in dead if c % 2 == 0]
                pick = max(evens) if evens and state.deficit >= 2 else min(dead)
                return SPRINTS[pick]
            live = [c for c in cards_of(hand) if c in allowed]
            return SPRINTS[min(live)] if live else legal[0]
        if dead and len(stack) < 2 and v != state.last and rng.random() < self.bluff:
            return SPRINTS[min(dead)]  # a bluff: the detective must widen its window
        return DONE if DONE in legal else legal[0]


class BeliefDetective:
    """Names the most probable hideout under the exact belief; a series when two or more are certain.

    ``measure`` weighs the fugitive's possible worlds (:func:`gamelib.fugitive.belief.belief`):
    ``"deals"`` (default, what shuffled decks imply) or ``"worlds"`` (each world once).
    """

    name = "belief-detective"
    seats = (DETECTIVE,)
    """The one seat it knows how to play (a tournament warns when it is seated elsewhere)."""

    def __init__(self, measure: str = "deals") -> None:
        from gamelib.fugitive.belief.tables import MEASURES

        if measure not in MEASURES:
            raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
        self.measure = measure

    def __repr__(self) -> str:
        return (
            "BeliefDetective()" if self.measure == "deals" else f"BeliefDetective(measure={self.measure!r})"
        )

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        state = _check(state)
        legal = state.legal_actions()
        phase = state.phase
        if phase == D_DRAW:
            return DRAWS[self._draw_deck(state)]
        if phase not in (D_GUESS, D_SERIES, HUNTING):
            return legal[int(rng.random() * len(legal))]
        if MANHUNT_CALL in legal:
            return MANHUNT_CALL  # the last turn: a manhunt finds at least what any series would
        b = _belief(state, self.measure)
        last = state.last
        blocked = state.face_up | state.dhand
        certain = [v for v in b.certain_numbers() if 1 <= v < last and not blocked >> v & 1]
        if phase == D_SERIES:
            # certain numbers in increasing order: the order canonical_order asks for
            missing = [v for v in certain if v not in state.series and ADDS[v] in legal]
            if missing:
                return ADDS[missing[0]]
            if len(state.series) >= 2:
                return REVEAL
            options = [a for a in legal if isinstance(a, Add)]
            if not options:
                return legal[0]
            return max(options, key=lambda a: b.hideout_prob[a.number])
        if phase == D_GUESS and len(certain) >= 2:
            return ADDS[certain[0]]
        if certain:
            return GUESSES[certain[0]]
        nameable = [v for v in range(1, last) if not blocked >> v & 1]
        top = max(b.hideout_prob[v] for v in nameable)
        best = [v for v in nameable if b.hideout_prob[v] >= top - 1e-12]
        return GUESSES[best[int(rng.random() * len(best))]]

    def _draw_deck(self, state: FugitiveState) -> int:
        """The deck just ahead of the fugitive: its cards are the ones it would lay next."""
        frontier = state.highest_revealed()
        b = _belief(state, self.measure)
        newest = len(state.hideouts) - 1
        if newest in b.position_probs:
            frontier = max(frontier, b.most_likely(newest))
        return _deck_for(frontier + STEP_LIMIT + 1, state)


class RandomUnseen:
    """Uniformly random, except that the detective never names a number it has seen.

    Naming a number in the detective's own hand or lying face up is a certain miss (the text
    allows it: « un chiffre entre 1 et 41 »).  A uniformly random detective does it often and,
    worse, builds series of twenty numbers that always miss, so under the text's defaults most
    random-vs-random games run into the engine's round limit (``max_rounds``) and end unfinished.
    This baseline draws uniformly among the other legal moves (the fugitive's moves are all
    kept).  Series stay possible and long: about 6 % of its games against itself still reach the
    round limit; :class:`RandomSingleGuess` ends every game.
    """

    name = "random_unseen"

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        state = _check(state)
        legal = state.legal_actions()
        if player == DETECTIVE:
            legal = _unseen(state, legal)
        return legal[int(rng.random() * len(legal))]

    def __repr__(self) -> str:
        return "RandomUnseen()"


class RandomSingleGuess:
    """Uniformly random, but the detective names one unseen number per turn (no series).

    The fugitive plays uniformly among its legal moves; the detective draws at random and then
    names one number it has not seen (not in its hand, not face up), or calls the manhunt when it
    may, uniformly among those moves (a series begun before it took over is revealed at once).  Against itself every game ends by the rules (200 of 200
    seeds; about 30 rounds and 160 actions), which makes it the baseline for lessons and the
    rollout policy of the search agents (:data:`ROLLOUT_AGENT`): a rollout that ends games the way
    players do is eight times shorter than a uniformly random one.
    """

    name = "random_single_guess"

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        state = _check(state)
        legal = state.legal_actions()
        if player == DETECTIVE:
            phase = state.phase
            if phase == D_GUESS:
                # one pass for the common case (the search agents' rollouts call this ~130 times)
                blocked = state.face_up | state.dhand
                kept = [
                    a
                    for a in legal
                    if type(a) is not Add and not (type(a) is Guess and blocked >> a.number & 1)
                ]
                if kept:
                    return kept[int(rng.random() * len(kept))]
                legal = [a for a in legal if not isinstance(a, Add)] or legal
            elif phase == D_SERIES and REVEAL in legal:
                return REVEAL  # a series someone else began: checked as soon as it may be
            legal = _unseen(state, legal)
        return legal[int(rng.random() * len(legal))]

    def __repr__(self) -> str:
        return "RandomSingleGuess()"


def _unseen(state: FugitiveState, legal: list[Action]) -> list[Action]:
    """The legal moves that do not name a number the detective holds or sees face up
    (all of them if every move does, which leaves the agent a move in any position)."""
    blocked = state.face_up | state.dhand
    kept = [a for a in legal if not (isinstance(a, (Guess, Add)) and blocked >> a.number & 1)]
    return kept or legal


AGENTS = {
    "heuristic": FugitiveHeuristic,
    "belief": BeliefDetective,
    "random_unseen": RandomUnseen,
    "random_single_guess": RandomSingleGuess,
}
"""Fugitive's own agents by name (``gamelib.tournament(..., ["heuristic", "belief"], rotate=False)``).
The heuristic plays only the fugitive and the belief detective only the detective (their
``seats``); the two random baselines play either seat."""

ROLLOUT_AGENT = "random_single_guess"
"""The rollout policy of MCTS and IS-MCTS on Fugitive by default (``rollout="game"``)."""

SEAT_AGENTS = ("heuristic", "belief")
"""The agent each seat starts with in a Stepper (:func:`gamelib.agents.registry.default_agents`)."""
