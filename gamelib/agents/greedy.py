"""Greedy one-step lookahead: the best immediate outcome, for any game.

For each legal move the agent looks at the position right after it and scores it with an
evaluation function (by default ``state.returns()``, so it takes a win when one is on the table
and otherwise plays at random among equals).  If the move leads to chance (a draw, a die), the
score is the expectation over the chance outcomes, ``chance_depth`` levels deep.

With hidden information the agent scores each move in worlds drawn by
``state.determinize(player, rng)`` and averages: it never reads cards it cannot see.

**Worlds screened first** (why: a world costs a draw and a score per move, and most decisions of
a game whose returns stay 0 until the end tie on every world): the moves are scored in
``screen`` worlds (default 4) first; if they all score the same there, the agent plays at random
among them at once, otherwise it scores them in more worlds, ``samples`` in all (default 8), and
plays the best.  A move that wins (or loses) in every world, or in most, shows on the first ones
(Fugitive: the last face-down hideout is named in every world, so that guess is decided on 8);
what the screen can miss is a move that wins or loses in few worlds.  On Fugitive (greedy
detective against the heuristic fugitive, the same 600 seeds per setting) the greedy won 4.2 % of
its games without a screen (25 of 600), 4.2 % with a screen of 4 (25 of 598 finished) and 2.2 %
with a screen of 2 (13 of 595): hence 4.
``screen=samples`` scores every decision on ``samples`` worlds.

**Moves not played** (why: copying a world to play a move is most of a score): with the default
evaluation in a game whose returns stay 0 until the end, a move after which a player is to move
is worth 0, so only the moves that end the game or lead to chance are evaluated; a game that can
tell such a move without playing it says so with ``state.surely_continues(action)`` (core's hook,
False by default; Fugitive's ``add N``), and the agent skips it.  The others are played on a light
copy of the world (its declared fields copied, its history list shared and cut back after the
move).  When the game promises it of every legal move, chance first allowed
(``through_chance``: Fugitive's detective draws; his guesses and series while more hideouts lie
face down than they name, before the last turn), the agent asks the real position (the promise
reads only what the player sees), draws no world and picks uniformly, as it would after scoring
them all 0 (its next decision draws them, or follows those it had through its own moves): on
Fugitive it counts worlds only where a move can end the game.

**Worlds carried over** (why: a determinization is the expensive part; Fugitive's first one at
a new position counts its worlds exactly): when every action since the agent's last decision is
one it saw (its own moves, the card it was dealt, an opponent's open move), the worlds of that
decision follow those actions instead of being drawn again.  A world where an action is not
legal, or whose observation then differs from the real one, is dropped, and a fresh world is
drawn in its place; a chance outcome is kept with a probability proportional to its chance in
that world (rejection sampling).  The worlds kept are then distributed as fresh draws given what
the player now knows, exactly so when every world that allows a chance outcome gives it the
same probability (a card from a deck whose size everyone sees: the case in these games), so
the estimate is unchanged in distribution, only cheaper.  After a step the player did not see
(an opponent's hidden card) all worlds are drawn afresh.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamelib.agents.inputs import whole_number
from gamelib.core.errors import IllegalAction
from gamelib.core.game import CHANCE, Action, State

Evaluation = Callable[[State], Sequence[float]]

REFILLS = 5
"""Replacement worlds drawn at the earlier position, per world wanted, before drawing at the new
one: a draw there costs a fraction of a millisecond where the first draw at a new Fugitive
position counts its worlds (milliseconds), so even a 1-in-5 survival is worth it."""


@dataclass
class _Worlds:
    """The worlds of a player's last decision, with the game's history list and its length then."""

    history: list[Any]
    length: int
    worlds: list[State]
    state: State
    """A copy of the real state then: more worlds of that decision are drawn from it when some
    are dropped (its sampler is still warm; the new position's may not be built yet)."""
    mine: list[Action] = field(default_factory=list)
    """The moves the agent chose since: seen by it without asking the game for the public history
    (which costs a pass over the whole history)."""


class GreedyAgent:
    """Plays the move with the best one-step value (ties broken at random)."""

    name = "greedy"

    def __init__(
        self, evaluate: Evaluation | None = None, samples: int = 8, chance_depth: int = 1, screen: int = 4
    ) -> None:
        self.evaluate = evaluate
        self.samples = whole_number(samples, "samples", minimum=1)
        self.screen = min(whole_number(screen, "screen", minimum=1), self.samples)
        self.chance_depth = whole_number(chance_depth, "chance_depth", minimum=0)
        self._kept: dict[int, _Worlds] = {}

    def __getstate__(self) -> dict[str, Any]:
        # sampled worlds stay in the process that drew them (a tournament ships its agents)
        return {**self.__dict__, "_kept": {}}

    def _value(self, state: State, player: int, depth: int) -> float:
        if depth > 0 and state.current_player == CHANCE:
            total = 0.0
            # a child where a player is to move is worth 0 when returns stay 0 until the end
            zero_until_end = self.evaluate is None and not state.game.info.returns_during_play
            for outcome, probability in state.chance_outcomes():
                child = state.clone()
                child.apply_legal(outcome)  # one of this very node's outcomes
                if zero_until_end and child.current_player >= 0:
                    continue
                total += probability * self._value(child, player, depth - 1)
            return total
        scores = state.returns() if self.evaluate is None else self.evaluate(state)
        return float(scores[player])

    def worlds(self, state: State, player: int, rng: random.Random, count: int | None = None) -> list[State]:
        """``count`` worlds (default ``samples``) ``player`` cannot tell from ``state``
        (``[state]`` with perfect information), carried over from the last decision when possible
        (module docstring): the worlds carried may be more than ``count``."""
        if state.game.info.perfect_information:
            return [state]
        want = self.samples if count is None else count
        history = state.history
        kept = self._kept.get(player)
        worlds: list[State] = []
        if kept is not None and kept.history is history and kept.length <= len(history):
            steps = history[kept.length :]
            if steps == kept.mine or self._all_seen(state, player, kept.length):
                seen = state.observation(player)
                worlds = self._carry(kept.worlds, steps, player, seen, rng)
                budget = REFILLS * want  # dropped worlds replaced from the earlier position
                while budget > 0 and len(worlds) < want:
                    missing = min(want - len(worlds), budget)
                    budget -= missing
                    more = [kept.state.determinize(player, rng) for _ in range(missing)]
                    worlds += self._carry(more, steps, player, seen, rng)
        worlds += [state.determinize(player, rng) for _ in range(want - len(worlds))]
        self._kept[player] = _Worlds(history, len(history), worlds, state.clone())
        return worlds

    @staticmethod
    def _all_seen(state: State, player: int, start: int) -> bool:
        """Whether ``player`` saw every step of the history from ``start`` (none masked)."""
        seen_steps = state.public_history(player)[start:]
        return all(
            text == str(action) for text, action in zip(seen_steps, state.history[start:], strict=True)
        )

    @staticmethod
    def _carry(
        worlds: list[State], steps: Sequence[Action], player: int, seen: Any, rng: random.Random
    ) -> list[State]:
        """The worlds that survive ``steps`` and then show ``player`` what it sees (``seen``)."""
        if not steps:
            return worlds
        return [w for w in _follow(worlds, steps, rng) if w.observation(player) == seen]

    def scores(self, state: State, player: int, rng: random.Random) -> dict[Action, float]:
        """The value of every legal move for ``player``, averaged over sampled worlds: ``screen``
        of them, ``samples`` unless the moves all score the same on those (module docstring)."""
        legal = state.legal_actions()
        played = legal
        if self._zero_until_end(state):
            # the moves the game promises are worth 0 in every world (the promise reads only what
            # the player sees, so the real position answers for all of them)
            played = [a for a in legal if not state.surely_continues(a, through_chance=True)]
            if not played:
                return dict.fromkeys(legal, 0.0)  # no world drawn
        worlds = self.worlds(state, player, rng, self.screen)
        used = worlds[: self.screen]
        values = dict.fromkeys(legal, 0.0)
        self._score(used, played, values, player)
        spread = max(values.values()) - min(values.values()) if values else 0.0
        if len(used) < self.samples and spread > 1e-12:
            # the moves differ: the worlds carried, then fresh ones, up to ``samples``
            more = self.worlds(state, player, rng)[len(used) : self.samples]
            self._score(more, played, values, player)
            used += more
        kept = self._kept.get(player)
        if kept is not None and kept.history is state.history and kept.length == len(state.history):
            kept.worlds = used  # the next decision follows the worlds scored here
        return {a: v / len(used) for a, v in values.items()}

    def _score(
        self, worlds: list[State], legal: list[Action], values: dict[Action, float], player: int
    ) -> None:
        """Add each move's value in each of ``worlds`` to ``values``."""
        depth = self.chance_depth
        # with the default evaluation in a game whose returns stay 0 until the end, a child where
        # a player is to move is worth 0: only the terminal and the chance children are evaluated
        zero_until_end = bool(worlds) and self._zero_until_end(worlds[0])
        value = self._value
        for world in worlds:
            # the moves legal in the world (the rules' own, interned objects): each is played
            # without being checked again (apply_legal); any other goes through apply
            mine = set(map(id, world.legal_actions()))
            copy = _light_copier(world)
            history = world.history
            length = len(history)
            # a move the game says leaves a player to move is worth 0 without being played
            continues = world.surely_continues if zero_until_end else None
            played = (
                legal
                if continues is None
                else [a for a in legal if not (id(a) in mine and continues(a, True))]
            )
            for action in played:
                child = copy(world)
                try:
                    if id(action) in mine:
                        child.apply_legal(action)
                    else:
                        child.apply(action)
                    if zero_until_end and child.current_player >= 0:
                        continue
                    values[action] += value(child, player, depth)
                finally:
                    del history[length:]  # the move the child appended to the shared history

    def _zero_until_end(self, state: State) -> bool:
        """Whether a move after which a player is to move is worth 0: the default evaluation in a
        game whose returns stay 0 until the end."""
        return self.evaluate is None and not state.game.info.returns_during_play

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        values = self.scores(state, player, rng)
        top = max(values.values())
        best = [a for a in legal if values[a] >= top - 1e-12]
        action = best[int(rng.random() * len(best))]
        kept = self._kept.get(player)
        if (
            kept is not None
            and kept.history is state.history
            and kept.length + len(kept.mine) == len(state.history)
        ):
            kept.mine.append(action)  # the worlds of the last decision can follow it next time
        return action

    def __repr__(self) -> str:
        extra = (
            [] if self.evaluate is None else [f"evaluate={getattr(self.evaluate, '__name__', self.evaluate)}"]
        )
        if self.samples != 8:
            extra.append(f"samples={self.samples}")
        if self.chance_depth != 1:
            extra.append(f"chance_depth={self.chance_depth}")
        if self.screen != min(4, self.samples):
            extra.append(f"screen={self.screen}")
        return f"GreedyAgent({', '.join(extra)})"


def _light_copier(world: State) -> Callable[[State], State]:
    """How to copy ``world`` for one scored move: its declared fields copied (core's
    :meth:`StateFields.clone`) but its history list shared, which the caller cuts back to its
    length once done with the child (copying a long history cost half of a clone); a game that
    writes its own ``_clone`` gets a full ``clone()``."""
    fields = type(world).fields
    if fields is None or type(world)._clone is not State._clone:
        return _full_clone
    clone: Callable[[State], State] = fields.clone
    return clone


def _full_clone(world: State) -> State:
    return world.clone()


def _follow(worlds: list[State], steps: Sequence[Action], rng: random.Random) -> list[State]:
    """The worlds that survive playing ``steps`` (changed in place): a move must be legal in the
    world; a chance outcome is kept with probability ``p / top``, ``p`` its chance in the world and
    ``top`` the highest among the worlds (rejection sampling, see the module docstring)."""
    alive = worlds
    for step in steps:
        chances = [_chance_of(w, step) for w in alive]
        top = max((p for p in chances if p is not None), default=0.0)
        survivors = []
        for world, p in zip(alive, chances, strict=True):
            if p is not None and (p <= 0.0 or (p < top and rng.random() * top >= p)):
                continue
            try:
                world.apply(step)
            except IllegalAction:
                continue
            survivors.append(world)
        alive = survivors
    return alive


def _chance_of(world: State, outcome: Action) -> float | None:
    """The chance of ``outcome`` in ``world`` if a chance event comes next there, else None."""
    if world.current_player != CHANCE:
        return None
    return next((p for a, p in world.chance_outcomes() if a == outcome), 0.0)
