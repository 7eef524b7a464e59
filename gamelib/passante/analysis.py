"""Probes of A Une Passante: how far a wish is, and how many wishes teams fulfil.

* :func:`fewest_moves` / :func:`fewest_turns`: breadth-first search over the positions of the
  wish's characters and the Omnibus on the board graph (the other characters never block a move,
  so they are left out of the search space: at most 5^3 x 5 positions).
* :func:`score_distribution`: final shared scores of many games, by player count and agent.
* :func:`communication_value`: the same team with secret hands (no privilege), with table
  talk (the ``hint`` fold), and with open hands: what communication is worth.
* :func:`determinize`: a world a seat cannot tell apart from the real one, history rewritten.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import gamelib
from gamelib.core.errors import IllegalAction
from gamelib.passante.board import CHAT, CHAT_MOVES, LOCATION_NAMES, LOCATIONS, NEIGHBOURS, PIECE_NAMES
from gamelib.passante.rules import (
    ALL_WISHES,
    DISCARDS,
    NUM_WISHES,
    WISH_CARDS,
    WISH_NUMBERS,
    WISH_ZONE,
    WISHES,
    Discard,
    PassanteState,
    WishCard,
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
                while node is not None and (link := parent[node]) is not None:
                    prev, label = link
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
        from gamelib.agents import RandomAgent, make_agent

        agents = {"random": RandomAgent, "seeker": lambda: make_agent("seeker", game="passante")}
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


COMMUNICATION: dict[str, dict[str, Any]] = {
    "secret hands": {"privileges": "none"},
    "table talk": {"privileges": "hint"},
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
    """Scores of one team (default: seekers) with secret hands (no privilege), table talk (the
    privileges folded into ``hint``) and open hands (``options``: other rule options shared by the
    three settings)."""
    if agent is None:
        from gamelib.agents import make_agent

        agent = lambda: make_agent("seeker", game="passante")  # noqa: E731 (agents.py, by name: no cycle)
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
DETERMINIZE_TRIES = 60
"""Proposals :func:`determinize` draws (rejection sampling) before it walks a Markov chain."""
CHAIN_STEPS = 40
"""Chain proposals per hidden card when rejection sampling finds no world."""

_LATE = 1 << 30
"""The end of a card's stay in a hand when it is still held."""


def determinize(state: PassanteState, player: int, rng: random.Random) -> PassanteState:
    """A full game ``player`` cannot tell apart from ``state``, with its history rewritten.

    The steps ``player`` did not see are the wish cards dealt to the other players and their
    Poète discards.  A world is built, not searched for: for each other seat, the public events
    that end a card's stay in that seat's hand (a wish laid down — its number is public —, a
    discard, or still held) are matched to the seat's deal steps (a card leaves a hand after it
    was dealt), then cards are written on the deals: the laid wishes where their lay says, the
    other cards drawn from those ``player`` could not have seen (not dealt to ``player``, not laid
    down).  The world must also respect what the other seats showed: a wish named by the Poète's
    privilege (``name N``) or hinted (``call X Z``, ``hint X Z``) was in the hand at that step,
    and with automatic laying (``lay_wishes="automatic"``) no card stays in a hand while visible
    on the board.  The world is then written, not replayed: a copy of ``state`` with the other
    hands, Poète discards, wish deck and hidden history steps rewritten (the hidden cards change no
    public step), so it replays to itself from its record and shows ``player`` exactly what
    ``state`` shows.  It has its own seed, drawn from ``rng``: its chance is its own.  What
    ``player`` knows of ``state`` is read from the history once and cached (IS-MCTS asks the same
    root again and again).

    **Distribution.**  Uniform over the histories consistent with what ``player`` saw (each deal
    is uniform over the deck, so every deal order is equally likely a priori; the other seats'
    own choices — which card to discard, when to lay, what to say — are not modelled beyond
    being legal and matching what was said).  Matchings and cards are proposed uniformly and
    rejected when a constraint fails (exact: rejection sampling); when :data:`DETERMINIZE_TRIES`
    proposals fail (long games with automatic laying or many hints), a Markov chain of swaps
    between deals and undealt cards, each kept only if the world stays consistent, walks
    :data:`CHAIN_STEPS` proposals per hidden card from the real deals towards the same uniform
    distribution (approximate; it returns the real deals only if no swap keeps the world
    consistent, i.e. when ``player`` can deduce them).
    """
    if state.game.options.open_hands or not any(seat != player for _, seat in state.secrets):
        same = state.clone()  # nothing hidden (one player, open hands)
        assert isinstance(same, PassanteState)
        same.seed = _own_seed(rng)
        return same
    worlds = _worlds_of(state, player)
    if worlds.free_choice:  # nothing the other seats did constrains their cards
        return worlds.build(worlds.draw(rng), {}, rng)
    for _ in range(DETERMINIZE_TRIES):
        proposal = worlds.propose(rng)
        if proposal is not None and worlds.acceptable(*proposal):
            return worlds.build(*proposal, rng)
    return worlds.build(*worlds.chain(rng), rng)


