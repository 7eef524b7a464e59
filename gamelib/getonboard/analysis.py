"""Get on Board probes: every placement of a ticket, the best route, intersection values, score breakdowns.

A *placement* is everything a player lays in one turn: the sticks of the ticket's shape and, if
they hold a circled metro entrance, the extra stick or ``end``.  Placements are enumerated by
applying legal actions to clones, so they obey every rule by construction (the engine is the
single source of truth); a turn has at most a few dozen of them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamelib.core.game import Action, Game
from gamelib.core.play import play
from gamelib.getonboard.phases import P_BONUS, P_LAY, P_OVER
from gamelib.getonboard.rules import GetOnBoardGame, GetOnBoardState
from gamelib.getonboard.scoring import CATEGORIES, apply_features, score_breakdown

Value = Callable[[GetOnBoardState, int], float]


@dataclass(frozen=True)
class Placement:
    """One complete way to play the rest of a turn, and where it leaves the player."""

    actions: tuple[Action, ...]
    route: tuple[int, ...]
    """Intersections reached, in order (the line's end before the turn is not included)."""
    state: GetOnBoardState = field(repr=False, compare=False)
    """The position right after the turn."""
    gain: dict[str, int] = field(compare=False)
    """Points gained per category (and ``"total"``) compared with the start of the turn."""
    value: float = 0.0

    @property
    def notation(self) -> str:
        return ", ".join(str(a) for a in self.actions)


def free_region(state: GetOnBoardState, player: int, limit: int = 30) -> int:
    """How many intersections the line could still reach (its unvisited region, up to ``limit``).

    A small region means the line is walling itself in: the next tickets may force a loop.
    """
    board = state.board
    visited = state.visited[player]
    start = state.end[player]
    seen = {start}
    queue = deque([start])
    count = 0
    while queue and count < limit:
        node = queue.popleft()
        for nb in board.neighbour[node]:
            if nb >= 0 and nb not in seen and not visited >> nb & 1:
                seen.add(nb)
                count += 1
                queue.append(nb)
    return count


def position_value(state: GetOnBoardState, player: int) -> float:
    """Score so far plus a small bonus for room to move (an elimination is worth -20)."""
    if state.eliminated[player]:
        return -20.0
    rounds_left = state.game.options.rounds - state.round
    room = free_region(state, player)
    value = state.score(player) + 0.15 * room
    if room < 3 * rounds_left:  # too little room for the sticks still to come
        value -= 0.8 * (3 * rounds_left - room)
    return value


def placements(state: GetOnBoardState, value: Value = position_value) -> list[Placement]:
    """Every legal complete placement of the current turn from ``state`` (best value first).

    Works during a turn (``go``) or its end (``bonus``/``end``); empty at any other moment.
    """
    if state.phase not in (P_LAY, P_BONUS):
        return []
    player = state.current_player
    before = state.breakdown(player)
    out: list[Placement] = []

    def walk(s: GetOnBoardState, actions: tuple[Action, ...], route: tuple[int, ...]) -> None:
        if s.current_player != player or s.phase not in (P_LAY, P_BONUS) or s.is_terminal():
            after = s.breakdown(player)
            gain = {k: after[k] - before[k] for k in after}
            out.append(Placement(actions, route, s, gain, value(s, player)))
            return
        for action in s.legal_actions():
            target = s.target(action)
            child = s.clone()
            assert isinstance(child, GetOnBoardState)
            child.apply(action)
            walk(child, (*actions, action), (*route, target) if target >= 0 else route)

    walk(state, (), ())
    out.sort(key=lambda pl: -pl.value)
    return out


def best_route(state: GetOnBoardState, value: Value = position_value) -> Placement | None:
    """The placement with the best value (score so far plus room to move), or None outside a turn."""
    options = placements(state, value)
    return options[0] if options else None


def intersection_values(state: GetOnBoardState, player: int) -> dict[int, float]:
    """What reaching each intersection would add to ``player``'s score right now.

    Computed from the player's sheet (a restaurant is worth nothing with no lovers waiting, the
    third cinema is worth the students already aboard...), plus the personal-objective points of
    a missing letter.  Intersections already on the line are left out.
    """
    tables, options = state.tables, state.game.options
    sheet = state.sheets[player]
    reached = state.personal_reached(player) if player < len(state.personal) else 0
    base = score_breakdown(sheet, reached, tables)["total"]
    letters = set(state.personal_letters(player)) if player < len(state.personal) else set()
    out: dict[int, float] = {}
    for node in range(state.board.num_nodes):
        if state.visited[player] >> node & 1:
            continue
        extra = reached + (1 if state.board.letter_at.get(node) in letters else 0)
        after = score_breakdown(
            apply_features(sheet, state.board.features[node], tables, options), extra, tables
        )
        out[node] = float(after["total"] - base)
    return out


def visit_frequencies(game: Game, agents: Sequence[Any], games: int = 50, seed: int = 0) -> dict[int, float]:
    """Share of lines (over ``games`` games and every player) that passed through each intersection."""
    assert isinstance(game, GetOnBoardGame)
    counts = [0] * game.board.num_nodes
    lines = 0
    for g in range(games):
        final = play(game, list(agents), seed=seed + g)
        assert isinstance(final, GetOnBoardState)
        for p in range(game.num_players):
            lines += 1
            for node in set(final.routes[p]):
                counts[node] += 1
    return {node: c / max(lines, 1) for node, c in enumerate(counts)}


def score_breakdowns(
    game: Game, agents: Sequence[Any], games: int = 50, seed: int = 0, names: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """One row per player per game: agent, categories, total, eliminated, winner.

    Seats rotate every game so that no agent always plays first (the first Contrôleur).
    Turn the rows into a table with ``pandas.DataFrame(rows)``.
    """
    n = game.num_players
    if len(agents) != n:
        raise ValueError(f"{n} players need {n} agents, got {len(agents)}")
    labels = list(names) if names is not None else [getattr(a, "name", type(a).__name__) for a in agents]
    rows = []
    for g in range(games):
        shift = g % n
        seated = [agents[(i + shift) % n] for i in range(n)]
        final = play(game, seated, seed=seed + g)
        assert isinstance(final, GetOnBoardState)
        winners = final.winners()
        for p in range(n):
            breakdown = final.breakdown(p)
            row: dict[str, Any] = {"game": g, "seat": p, "agent": labels[(p + shift) % n]}
            row.update({c: breakdown[c] for c in CATEGORIES})
            row["total"] = breakdown["total"]
            row["eliminated"] = final.eliminated[p]
            row["winner"] = p in winners
            rows.append(row)
    return rows


def hypothetical_turn(state: GetOnBoardState, player: int, ticket: int) -> GetOnBoardState:
    """A clone of ``state`` in which ``player`` is about to lay ``ticket`` (a look-ahead helper).

    The clone skips whatever else would happen first (other players' sticks, the end of the
    round): it answers "what could I do with that ticket from where my line is now?".
    See :meth:`GetOnBoardState.with_turn`.
    """
    return state.with_turn(player, ticket)


def next_ticket_value(state: GetOnBoardState, player: int, value: Value = position_value) -> float:
    """Expected value of ``player``'s best placement of the next ticket, over the tickets left.

    Tickets giving the same shape on the player's sheet are grouped, so at most 6 enumerations.
    """
    if state.phase == P_OVER or state.eliminated[player] or state.round >= state.game.options.rounds:
        return value(state, player)
    left = [t for t in range(1, 13) if t not in state.tickets]
    if not left:
        return value(state, player)
    by_shape: dict[str, list[int]] = {}
    for t in left:
        by_shape.setdefault(state.tables.shape_for(state.sheet_of[player], t).name, []).append(t)
    total = 0.0
    for tickets in by_shape.values():
        options = placements(hypothetical_turn(state, player, tickets[0]), value)
        best = options[0].value if options else value(state, player)
        total += best * len(tickets) / len(left)
    return total
