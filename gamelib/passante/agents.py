"""Agents that know A Une Passante.

* :class:`WishSeekerAgent`: greedy.  It scores a position by how close the wishes it knows are to
  being visible (its own hand; every hand with ``open_hands``; the other players' hints and
  ``call`` signals, and the wishes they ``name``) and plays the one-step best action, looking through Omnibus boardings and
  effect choices to their end.  It never reads another player's hidden hand.
* :func:`cooperative_ismcts`: the generic IS-MCTS of :mod:`gamelib.agents` searching
  determinized worlds (the other hands sampled by ``state.determinize``), with short rollouts
  cut off by :func:`evaluate`, which rates a world from *all* its (sampled) hands: the search
  is cooperative because every player's return is the shared score.

``AGENTS`` exposes them to :func:`gamelib.agents.make_agent` under their own names (``"seeker"``,
``"coop_ismcts"``): the generic ``"random"`` and ``"ismcts"`` stay the game-independent agents here as
in every game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from gamelib.agents import ISMCTSAgent
from gamelib.core.game import CHANCE, Action, State
from gamelib.passante.board import CHAT, GRAPH_DISTANCE, LOCATIONS, PLACE, ROW_DISTANCE
from gamelib.passante.rules import (
    BOARDING,
    EFFECT,
    END,
    KEEP,
    POETE,
    SIGNALS,
    WISH_NUMBERS,
    WISH_ZONE,
    WISHES,
    Board,
    Call,
    Discard,
    DrawCharacter,
    Hint,
    Name,
    PassanteState,
    Play,
)

# Moves a piece needs to reach a location: characters walk the graph, the Chat jumps two zones
# along the row (and if it ever stood on the place, one step gets it off).
STEPS = tuple(
    tuple(
        tuple(
            ((ROW_DISTANCE[a][b] + 1) // 2 if a != PLACE else 1)
            if c == CHAT and b != PLACE
            else 99
            if c == CHAT
            else GRAPH_DISTANCE[a][b]
            for b in LOCATIONS
        )
        for a in LOCATIONS
    )
    for c in range(8)
)


def wish_cost(pos: Sequence[int], wish: int) -> int:
    """Moves still needed (ignoring the Omnibus and effects) to make ``wish`` visible."""
    zone = WISH_ZONE[wish]
    return sum(STEPS[c][pos[c]][zone] for c in WISHES[wish].characters)


def closeness(cost: int) -> float:
    """How much a wish ``cost`` moves from done is worth: steep, so near wishes get finished."""
    return 1.0 / (1.0 + cost) ** 2


def known_wishes(state: PassanteState, player: int) -> list[int]:
    """The wishes ``player`` may legitimately look at: their hand, or every hand if hands are open."""
    if state.game.options.open_hands:
        return [w for hand in state.hands for w in hand]
    return list(state.hands[player])


def partner_prior(state: PassanteState, player: int) -> tuple[tuple[int, ...], float]:
    """The wishes that may be in a partner's hand, and the chance that any one of them is.

    Uniform over what ``player`` cannot see (the model ``determinize`` samples from): not their
    own hand or discards, not laid down, and not visible on the board now (it would have been
    laid down).  Hands are open: nothing to guess.
    """
    partners = sum(len(h) for q, h in enumerate(state.hands) if q != player)
    if state.game.options.open_hands or not partners:
        return (), 0.0
    seen = set(state.hands[player]) | set(state.discards[player])
    for laid in state.fulfilled:
        seen.update(laid)
    unseen = tuple(w for w in WISH_NUMBERS if w not in seen and not state.is_visible(w))
    return unseen, partners / len(unseen) if unseen else 0.0


def heuristic(
    state: PassanteState,
    player: int,
    hint_weight: float = 0.1,
    prior: tuple[tuple[int, ...], float] = ((), 0.0),
    partner_weight: float = 0.0,
    named_weight: float = 0.0,
) -> float:
    """``player``'s estimate of a position: wishes fulfilled, then known wishes' closeness.

    Only counts what ``player`` knows: their own (or open) wishes, and the latest character/zone
    each other player hinted, worth ``hint_weight`` of a wish; with ``partner_weight``, the
    expected value of the partners' unseen wishes under ``prior`` (from :func:`partner_prior`,
    computed before the move: a wish shown by the move counts as laid down).
    """
    pos = state.pos
    # the wishes laid down that ``player`` could foresee: their own (all, with open hands);
    # counting the public score would reward moves for completing wishes nobody may see
    laid = state.score() if state.game.options.open_hands else len(state.fulfilled[player])
    value = 10.0 * laid
    value += sum(closeness(wish_cost(pos, w)) for w in known_wishes(state, player))
    if hint_weight:
        latest: dict[int, tuple[int, int]] = {}
        for hinter, char, zone in state.hints:
            if hinter != player:
                latest[hinter] = (char, zone)
        for char, zone in latest.values():
            value += hint_weight * closeness(STEPS[char][pos[char]][zone])
    if named_weight and state.said:
        done = {w for f in state.fulfilled for w in f}
        for _, speaker, kind, wish, _ in state.said:
            if kind == "name" and speaker != player and wish not in done:
                value += named_weight * closeness(wish_cost(pos, wish))
    unseen, share = prior
    if partner_weight and share:
        expected = 0.0
        for w in unseen:
            cost = wish_cost(pos, w)
            expected += 10.0 if cost == 0 else closeness(cost)
        value += partner_weight * share * expected
    return value


def evaluate(state: State) -> list[float]:
    """A world's expected final score, for cut-off rollouts: score plus a share of near wishes.

    Reads every hand, so only for determinized worlds inside a search.
    """
    assert isinstance(state, PassanteState)
    pos = state.pos
    turns_left = max(0, state.game.total_turns - state.turns)
    reach = min(1.0, turns_left / (2.0 * state.game.num_players))
    near = sum(closeness(wish_cost(pos, w)) for hand in state.hands for w in hand)
    value = state.score() + reach * near
    high = state.game.info.max_return
    return [min(high, value)] * state.game.num_players


class WishSeekerAgent:
    """Greedy: the action that brings the wishes it knows closest to the board."""

    name = "seeker"

    def __init__(
        self, depth: int = 4, hint_weight: float = 0.1, partner_weight: float = 0.0, named_weight: float = 0.5
    ) -> None:
        if depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        if hint_weight < 0:
            raise ValueError(f"hint_weight must be >= 0, got {hint_weight}")
        self.depth = depth
        if partner_weight < 0:
            raise ValueError(f"partner_weight must be >= 0, got {partner_weight}")
        if named_weight < 0:
            raise ValueError(f"named_weight must be >= 0, got {named_weight}")
        self.hint_weight = hint_weight
        self.partner_weight = partner_weight
        self.named_weight = named_weight
        self._prior: tuple[tuple[int, ...], float] = ((), 0.0)

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        assert isinstance(state, PassanteState)
        actions = state.legal_actions()
        if state.phase == EFFECT and state.eff == POETE:
            return self._poete(state, player, actions)
        if DrawCharacter() in actions:  # then a visible wish is laid (+10 beats any move)
            return actions[actions.index(DrawCharacter())]
        hints = [a for a in actions if isinstance(a, (Hint, Call))]
        if hints:
            return self._best_hint(state, player, hints)
        names = [a for a in actions if isinstance(a, Name)]
        if names:  # the Poète's privilege: the wish nearest to the board, for the partners to finish
            nearest: Name = min(names, key=lambda a: (wish_cost(state.pos, a.wish), a.wish))
            return nearest
        self._prior = partner_prior(state, player) if self.partner_weight else ((), 0.0)
        base = self._value(state, player)
        best: list[Action] = []
        best_value = base + 1e-9 if END in actions else float("-inf")
        for action in actions:
            if action is END or isinstance(action, (Hint, *SIGNALS)):  # the sounds mean nothing to it
                continue
            value = self._value_after(state, player, action, self.depth)
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        if not best:
            return END
        return best[int(rng.random() * len(best))]

    def _value(self, state: PassanteState, player: int) -> float:
        return heuristic(state, player, self.hint_weight, self._prior, self.partner_weight, self.named_weight)

    def _value_after(self, state: PassanteState, player: int, action: Action, depth: int) -> float:
        world = state.clone()
        world.apply(action)
        assert isinstance(world, PassanteState)
        # look through multi-step choices of our own: boarding, effect targets
        if depth > 1 and world.current_player == player and world.phase in (BOARDING, EFFECT):
            if world.phase == EFFECT and world.eff == POETE:
                return self._value(world, player)
            follow = world.legal_actions()
            return max(self._value_after(world, player, a, depth - 1) for a in follow)
        if isinstance(action, Play) and world.current_player == CHANCE:
            return self._value(world, player) - 0.01  # a die or a draw: uncertain, slightly avoided
        if isinstance(action, Board):
            return float("-inf") if depth <= 1 else self._value(world, player)
        return self._value(world, player)

    def _poete(self, state: PassanteState, player: int, actions: list[Action]) -> Action:
        """Discard the wish furthest from the board (if far), else stop."""
        discards = [a for a in actions if isinstance(a, Discard)]
        if KEEP in actions and (state.eff_count > 0 or not discards):
            return KEEP
        if not discards:
            return KEEP
        far: Discard = max(discards, key=lambda a: (wish_cost(state.pos, a.wish), -a.wish))
        if KEEP in actions and wish_cost(state.pos, far.wish) < 4:
            return KEEP
        return far

    def _best_hint(self, state: PassanteState, player: int, hints: Iterable[Hint | Call]) -> Action:
        """Point at the missing character of the wish nearest to completion."""
        pos = state.pos

        def missing(h: Hint | Call) -> tuple[int, int, int]:
            return (STEPS[h.char][pos[h.char]][h.zone] == 0, STEPS[h.char][pos[h.char]][h.zone], h.char)

        return min(hints, key=missing)

    def __repr__(self) -> str:
        return (
            f"WishSeekerAgent(depth={self.depth}, hint_weight={self.hint_weight}, "
            f"partner_weight={self.partner_weight}, named_weight={self.named_weight})"
        )


def cooperative_ismcts(iterations: int = 100, rollout_steps: int = 4, c: float = 0.3) -> ISMCTSAgent:
    """IS-MCTS on determinized hands with seeker rollouts cut off by :func:`evaluate`."""
    agent = ISMCTSAgent(
        iterations=iterations, c=c, max_rollout_steps=rollout_steps, evaluate=evaluate, rollout_agent=None
    )
    agent.name = "coop_ismcts"
    return agent


AGENTS = {
    "seeker": WishSeekerAgent,
    "coop_ismcts": cooperative_ismcts,
}
"""The game's own agents for :func:`gamelib.agents.make_agent` (``make_agent("coop_ismcts", game="passante")``),
by names that do not shadow the generic ones (``"random"`` is the generic :class:`~gamelib.agents.RandomAgent`)."""

SEAT_AGENTS = "seeker"
"""The agent each seat starts with in a Stepper (:func:`gamelib.agents.registry.default_agents`)."""