_CACHE: dict[tuple[int, int, int], tuple[PassanteState, list[Any], _Worlds]] = {}
"""What a seat knows of a state, by (state id, history length, seat): IS-MCTS determinizes the
same root hundreds of times, and what the seat knows is read from the history once."""


def _worlds_of(state: PassanteState, player: int) -> _Worlds:
    """The seat's knowledge of ``state`` (cached per information state: the same state object
    with the same history asked again; the knowledge is read from the history alone, and the
    world is copied from the state as it is at each call)."""
    ident = (id(state), len(state.history), player)
    cached = _CACHE.get(ident)
    if cached is not None and cached[0] is state and cached[1] == state.history:
        return cached[2]
    hidden = {i: seat for i, seat in state.secrets if seat != player}
    worlds = _Worlds(state, player, hidden)
    if len(_CACHE) >= 16:
        _CACHE.clear()
    _CACHE[ident] = (state, list(state.history), worlds)
    return worlds


def _own_seed(rng: random.Random) -> int:
    """A world's own seed (issue 22): its chance is its own, never the real game's next card."""
    return rng.getrandbits(63)


Deals = dict[int, int]
"""History step of a hidden deal -> the card dealt there."""
Consumed = dict[int, int]
"""History step of a hidden discard -> the deal step whose card it discards."""


