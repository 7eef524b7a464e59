"""Get on Board's rounds: the sticks of a ticket, the metro entrance, the common objectives.

Each action class's transition (``@transition``) and refusal (``@refusal``) sit side by side;
core dispatches on the action's class.  Which sticks are legal is decided by the predicates of
:mod:`gamelib.getonboard.sticks`, read both by the legal actions and by the refusals.  Quotes
and rule names: ``docs/rules/getonboard.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamelib.core.errors import IllegalAction
from gamelib.core.game import Action
from gamelib.core.rulebook import refusal, transition
from gamelib.getonboard.actions import BONUSES, END, GOS, Bonus, EndTurn, Go
from gamelib.getonboard.board import DELTA, DIRECTIONS, junction_cost
from gamelib.getonboard.phases import P_BONUS, P_LAY, P_OVER, P_REVEAL, PHASES
from gamelib.getonboard.scoring import (
    MODIFICATIONS,
    OBJECTIVE_POINTS,
    SPENT,
    apply_features,
    with_box,
    with_transfers,
)
from gamelib.getonboard.sticks import (
    NO_U_TURN,
    OFF_MAP,
    SHAPE_FITS_MAP,
    TURN_BOXES,
    Sticks,
    bonus_sticks,
    open_sticks,
    safe_after,
    shape_rule,
    shape_sticks,
    stick_rule,
)
from gamelib.getonboard.table import Table

if TYPE_CHECKING:
    pass


class Turns(Table):
    """The rounds of :class:`~gamelib.getonboard.rules.GetOnBoardState`."""

    # ------------------------------------------------------------------ the sticks offered
    def _lay_actions(self, p: int) -> list[Action]:
        """The sticks ``p`` may lay now (phase "a player lays the ticket's sticks")."""
        if self.forced_straight:
            return [GOS[d] for d in self._forced_directions(p)]
        owned = self.owned[p]
        moves = self._shape_sticks(p)[0]
        on_map: list[Action] = [go for go, bit in moves if not owned & bit]
        if self.game.loops_allowed or len(on_map) < 2:
            return on_map
        safe: list[Action] = [
            go for go, bit in moves if not owned & bit and not self._fatal_stick(p, go.direction)
        ]
        return safe or on_map

    def _bonus_actions(self, p: int) -> list[Action]:
        """The extra stick: any direction, but it "respecte les interdictions de boucle"; or end."""
        game, node, heading = self.game, self.end[p], self.heading[p]
        key = node * 5 + heading + 1
        entry = game.bonus_table.get(key)
        if entry is None:
            entry = game.bonus_table[key] = bonus_sticks(game, node, heading)
        every, sections, reached = entry
        owned, visited = self.owned[p], self.visited[p]
        if not owned & sections and not visited & reached:
            return every  # shared, never mutated (core copies what it hands out)
        bonuses: list[Action] = [
            BONUSES[d]
            for d, bit, nb in open_sticks(game, node, heading)
            if not owned & bit and not visited >> nb & 1
        ]
        bonuses.append(END)
        return bonuses

    def _shape_sticks(self, p: int) -> Sticks:
        """The sticks the shape allows from p's line end (before the one-stick-per-section check)."""
        shape, step, game = self.shape, self.step, self.game
        boxes = game.max_boxes - self.sheets[p].modifications
        if boxes > shape.sticks - step:
            boxes = shape.sticks - step  # more boxes than junctions to come change nothing: a smaller table
        node, heading = self.end[p], self.heading[p]
        key = (node * 5 + heading + 1, boxes, shape.junctions, step)  # the junctions give the sticks
        moves = game.lay_table.get(key)
        if moves is None:
            moves = shape_sticks(game, node, heading, shape.junctions, step, shape.sticks, boxes)
            game.lay_table[key] = moves
        return moves

    def _open_directions(self, p: int) -> list[int]:
        """Directions with a section, not back along the last stick, not already holding p's stick."""
        owned = self.owned[p]
        return [d for d, bit, _ in open_sticks(self.game, self.end[p], self.heading[p]) if not owned & bit]

    def _forced_directions(self, p: int) -> list[int]:
        """The FAQ's exception: one stick, straight ahead; any open direction if straight is off the map."""
        heading = self.heading[p]
        open_dirs = self._open_directions(p)
        if heading in open_dirs:
            return [heading]
        return open_dirs

    def _fatal_stick(self, p: int, d: int) -> bool:
        """Whether the stick ``d`` of the shape re-enters p's line now, or forces it later this turn."""
        board, shape, step = self.board, self.shape, self.step
        nb = board.neighbour[self.end[p]][d]
        visited = self.visited[p]
        if visited >> nb & 1:
            return True
        if self.forced_straight:
            return False
        boxes = self.boxes_left(p) - junction_cost(shape.junctions, step, self.heading[p], d)
        return not safe_after(
            board,
            nb,
            d,
            shape.junctions,
            step + 1,
            shape.sticks,
            boxes,
            visited | 1 << nb,
            self.game.whole_shape,
        )

    def boxes_left(self, player: int) -> int:
        return self.tables.max_modifications - self.sheets[player].modifications

    # ------------------------------------------------------------------ go
    @transition(Go)
    def _go(self, action: Go) -> None:
        """One stick of the shape: a junction that differs from the shape ticks a turn box; the
        last stick (or a fatal one, or a line stuck under "per-stick") ends the shape."""
        d = action.direction
        p = self._player
        step = self.step
        if step and not self.forced_straight:
            cost = junction_cost(self.shape.junctions, step, self.heading[p], d)
            if cost:
                s = self.sheets[p]
                self.sheets[p] = with_box(s, MODIFICATIONS, s.modifications + cost)
        self.step = step = step + 1
        if not self._lay_stick(p, d) or self.forced_straight or step >= self.shape.sticks:
            self._after_shape(p)
        elif not self.game.whole_shape:
            owned = self.owned[p]
            if not any(not owned & bit for _, bit in self._shape_sticks(p)[0]):
                self._after_shape(p)  # stuck mid-shape: the sticks left are lost

    @refusal(Go)
    def _why_not_go(self, action: Go) -> IllegalAction:
        """A stick after the shape is done, or the first rule it breaks."""
        if self.phase != P_LAY:
            return IllegalAction(
                "shape-done",
                f"the ticket's sticks are laid; now 'bonus D' or 'end' ({PHASES.names[self.phase]})",
                action,
            )
        return self._why_not_stick(self._player, action)

    # ------------------------------------------------------------------ bonus, end
    @transition(Bonus)
    def _bonus(self, action: Bonus) -> None:
        """« vous pouvez en barrer une seule pour ajouter un bâtonnet »: one entrance spent, one stick, the turn ends."""
        p = self._player
        s = self.sheets[p]
        self.sheets[p] = with_box(s, SPENT, s.spent + 1)
        self._lay_stick(p, action.direction)
        self._next_player()

    @refusal(Bonus)
    def _why_not_bonus(self, action: Bonus) -> IllegalAction:
        """« À la fin d'un tour » only, and the extra stick « respecte les interdictions de boucle »."""
        if self.phase != P_BONUS:
            return self._not_yet(action)
        return self._why_not_stick(self._player, action)

    @transition(EndTurn)
    def _end_turn(self, action: EndTurn) -> None:
        """The entrances are kept (each scores at the end): the next player's turn."""
        self._next_player()

    @refusal(EndTurn)
    def _why_not_end(self, action: EndTurn) -> IllegalAction | None:
        """``end`` belongs to the end of a turn, after the shape."""
        return self._not_yet(action) if self.phase != P_BONUS else None

    def _not_yet(self, action: Action) -> IllegalAction:
        return IllegalAction(
            "bonus-end-of-turn",
            "a metro entrance is spent (or the turn ended) only after the ticket's sticks are laid",
            action,
        )

    def _why_not_stick(self, p: int, action: Go | Bonus) -> IllegalAction:
        """The first rule a stick breaks, in the order a player checks them on the map."""
        d = action.direction
        node, heading = self.end[p], self.heading[p]
        board = self.board
        here = board.names[node]
        rule = stick_rule(board, node, heading, d)
        if rule == OFF_MAP:
            x, y = board.pos[node]
            dx, dy = DELTA[d]
            if (x + dx, y + dy) in board.pos:
                return IllegalAction(
                    "river", f"the river blocks the section {DIRECTIONS[d]} of {here}", action
                )
            return IllegalAction(
                "off-map", f"no section {DIRECTIONS[d]} of {here}: it leaves the map", action
            )
        if rule == NO_U_TURN:
            return IllegalAction("no-u-turn", "a line never goes back along the section it just took", action)
        if self.owned[p] >> board.section[node][d] & 1:
            return IllegalAction(
                "one-stick-per-section", "two sticks of one colour never share a section", action
            )
        if isinstance(action, Bonus):
            nb = board.neighbour[node][d]
            return IllegalAction(
                "bonus-no-loop", f"the extra stick may not re-enter the line at {board.names[nb]}", action
            )
        if self.forced_straight:
            return IllegalAction(
                "forced-straight",
                "the shape cannot be laid on the map with the turn boxes left: one straight stick replaces it",
                action,
            )
        return self._why_not_shape(p, action)

    def _why_not_shape(self, p: int, action: Go) -> IllegalAction:
        """A stick on an open section that the shape, or the option ``loops``, refuses."""
        d, shape, step, board = action.direction, self.shape, self.step, self.board
        node = self.end[p]
        boxes, whole = self.boxes_left(p), self.game.whole_shape
        rule = shape_rule(board, node, self.heading[p], d, shape.junctions, step, shape.sticks, boxes, whole)
        if rule == TURN_BOXES:
            want = "a turn" if shape.junctions[step - 1] == "T" else "straight on"
            return IllegalAction(
                "turn-boxes",
                f"the shape {shape.name!r} needs {want} here and all 5 turn boxes are used",
                action,
            )
        if rule == SHAPE_FITS_MAP:
            return IllegalAction(
                "shape-fits-map",
                f"from {board.names[board.neighbour[node][d]]} the rest of {shape.name!r} would leave the map "
                "(the route is laid whole; option shape_fit='per-stick' offers it)",
                action,
            )
        return IllegalAction(
            "avoid-loop",
            f"going {DIRECTIONS[d]} re-enters the line (now or later this turn), which eliminates; "
            "another stick finishes the shape safely (option loops='forced-only' is set; the text's "
            "loops='allowed' offers it)",
            action,
        )

    # ------------------------------------------------------------------ what a stick does
    def _lay_stick(self, p: int, d: int) -> bool:
        """Put p's stick from the end of its line towards ``d``; False if that eliminates p."""
        game = self.game
        a = self.end[p]
        b, section, bit, fluid, features = game.stick_table[a * 4 + d]
        owners = self.owned
        circles = 0
        if self._taken & bit:  # someone's stick lies there (p's never: one stick per section)
            for owned in owners:
                if owned & bit:
                    circles += 1
        else:
            self._taken |= bit
        if game.affluence & bit:
            circles += 1
        if fluid and (circles or game.fluid_always):  # Rome: a section of the fluid colour
            tickets = self.tickets
            if fluid == game.fluid_of[tickets[0] if game.fluid_first_ticket else tickets[-1]]:
                circles += 1
        sheet = self.sheets[p]
        if circles:
            sheet = with_transfers(sheet, circles, self.tables)
            self.turn_transfers = (*self.turn_transfers, (section, circles))
        owners[p] |= bit
        self.heading[p] = d
        routes = self.routes
        routes[p] = (*routes[p], b)
        self.end[p] = b
        visited = self.visited
        if visited[p] >> b & 1:
            # "le joueur est éliminé ... même si ses bâtonnets restent sur le plan"
            self.sheets[p] = sheet
            self.eliminated[p] = True
            return False
        visited[p] |= 1 << b
        self.sheets[p] = apply_features(sheet, features, self.tables, game.options)
        return True

    # ------------------------------------------------------------------ the order of turns
    def _begin_turn_or_skip(self) -> None:
        """Start the turn of the player at ``turn_index``, skipping eliminated players."""
        n = self.num_players
        controller = (max(len(self.tickets), 1) - 1) % n  # self.controller, read once
        eliminated = self.eliminated
        while self.turn_index < n:
            p = (controller + self.turn_index) % n
            if not eliminated[p]:
                self._begin_turn(p)
                return
            self.turn_index += 1
        self._end_round()

    def _begin_turn(self, p: int) -> None:
        """p lays the shape their sheet gives to the ticket; the FAQ's one straight stick replaces a
        shape that cannot be laid on the map with the boxes left."""
        shape = self.shape = self.game.shape_table[self.sheet_of[p]][self.tickets[-1] - 1]  # shape_of(p)
        self.step = 0
        self.turn_start = len(self.routes[p]) - 1
        self.turn_transfers = ()
        boxes = self.tables.max_modifications - self.sheets[p].modifications  # boxes_left(p)
        self.forced_straight = not self.board.fits(
            self.end[p], self.heading[p], shape.junctions, 0, shape.sticks, boxes
        )
        self.phase = P_LAY
        self._player = p

    def _after_shape(self, p: int) -> None:
        """After the shape: the entrance phase for a player holding a circled entrance, else the next turn."""
        sheet = self.sheets[p]
        if not self.eliminated[p] and sheet.entrances > sheet.spent:  # entrances_available(p) > 0
            self.phase = P_BONUS
        else:
            self._next_player()

    def _next_player(self) -> None:
        """The next player in the round's order (clockwise from the Contrôleur)."""
        self.turn_index += 1
        self._begin_turn_or_skip()

    def _end_round(self) -> None:
        """After every player's sticks: the common objectives, then the next ticket or the end."""
        self._check_objectives()
        self.forced_straight = False
        self.step = 0
        if len(self.tickets) >= self.game.options.rounds or all(self.eliminated):
            self.phase = P_OVER
        else:
            self.phase = P_REVEAL
        self._player = PHASES.who(self, self.phase)

    def _check_objectives(self) -> None:
        """« la carte est ensuite retournée »: every player reaching a common objective this round scores
        its yellow side (its grey side once turned; solo: by round), then the card is turned."""
        tables, game = self.tables, self.game
        achieved_now = [False] * len(self.objectives)
        for j, oid in enumerate(self.objectives):
            _, _, features, count = tables.common[oid - 1]
            for p in range(self.num_players):
                sheet = self.sheets[p]
                if self.eliminated[p] or sheet.objective_points[j]:
                    continue
                visits, reached = sheet.visits, 0
                for f in features:
                    reached += visits[f]
                if reached >= count:
                    if game.solo:
                        yellow = len(self.tickets) <= game.options.solo_yellow_rounds
                    else:
                        yellow = not self.flipped[j]
                    points = list(sheet.objective_points)
                    points[j] = tables.first_points if yellow else tables.later_points
                    self.sheets[p] = with_box(sheet, OBJECTIVE_POINTS, tuple(points))
                    achieved_now[j] = True
        # "la carte est ensuite retournée": after every player has been checked
        self.flipped = tuple(f or a for f, a in zip(self.flipped, achieved_now, strict=True))


__all__ = ["Turns"]
