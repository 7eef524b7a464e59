"""Probes of A Une Passante: how far a wish is, and how many wishes teams fulfil.

* :func:`fewest_moves` / :func:`fewest_turns`: breadth-first search over the positions of the
  wish's characters and the Omnibus on the board graph (the other characters never block a move,
  so they are left out of the search space: at most 5^3 x 5 positions).
* :func:`score_distribution`: final shared scores of many games, by player count and agent.
* :func:`communication_value`: the same team with secret hands, with table talk (hints), and
  with open hands: what communication is worth.
* :func:`determinize`: a world a seat cannot tell apart from the real one, history rewritten.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import gamelib
from gamelib.core.errors import IllegalAction
from gamelib.passante.board import CHAT, CHAT_MOVES, LOCATION_NAMES, LOCATIONS, NEIGHBOURS, PIECE_NAMES
from gamelib.passante.rules import (
    DISCARDS,
    NUM_WISHES,
    WISH_CARDS,
    WISH_NUMBERS,
    WISH_ZONE,
    WISHES,
    PassanteState,
    WishCard,
    bits,
)

Position = tuple[tuple[int, ...], int]
"""(locations of the wish's characters, location of the Omnibus)."""


@dataclass(frozen=True)
class Plan:
    """A shortest way to show a wish: its length and the moves in notation."""

    wish: int
    moves: int
    turns: int
    steps: tuple[str, ...]


def _successors(chars: Sequence[int], position: Position) -> Iterator[tuple[int, str, Position]]:
    """(piece moved, notation, next position) for every single move of a piece that matters."""
    locs, bus = position
    for i, c in enumerate(chars):
        dests = CHAT_MOVES[locs[i]] if c == CHAT else NEIGHBOURS[locs[i]]
        for z in dests:
            yield c, f"move {PIECE_NAMES[c]} {LOCATION_NAMES[z]}", ((*locs[:i], z, *locs[i + 1 :]), bus)
    riders = [i for i, c in enumerate(chars) if c != CHAT and locs[i] == bus]
    for k in range(len(riders) + 1):
        for group in combinations(riders, k):
            for z in LOCATIONS:
                if z == bus:
                    continue
                new = tuple(z if i in group else loc for i, loc in enumerate(locs))
                boards = "".join(f"board {PIECE_NAMES[c]}; " for c in sorted(chars[i] for i in group))
                yield 8, f"{boards}drive {LOCATION_NAMES[z]}", (new, z)


def _search(
    wish: int, start: Position, expand: Callable[[Position], Iterator[tuple[str, Position]]]
) -> tuple[int, tuple[str, ...]]:
    zone = WISH_ZONE[wish]
    if all(loc == zone for loc in start[0]):
        return 0, ()
    parent: dict[Position, tuple[Position, str] | None] = {start: None}
    frontier = deque([(start, 0)])
    while frontier:
        position, depth = frontier.popleft()
        for text, nxt in expand(position):
            if nxt in parent:
                continue
            parent[nxt] = (position, text)
            if all(loc == zone for loc in nxt[0]):
                steps = []
                node: Position | None = nxt
                while node is not None and parent[node] is not None:
                    prev, label = parent[node]  # type: ignore[misc]
                    steps.append(label)
                    node = prev
                return depth + 1, tuple(reversed(steps))
            frontier.append((nxt, depth + 1))
    raise ValueError(f"wish {wish} cannot be shown from this position")  # unreachable on this board


def _start_position(state: PassanteState, wish: int) -> tuple[tuple[int, ...], Position]:
    if isinstance(wish, bool) or not isinstance(wish, int) or not 1 <= wish <= NUM_WISHES:
        raise ValueError(f"wish must be a wish number between 1 and {NUM_WISHES}, got {wish!r}")
    chars = WISHES[wish].characters
    return chars, (tuple(state.pos[c] for c in chars), state.bus)


def fewest_moves(state: PassanteState, wish: int) -> Plan:
    """The fewest single moves (a character step, or one Omnibus ride) that show ``wish``.

    Ignores hearts and effects: the pure geometry of the board.  ``turns`` is from
    :func:`fewest_turns`.
    """
    chars, start = _start_position(state, wish)

    def expand(p: Position) -> Iterator[tuple[str, Position]]:
        for _, text, nxt in _successors(chars, p):
            yield text, nxt

    moves, steps = _search(wish, start, expand)
    return Plan(wish, moves, fewest_turns(state, wish), steps)


def fewest_turns(state: PassanteState, wish: int) -> int:
    """The fewest turns (two moves of two different pieces each) that show ``wish``."""
    chars, start = _start_position(state, wish)

    def expand(p: Position) -> Iterator[tuple[str, Position]]:
        for piece, text, mid in _successors(chars, p):
            yield text, mid
            for piece2, text2, nxt in _successors(chars, mid):
                if piece2 != piece:
                    yield f"{text}; {text2}", nxt

    return _search(wish, start, expand)[0]


def distance_table(state: PassanteState) -> list[tuple[int, str, int, int]]:
    """(wish number, title, fewest moves, fewest turns) for every wish from ``state``'s board."""
    rows = []
    for w in WISH_NUMBERS:
        plan = fewest_moves(state, w)
        rows.append((w, WISHES[w].title, plan.moves, plan.turns))
    return rows


def score_distribution(
    players: Sequence[int] = (1, 2, 3, 4),
    agents: dict[str, Callable[[], Any]] | None = None,
    games: int = 50,
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> dict[tuple[int, str], list[int]]:
    """Final scores of ``games`` games for each (player count, agent name) pair.

    ``agents`` maps a name to a factory (every player of a team gets its own agent); games use
    seeds ``seed .. seed + games - 1``, so two agents face the same deals.
    """
    if agents is None:
        from gamelib.agents import RandomAgent
        from gamelib.passante.agents import WishSeekerAgent

        agents = {"random": RandomAgent, "seeker": WishSeekerAgent}
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    out: dict[tuple[int, str], list[int]] = {}
    for n in players:
        game = gamelib.make("passante", players=n, options=options or {})
        for name, factory in agents.items():
            team = [factory() for _ in range(n)]
            out[(n, name)] = [
                int(gamelib.play(game, team, seed=s).returns()[0]) for s in range(seed, seed + games)
            ]
    return out


COMMUNICATION = {
    "secret hands": {},
    "table talk": {"table_talk": True},
    "open hands": {"open_hands": True},
}
"""The three levels of communication compared by :func:`communication_value`."""


def communication_value(
    players: Sequence[int] = (2, 3, 4),
    agent: Callable[[], Any] | None = None,
    games: int = 50,
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> dict[tuple[int, str], list[int]]:
    """Scores of one team (default: seekers) with secret hands, table talk and open hands
    (``options``: other rule options shared by the three settings)."""
    if agent is None:
        from gamelib.passante.agents import WishSeekerAgent

        agent = WishSeekerAgent
    out: dict[tuple[int, str], list[int]] = {}
    for level, level_options in COMMUNICATION.items():
        merged = {**(options or {}), **level_options}
        for (n, _), scores in score_distribution(players, {"team": agent}, games, seed, merged).items():
            out[(n, level)] = scores
    return out


def plot_distributions(results: dict[tuple[int, str], list[int]], title: str = "") -> Any:
    """Box plots of score distributions, grouped by player count (a matplotlib Figure)."""
    from matplotlib.figure import Figure

    counts = sorted({n for n, _ in results})
    labels = list(dict.fromkeys(name for _, name in results))
    fig = Figure(figsize=(11, 5.5))
    ax = fig.add_subplot()
    width = 0.8 / len(labels)
    colours = ["#8e4fb5", "#2f9e55", "#c8362f", "#e3b21c", "#3b6fd1"]
    for j, name in enumerate(labels):
        data = [results.get((n, name), []) for n in counts]
        where = [i + (j - (len(labels) - 1) / 2) * width for i in range(len(counts))]
        box = ax.boxplot(data, positions=where, widths=width * 0.85, patch_artist=True, showmeans=True)
        for patch in box["boxes"]:
            patch.set_facecolor(colours[j % len(colours)])
            patch.set_alpha(0.75)
        ax.plot([], [], "s", color=colours[j % len(colours)], label=name, markersize=12)
    ax.set_xticks(range(len(counts)), [f"{n} player{'s' if n > 1 else ''}" for n in counts], fontsize=14)
    ax.set_ylabel("wishes fulfilled", fontsize=14)
    ax.tick_params(axis="y", labelsize=12)
    ax.set_ylim(0, NUM_WISHES + 1)
    for low in (12, 21, 27, 33):
        ax.axhline(low, color="#999", lw=0.8, ls=":")
    ax.legend(fontsize=13, loc="upper left")
    ax.set_title(title or "Final scores (dotted lines: the rule sheet's rating bands)", fontsize=15)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------------------- determinization
DETERMINIZE_TRIES = 40
"""Worlds :func:`determinize` samples before it gives up and returns the real state."""


def determinize(state: PassanteState, player: int, rng: random.Random) -> PassanteState:
    """A full game ``player`` cannot tell apart from ``state``, with its history rewritten.

    Every step ``player`` did not see (a wish dealt to another player, another player's Poète
    discard) is re-drawn while the game is replayed from its seed, step by step, so the result
    is a real game: it replays to itself from its record, and ``player``'s observation, public
    history and information state are those of ``state``.  The re-drawn cards respect
    everything public: a wish another player laid down (or named) was dealt to that player
    before, is kept until then and never discarded before; with automatic laying (option
    ``lay_wishes="automatic"``), a card is never held while visible on the board.  Each hidden
    card is drawn uniformly among the cards that keep the game consistent (a sequential
    sampler, not an exact posterior).  If no consistent world is found in
    :data:`DETERMINIZE_TRIES` attempts the real state is returned (a clone).
    """
    if not state._hidden_steps(player):
        return state.clone()  # type: ignore[return-value]
    sampler = _WorldSampler(state, player)
    for _ in range(DETERMINIZE_TRIES):
        world = sampler.sample(rng)
        if world is not None:
            return world
    return state.clone()  # type: ignore[return-value]


class _WorldSampler:
    """What ``player`` knows of ``state``'s hidden steps, and a sampler of consistent worlds."""

    def __init__(self, state: PassanteState, player: int) -> None:
        self.state = state
        self.player = player
        self.hidden = {i: seat for i, seat in state.secrets if seat != player}
        history = state.history
        self.slots: dict[int, list[int]] = {}
        for i, seat in sorted(self.hidden.items()):
            if isinstance(history[i], WishCard):
                self.slots.setdefault(seat, []).append(i)
        # cards whose owner and times are public: (latest deal step, step held until)
        self.required: dict[int, tuple[int, int, int]] = {}
        for card, seat, latest, until in _public_holdings(state):
            if seat != player and card not in self.required:
                self.required[card] = (seat, latest, until)
        self.pinned = set(self.required)
        self.pinned.update(state.hands[player], state.discards[player])
        for laid in state.fulfilled:
            self.pinned.update(laid)
        self.auto = _automatic(state)
        self.visible_steps = _visible_steps(state) if self.auto else {}

    def _first_visible(self, card: int, step: int) -> int | None:
        steps = self.visible_steps.get(card, [])
        k = bisect_left(steps, step)
        return steps[k] if k < len(steps) else None

    def _pick_deal(self, world: PassanteState, seat: int, step: int, rng: random.Random) -> int | None:
        deck = world.wish_deck
        reqs = sorted(
            (latest, card)
            for card, (owner, latest, _) in self.required.items()
            if owner == seat and deck >> card & 1
        )
        slots = self.slots[seat]
        first = bisect_left(slots, step)
        forced: list[int] | None = None
        for j, (latest, _) in enumerate(reqs):
            free = bisect_right(slots, latest) - first
            if free < j + 1:
                return None
            if free == j + 1:
                forced = [c for _, c in reqs[: j + 1]]
                break

        def required_ok(card: int) -> bool:
            if not self.auto:
                return True
            seen = self._first_visible(card, step)
            return seen is None or seen >= self.required[card][2]

        if forced is not None:
            choices = [c for c in forced if required_ok(c)]
        else:
            free_cards = [c for c in bits(deck) if c not in self.pinned]
            if self.auto:
                never = [c for c in free_cards if self._first_visible(c, step) is None]
                free_cards = never or [c for c in free_cards if self._first_visible(c, step) != step]
            choices = free_cards + [c for _, c in reqs if required_ok(c)]
        if not choices:
            return None
        return choices[int(rng.random() * len(choices))]

    def sample(self, rng: random.Random) -> PassanteState | None:
        state = self.state
        world = state.game.new_game(seed=state.seed)
        hidden = self.hidden
        required = self.required
        for i, action in enumerate(state.history):
            seat = hidden.get(i)
            if seat is not None:
                if isinstance(action, WishCard):
                    card = self._pick_deal(world, seat, i, rng)
                    if card is None:
                        return None
                    action = WISH_CARDS[card]
                else:
                    hand = [w for w in world.hands[seat] if not (w in required and required[w][2] > i)]
                    if not hand:
                        return None
                    action = DISCARDS[hand[int(rng.random() * len(hand))]]
            try:
                world.apply(action)
            except IllegalAction:
                return None
        p = self.player
        if world.observation(p) != state.observation(p) or world.public_history(p) != state.public_history(p):
            return None
        return world


def _automatic(state: PassanteState) -> bool:
    """Are wishes laid down by the engine the moment they are visible?"""
    return getattr(state.game.options, "lay_wishes", "automatic") == "automatic"


def _public_holdings(state: PassanteState) -> Iterator[tuple[int, int, int, int]]:
    """(card, seat, latest deal step, held until step) for every card a seat showed it held."""
    auto = _automatic(state)
    for step, seat, card in state.laid_log:
        # laid by the engine in the step's settlement (a card dealt at that very step counts),
        # or by the owner's own action (dealt before it)
        yield card, seat, step if auto else step - 1, step


def _visible_steps(state: PassanteState) -> dict[int, list[int]]:
    """For each wish, the history steps after which it was visible on the board (public)."""
    replay = state.game.new_game(seed=state.seed)
    out: dict[int, list[int]] = {}
    last: tuple[int, ...] = ()
    shown: list[int] = []
    for i, action in enumerate(state.history):
        replay._apply(action)
        replay.history.append(action)
        pos = tuple(replay.pos)
        if pos != last:
            last = pos
            shown = [w for w in WISH_NUMBERS if replay.is_visible(w)]
        for w in shown:
            out.setdefault(w, []).append(i)
    return out
