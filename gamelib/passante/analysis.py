"""Probes of A Une Passante: how far a wish is, and how many wishes teams fulfil.

* :func:`fewest_moves` / :func:`fewest_turns`: breadth-first search over the positions of the
  wish's characters and the Omnibus on the board graph (the other characters never block a move,
  so they are left out of the search space: at most 5^3 x 5 positions).
* :func:`score_distribution`: final shared scores of many games, by player count and agent.
* :func:`communication_value`: the same team with secret hands, with table talk (hints), and
  with open hands: what communication is worth.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import gamelib
from gamelib.passante.board import CHAT, CHAT_MOVES, LOCATION_NAMES, LOCATIONS, NEIGHBOURS, PIECE_NAMES
from gamelib.passante.rules import NUM_WISHES, WISH_ZONE, WISHES, PassanteState

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
    raise ValueError(f"wish {wish + 1} cannot be shown from this position")  # unreachable on this board


def _start_position(state: PassanteState, wish: int) -> tuple[tuple[int, ...], Position]:
    if not 0 <= wish < NUM_WISHES:
        raise ValueError(f"wish must be between 0 and {NUM_WISHES - 1} (engine index), got {wish}")
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
    for w in range(NUM_WISHES):
        plan = fewest_moves(state, w)
        rows.append((w + 1, WISHES[w].title, plan.moves, plan.turns))
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
) -> dict[tuple[int, str], list[int]]:
    """Scores of one team (default: seekers) with secret hands, table talk and open hands."""
    if agent is None:
        from gamelib.passante.agents import WishSeekerAgent

        agent = WishSeekerAgent
    out: dict[tuple[int, str], list[int]] = {}
    for level, options in COMMUNICATION.items():
        for (n, _), scores in score_distribution(players, {"team": agent}, games, seed, options).items():
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