class _Worlds:
    """What ``player`` knows of ``state``'s hidden steps; proposes and checks worlds."""

    def __init__(self, state: PassanteState, player: int, hidden: dict[int, int]) -> None:
        self.state = state
        self.player = player
        self.hidden = hidden
        history = state.history
        self.auto = _automatic(state)
        self.seats = sorted(set(hidden.values()))
        self.slots: dict[int, list[int]] = {q: [] for q in self.seats}
        self.discards: dict[int, list[int]] = {q: [] for q in self.seats}
        for i in sorted(hidden):
            kind = self.slots if isinstance(history[i], WishCard) else self.discards
            kind[hidden[i]].append(i)
        self.lays: dict[int, list[tuple[int, int]]] = {q: [] for q in self.seats}
        laid: set[int] = set()
        for step, seat, card in state.laid_log:
            laid.add(card)
            if seat in self.lays:
                self.lays[seat].append((step, card))
        mine = {
            dealt.wish
            for i, seat in state.secrets
            if seat == player and isinstance(dealt := history[i], WishCard)
        }
        self.free = [w for w in WISH_NUMBERS if w not in mine and w not in laid]
        self.seen = sum(1 << w for w in mine)
        """The wishes dealt to ``player``: out of the deck in every world."""
        self.names: dict[int, list[tuple[int, int]]] = {q: [] for q in self.seats}
        self.calls: dict[int, list[tuple[int, int, int]]] = {q: [] for q in self.seats}
        for step, seat, said, a, b in state.said:
            if seat in self.names:
                if said == "name":
                    self.names[seat].append((step, a))
                else:
                    self.calls[seat].append((step, a, b))
        self.named = {w: q for q in self.seats for _, w in self.names[q]}
        self.visible = _visible_steps(state) if self.auto else {}
        self.truth: tuple[Deals, Consumed] = self._truth()
        self.holders = state.game.options.window_asks == "holders" and state.anytime
        """Between moves only the seats holding a visible wish are asked: who acts is a clue."""
        self.actors = _actors(state) if self.holders else ()
        self.laid_by = {q: {w for _, w in self.lays[q]} for q in self.seats}
        """The wishes each other seat laid down (public)."""
        self.open = [k for q in self.seats for k in self.slots[q]]
        self.free_choice = not (
            self.auto
            or self.holders
            or any(self.lays[q] or self.discards[q] for q in self.seats)
            or self.named
        ) and not any(self.calls[q] for q in self.seats)
        """No lay, discard, name, call or automatic lay of the other seats: any cards ``player``
        could not see, dealt to their deal steps, make a consistent world."""

    def _truth(self) -> tuple[Deals, Consumed]:
        history = self.state.history
        deals: Deals = {}
        consumed: Consumed = {}
        for q in self.seats:
            held: dict[int, int] = {}  # wish -> the step that dealt it
            for i in self.slots[q]:
                dealt = history[i]
                assert isinstance(dealt, WishCard)
                deals[i] = dealt.wish
                held[dealt.wish] = i
            for e in self.discards[q]:
                discard = history[e]
                assert isinstance(discard, Discard)
                consumed[e] = held[discard.wish]
        return deals, consumed

    # -------------------------------------------------------------- proposals
    def _lay_end(self, step: int) -> float:
        # a lay by its owner's action needs the card dealt before it; an automatic lay happens
        # in the settlement of the step itself, so a card dealt at that step counts
        return step + 0.5 if self.auto else step - 0.5

    def propose(self, rng: random.Random) -> tuple[Deals, Consumed] | None:
        """Uniform matchings of ends to deals, uniform cards on the unlaid deals."""
        deals: Deals = {}
        consumed: Consumed = {}
        open_slots: dict[int, list[int]] = {}
        for q in self.seats:
            slots = self.slots[q]
            ends: list[tuple[float, int, int]] = [(self._lay_end(s), 0, w) for s, w in self.lays[q]]
            ends += [(e - 0.5, 1, e) for e in self.discards[q]]
            ends.sort()
            used: set[int] = set()
            for t, kind, what in ends:
                choices = [k for k in slots if k < t and k not in used]
                if not choices:
                    return None  # cannot happen for a real game
                k = choices[int(rng.random() * len(choices))]
                used.add(k)
                if kind == 0:
                    deals[k] = what
                else:
                    consumed[what] = k
            open_slots[q] = [k for k in slots if k not in deals]
        pool = [w for w in self.free]
        # a named wish that was not laid sits on one of its seat's deals that covers the naming
        placed: set[int] = set()
        for w, q in self.named.items():
            if w in self.lays_cards(q):
                continue
            times = [h for h, n in self.names[q] if n == w]
            stay = self._ends(q, deals, consumed)
            cover = [k for k in open_slots[q] if all(k < h < stay.get(k, _LATE) for h in times)]
            if not cover:
                return None
            k = cover[int(rng.random() * len(cover))]
            if k in placed or w not in pool:
                return None
            placed.add(k)
            deals[k] = w
            pool.remove(w)
        rest = [k for q in self.seats for k in open_slots[q] if k not in placed]
        if len(rest) > len(pool):
            return None
        rng.shuffle(pool)  # (a shuffle, not rng.sample: the stored searches replay this stream)
        for k, w in zip(rest, pool, strict=False):
            deals[k] = w
        return deals, consumed

    def lays_cards(self, q: int) -> set[int]:
        return self.laid_by[q]

    def draw(self, rng: random.Random) -> Deals:
        """Cards for every hidden deal, a uniform ordered draw of those ``player`` could not see
        (the whole proposal when :attr:`free_choice`: nothing to match, nothing to check; the
        same random stream as :meth:`propose` then, so searches stored before replay)."""
        pool = list(self.free)
        rng.shuffle(pool)
        return dict(zip(self.open, pool, strict=False))

    def _ends(self, q: int, deals: Deals, consumed: Consumed) -> dict[int, int]:
        ends = {consumed[e]: e for e in self.discards[q] if e in consumed}
        slot_of = {deals[k]: k for k in self.slots[q] if k in deals}
        for s, w in self.lays[q]:
            if w in slot_of:
                ends[slot_of[w]] = s
        return ends

    # -------------------------------------------------------------- the check
    def acceptable(self, deals: Deals, consumed: Consumed) -> bool:
        """Consistent, and (``window_asks="holders"``) asking the same seats between moves: the
        rewritten history is replayed and must give the move to the same seat at every step."""
        if not self.consistent(deals, consumed):
            return False
        return not self.holders or self._replay(deals, consumed) is not None

    def _replay(self, deals: Deals, consumed: Consumed) -> PassanteState | None:
        state = self.state
        world = state.game.new_game(seed=state.seed)
        actors = self.actors
        for i, action in enumerate(state.history):
            if i in deals:
                action = WISH_CARDS[deals[i]]
            elif i in consumed:
                action = DISCARDS[deals[consumed[i]]]
            if world.current_player != actors[i]:
                return None
            try:
                world.apply(action)
            except IllegalAction:
                return None
        if world.observation(self.player) != state.observation(self.player):  # who is asked now
            return None
        return world

    def consistent(self, deals: Deals, consumed: Consumed) -> bool:
        """Does this world explain every public event of the other seats?"""
        visible = self.visible
        for q in self.seats:
            slots = self.slots[q]
            slot_of = {deals[k]: k for k in slots}
            ends: dict[int, int] = {}
            for e in self.discards[q]:
                k = consumed[e]
                if k not in slot_of.values() or k in ends or not k < e:
                    return False
                ends[k] = e
            for s, w in self.lays[q]:
                k = slot_of.get(w, -1)
                if k < 0 or k in ends or not k < self._lay_end(s):
                    return False
                ends[k] = s
            if self.auto:
                for k in slots:
                    steps = visible.get(deals[k])
                    if steps:
                        j = bisect_left(steps, k)
                        if j < len(steps) and steps[j] < ends.get(k, _LATE):
                            return False
            for h, w in self.names[q]:
                k = slot_of.get(w, -1)
                if k < 0 or not k < h < ends.get(k, _LATE):
                    return False
            for h, char, zone in self.calls[q]:
                if not any(
                    k < h < ends.get(k, _LATE)
                    and WISH_ZONE[deals[k]] == zone
                    and char in WISHES[deals[k]].characters
                    for k in slots
                ):
                    return False
        return True

    # -------------------------------------------------------------- the chain
    def chain(self, rng: random.Random) -> tuple[Deals, Consumed]:
        """Swaps from the real deals, each kept only if the world stays consistent."""
        deals, consumed = dict(self.truth[0]), dict(self.truth[1])
        slots = sorted(deals)
        dealt = set(deals.values())
        undealt = [w for w in self.free if w not in dealt]
        discard_steps = sorted(consumed)
        for _ in range(CHAIN_STEPS * len(slots)):
            new_deals, new_consumed = dict(deals), consumed
            u = rng.random()
            k = slots[int(rng.random() * len(slots))]
            if u < 0.45 or (not undealt and u < 0.9) or (not discard_steps and u >= 0.9):
                k2 = slots[int(rng.random() * len(slots))]
                new_deals[k], new_deals[k2] = deals[k2], deals[k]
            elif u < 0.9:
                j = int(rng.random() * len(undealt))
                new_deals[k] = undealt[j]
            else:
                e = discard_steps[int(rng.random() * len(discard_steps))]
                q = self.hidden[e]
                k = self.slots[q][int(rng.random() * len(self.slots[q]))]
                new_consumed = dict(consumed)
                other = next((f for f, s in consumed.items() if s == k), None)
                if other is not None:
                    new_consumed[other] = consumed[e]
                new_consumed[e] = k
            if self.acceptable(new_deals, new_consumed):
                if new_deals is not deals and new_deals != deals:
                    undealt = [w for w in self.free if w not in set(new_deals.values())]
                deals, consumed = new_deals, new_consumed
        return deals, consumed

    # -------------------------------------------------------------- the world
    def build(self, deals: Deals, consumed: Consumed, rng: random.Random) -> PassanteState:
        """The world with these hidden steps: a copy of the state whose other hands, Poète
        discards, wish deck and hidden history steps are rewritten.  The hidden cards change no
        public step (``consistent`` checked what they must explain), so this is the game the
        rewritten history replays to, without replaying it."""
        state = self.state
        if self.holders:  # who was asked depends on the hands: the replay is the world
            replayed = self._replay(deals, consumed)
            assert replayed is not None  # acceptable() checked it
            replayed.seed = _own_seed(rng)
            return replayed
        world = state.clone()
        assert isinstance(world, PassanteState)
        history = world.history
        for k, wish in deals.items():
            history[k] = WISH_CARDS[wish]
        for e, k in consumed.items():
            history[e] = DISCARDS[deals[k]]
        for q in self.seats:
            ended = {consumed[e] for e in self.discards[q]}
            laid = self.lays_cards(q)
            world.hands[q] = tuple(
                sorted(deals[k] for k in self.slots[q] if k not in ended and deals[k] not in laid)
            )
            world.discards[q] = tuple(deals[consumed[e]] for e in self.discards[q])
        dealt = self.seen
        for wish in deals.values():
            dealt |= 1 << wish
        world.wish_deck = ALL_WISHES & ~dealt
        world.seed = _own_seed(rng)
        world.invalidate()
        return world


def _actors(state: PassanteState) -> tuple[int, ...]:
    """Who acted at each step of ``state``'s history (public: the seat that moves is seen)."""
    replay = state.game.new_game(seed=state.seed)
    out = []
    for action in state.history:
        out.append(replay.current_player)
        replay.apply(action)
    return tuple(out)


def _automatic(state: PassanteState) -> bool:
    """Are wishes laid down by the engine the moment they are visible?"""
    return state.game.options.lay_wishes == "automatic"


def _visible_steps(state: PassanteState) -> dict[int, list[int]]:
    """For each wish, the history steps after which it was visible on the board (public)."""
    replay = state.game.new_game(seed=state.seed)
    out: dict[int, list[int]] = {}
    last: tuple[int, ...] = ()
    shown: list[int] = []
    for i, action in enumerate(state.history):
        replay.apply(action)  # the real game again, through the rules' own checks
        pos = tuple(replay.pos)
        if pos != last:
            last = pos
            shown = [w for w in WISH_NUMBERS if replay.is_visible(w)]
        for w in shown:
            out.setdefault(w, []).append(i)
    return out
