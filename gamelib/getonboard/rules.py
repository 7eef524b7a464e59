"""Get on Board – Paris & Roma: the game and its state (who acts, the legal actions, what is seen).

Seed: ``shared/seeds/004_768639de7336b9a9.txt`` plus the published facts of the seeds README;
``docs/rules/getonboard.md`` quotes each sentence next to the rule name used in errors.  The
rules are split along their ideas: :mod:`~gamelib.getonboard.actions` (the notation),
:mod:`~gamelib.getonboard.options`, :mod:`~gamelib.getonboard.phases`,
:mod:`~gamelib.getonboard.dealing` (the setup and the piles, each transition next to its
refusal), :mod:`~gamelib.getonboard.turns` (the sticks of a round, likewise),
:mod:`~gamelib.getonboard.sticks` (the geometry of a line, each rule said once),
:mod:`~gamelib.getonboard.scoring` (the score sheet) and :mod:`~gamelib.getonboard.table` (the
state's attributes, typed and documented once).

The turn is split into one action per stick, so branching stays at most 3 and a widget can
offer "click the next intersection":

* setup (chance): ``objective K`` twice (the 2 common objectives), ``sheet S`` and ``personal P``
  for every player, ``deal T`` (two start tickets per player, among the map's start numbers);
* setup (players in seat order): ``start T`` puts the start pawn on start ``T``;
* each of the 12 rounds: the chance outcome ``ticket T`` (the next ticket of the shuffled pile),
  then every player, the Contrôleur first: ``go N|E|S|W`` once per stick of the shape their sheet
  gives for the ticket's colour, then ``bonus N|E|S|W`` (spend a circled metro entrance for one
  extra stick) or ``end`` if they hold a circled entrance.

The shuffled ticket pile is modelled as a chance node at each reveal (uniform over the tickets
not yet seen), which is the same distribution as a shuffle and leaves no hidden state: every
sheet, objective (personal ones « face visible ») and dealt start ticket is public, so the game
has perfect information with chance: ``observation(p)`` is the whole table
(:class:`GetOnBoardObservation`) and ``determinize`` a clone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from gamelib.core.errors import IllegalAction, OptionError
from gamelib.core.fields import StateFields, current_player_field
from gamelib.core.game import Action, Game, GameInfo
from gamelib.core.i18n import Wording
from gamelib.getonboard.actions import (
    NOTATION,
    STARTS,
    Bonus,
    ChooseStart,
    Go,
)
from gamelib.getonboard.board import CityMap, Shape, Tables, load_map, load_tables
from gamelib.getonboard.dealing import Dealing, Pile, pile
from gamelib.getonboard.options import CITY_PLAYERS, GetOnBoardOptions
from gamelib.getonboard.phases import (
    P_BONUS,
    P_LAY,
    P_OVER,
    P_START,
    PHASES,
    TURN,
)
from gamelib.getonboard.scoring import CATEGORIES, score_breakdown
from gamelib.getonboard.sticks import Bonuses, Sticks, stick_table

_WORDS = Wording("gamelib.getonboard")
"""Player names in the language in force (``gamelib.set_language``)."""

PLAYER_COLOURS = ("red", "blue", "green", "purple", "orange")


# ---------------------------------------------------------------------------- the game
@dataclass(frozen=True)
class Memos:
    """The memo tables of one configuration, shared by every game of it in a process.

    What they hold depends on the static board and on ``shape_fit`` only (the sticks a shape allows
    from a line end, the cards left in a pile), and they fill as games meet new keys: random play
    on fresh tables costs about a quarter more a game over the first 250 games (Rome, 3 players:
    0.51 against 0.39 ms, best of 7 blocks) and still fills them after 2,000.  Kept per process
    like the board itself (:func:`load_map`), a new game of a configuration already played starts
    warm: another tournament call with the game's name, a worker rebuilding the game for a later
    tournament's agents.  Bounded by the board: at most one entry per line end, heading, shape,
    step and box count (16,800 in Paris), and one per pile state (about 9,300)."""

    lay: dict[tuple[int, int, str, int], Sticks]
    lay_values: dict[int, Sticks]
    """The distinct answers the lay memo holds, by node and directions allowed (see
    :func:`~gamelib.getonboard.sticks.shape_sticks`)."""
    open: dict[int, tuple[tuple[int, int, int], ...]]
    bonus: dict[int, Bonuses]
    pile: dict[int, Pile]


_MEMOS: dict[tuple[str, bool], Memos] = {}


def process_memos(city: str, whole_shape: bool) -> Memos:
    """The memo tables of ``city`` under ``shape_fit`` (``whole_shape``), shared in this process."""
    memos = _MEMOS.get((city, whole_shape))
    if memos is None:
        memos = _MEMOS[(city, whole_shape)] = Memos({}, {}, {}, {}, {})
    return memos


def getonboard_tensor_size(game: GetOnBoardGame) -> int:
    """Length of ``state.observation_tensor(p)`` for ``game``'s city and player count (the
    encoding module imported here: a game made to be played, a tournament worker's, never reads it)."""
    from gamelib.core.encoding import encoding_of

    return len(encoding_of(game))


class GetOnBoardGame(Game):
    """Get on Board – Paris & Roma for 1-5 players (1 = the solo mode)."""

    info: ClassVar[GameInfo] = GameInfo(
        name="getonboard",
        title="Get on Board – Paris & Roma",
        min_players=1,
        max_players=5,
        default_players=3,
        min_return=-10.0,
        max_return=169.0,
        perfect_information=True,
        has_chance=True,
        utility="general_sum",
        description="Draw a metro line on a shared grid, ticket by ticket; carry passengers, share sections.",
        capabilities=frozenset({"observation_tensor", "board_clicks"}),
    )
    drawing: ClassVar[str] = "gamelib.getonboard.draw:draw_state"
    encoder: ClassVar[str] = "gamelib.getonboard.encoding:observation_tensor"
    Options: ClassVar[type] = GetOnBoardOptions
    options: GetOnBoardOptions
    version: ClassVar[str] = "2"
    legacy_defaults: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "1": {"loops": "forced-only", "shape_fit": "whole-shape"}
    }
    """Rules version 1 offered a looping stick only when forced (``loops="forced-only"``)."""

    def _setup(self) -> None:
        opts, n = self.options, self.num_players
        city = opts.city
        if city == "auto":
            city = "rome" if n <= 3 else "paris"
        elif n > 1 and not opts.free_city:
            low, high = CITY_PLAYERS[city]
            if not low <= n <= high:
                raise OptionError(
                    f"getonboard: {city.capitalize()} is played by {low}-{high} players, got {n} "
                    "(seed: 'À deux ou trois joueurs, utilisez Rome ; à quatre ou cinq, Paris'); "
                    "set free_city=True to lift the pairing"
                )
        self.city: str = city
        self.board: CityMap = load_map(city)
        self.tables: Tables = load_tables()
        self.deals_per_player = min(2, len(self.board.starts) // n)
        self.solo = n == 1
        # option flags read in the hot loop
        self.whole_shape = opts.shape_fit == "whole-shape"
        memos = process_memos(city, self.whole_shape)
        self.lay_table: dict[tuple[int, int, str, int], Sticks] = memos.lay
        """Memo of :func:`~gamelib.getonboard.sticks.shape_sticks` (the board and options are fixed)."""
        self.lay_values: dict[int, Sticks] = memos.lay_values
        """The distinct answers ``lay_table`` holds, shared by its keys."""
        self.shape_table = tuple(
            tuple(self.tables.shape_for(sheet, ticket) for ticket in range(1, 13)) for sheet in range(5)
        )
        """``shape_table[sheet][ticket - 1]``: the shape a sheet gives to a ticket."""
        self.open_table: dict[int, tuple[tuple[int, int, int], ...]] = memos.open
        """Memo of :func:`~gamelib.getonboard.sticks.open_sticks`."""
        self.bonus_table: dict[int, Bonuses] = memos.bonus
        """Memo of :func:`~gamelib.getonboard.sticks.bonus_sticks`."""
        self.pile_table: dict[int, Pile] = memos.pile
        """Memo of :func:`~gamelib.getonboard.dealing.pile`: (cards out, phase) -> outcomes, actions."""
        self.loops_allowed = opts.loops == "allowed"
        self.rome = city == "rome"
        self.fluid_always = opts.fluid_bonus == "always"
        self.fluid_first_ticket = opts.rome_fluid == "first-ticket"
        self.max_boxes = self.tables.max_modifications
        self.stick_table = stick_table(self.board, self.rome)
        """``stick_table[node * 4 + d]``: what laying a stick reads, in one lookup (a
        :data:`~gamelib.getonboard.sticks.Stick`: where it leads, its section, Rome colour, features)."""
        self.fluid_of = (0, *(ticket.rome_fluid + 1 for ticket in self.tables.tickets))
        """``fluid_of[ticket]``: the section colour + 1 that the ticket makes fluid in Rome."""
        self.affluence = self.board.affluence if self.solo and opts.solo_affluence else 0

    @property
    def max_game_length(self) -> int:
        n = self.num_players
        setup = 2 + n + n + self.deals_per_player * n + n
        # per player and round: at most 3 sticks and one bonus/end action
        return setup + self.options.rounds * (1 + 4 * n)

    def action_universe(self) -> list[Action]:
        """Every action of this configuration, in a fixed order (chance outcomes first)."""
        return list(NOTATION.universe(self))

    def new_game(self, seed: int | None = None) -> GetOnBoardState:
        return GetOnBoardState(self, seed)

    def player_name(self, player: int) -> str:
        """``Player 1 (red)`` for seat 0 (``Joueur 1 (rouge)`` in French): a student counts from 1."""
        return _WORDS("player", n=player + 1, colour=_WORDS(f"colour_{PLAYER_COLOURS[player]}"))

    def parse_action(self, text: str) -> Action:
        return NOTATION.parse(text, self)


# ---------------------------------------------------------------------------- the state
class GetOnBoardState(Dealing):
    """A position of Get on Board.  See the module docstring for the turn structure."""

    game: GetOnBoardGame
    fields = StateFields(
        key="phase objectives flipped sheet_of personal dealt start_of tickets turn_index "
        "end heading visited owned eliminated sheets step shape forced_straight routes turn_start turn_transfers",
        lists="end heading visited owned eliminated sheets routes",
        config="num_players board tables",
        derived="_player _out _taken",
    )

    current_player = current_player_field("_player")

    def _derive(self) -> None:
        """The derived fields, from the key: who acts, the cards out of the pile being dealt, the
        sections taken."""
        self._player = PHASES.who(self, self.phase)
        self._out = self._pile_out()
        taken = 0
        for owned in self.owned:
            taken |= owned
        self._taken = taken

    # ------------------------------------------------------------------ legal moves
    def _legal_actions(self) -> list[Action]:
        """The moves now, the commonest first: a stick of the shape under the text's rules is one
        memoised lookup (the shape's sticks from this line end) and one test against the line."""
        phase = self.phase
        if phase == P_LAY:
            p = self._player
            if self.game.loops_allowed and not self.forced_straight:  # the text's rules: the hot path
                owned = self.owned[p]
                moves, gos, union = self._shape_sticks(p)
                if not owned & union:
                    return gos  # shared, never mutated (core copies what it hands out)
                return [go for go, bit in moves if not owned & bit]
            return self._lay_actions(p)
        if phase == P_BONUS:
            return self._bonus_actions(self._player)
        if phase == P_START:
            return [STARTS[t - 1] for t in self.start_choices(len(self.start_of))]
        if phase == P_OVER:
            return []
        found = self.game.pile_table.get(self._out << 4 | phase) or pile(self.game, phase, self._out)
        return found[1]  # shared, never mutated (core copies what it hands out)

    def _refuse_now(self, action: Action) -> IllegalAction | None:
        """Refusals whatever the action's class: chance or a player acts now, a start is due."""
        error = self._refuse_chance(action)
        if error is None and self.phase == P_START and not isinstance(action, ChooseStart):
            who = self._player
            dealt = ", ".join(f"start {t}" for t in self.start_choices(who))
            return IllegalAction(
                "turn-order",
                f"{self.player_name(who)} is choosing a start ({dealt}); no ticket is revealed yet, "
                f"so there is no stick to lay nor entrance to spend",
                action,
            )
        return error

    def fatal(self, action: Action) -> bool:
        """Whether the legal ``go``/``bonus`` action ``action`` eliminates the player to act: it
        re-enters their line now, or every way to finish the shape this turn does.

        With ``loops="allowed"`` (the text) such sticks are legal; agents use this to avoid them.
        """
        p = self.current_player
        if p < 0 or not isinstance(action, (Go, Bonus)) or self.end[p] < 0:
            return False
        if isinstance(action, Bonus) or self.phase != P_LAY:
            return bool(self.visited[p] >> self.board.neighbour[self.end[p]][action.direction] & 1)
        return self._fatal_stick(p, action.direction)

    # ------------------------------------------------------------------ queries
    @property
    def round(self) -> int:
        """The round in progress, 1-based (0 during the setup)."""
        return len(self.tickets)

    @property
    def controller(self) -> int:
        """The Contrôleur of the round in progress (player 0 in round 1, then clockwise)."""
        return (max(self.round, 1) - 1) % self.num_players

    @property
    def ticket(self) -> int:
        """The current ticket number, 0 before the first reveal."""
        return self.tickets[-1] if self.tickets else 0

    def fluid_colour(self) -> int:
        """Rome: the section colour (index into SECTION_COLOURS) that gives +1 circle now; -1 elsewhere."""
        if self.game.city != "rome" or not self.tickets:
            return -1
        ticket = self.tickets[0] if self.game.options.rome_fluid == "first-ticket" else self.tickets[-1]
        return self.tables.tickets[ticket - 1].rome_fluid

    def shape_of(self, player: int) -> Shape:
        """The shape ``player``'s sheet gives for the current ticket."""
        return self.tables.shape_for(self.sheet_of[player], self.ticket)

    def personal_letters(self, player: int) -> str:
        return self.tables.personal[self.game.city][self.personal[player]]

    def personal_reached(self, player: int) -> int:
        """How many of ``player``'s three personal-objective intersections the line has reached."""
        letters = self.board.letters
        return sum(1 for c in self.personal_letters(player) if self.visited[player] >> letters[c] & 1)

    def entrances_available(self, player: int) -> int:
        s = self.sheets[player]
        return s.entrances - s.spent

    def breakdown(self, player: int) -> dict[str, int]:
        """Score by category as if the game ended now; an eliminated player scores nothing."""
        if self.eliminated[player] or player >= len(self.personal):
            return dict.fromkeys((*CATEGORIES, "total"), 0)
        return score_breakdown(self.sheets[player], self.personal_reached(player), self.tables)

    def score(self, player: int) -> int:
        return self.breakdown(player)["total"]

    def winners(self) -> list[int]:
        """The players with the best total (several on a tie: "une égalité partage la victoire")."""
        alive = [p for p in range(self.num_players) if not self.eliminated[p]]
        if not alive:
            return []
        best = max(self.score(p) for p in alive)
        return [p for p in alive if self.score(p) == best]

    def opponent_sticks(self, player: int, section: int) -> int:
        """Sticks of other players (and the solo affluence line) already on ``section``."""
        bit = 1 << section
        count = 0
        for q, owned in enumerate(self.owned):
            if owned & bit and q != player:
                count += 1
        if self.game.affluence & bit:
            count += 1
        return count

    def target(self, action: Action) -> int:
        """The intersection a ``go``/``bonus`` action reaches (or a ``start``'s intersection); -1 else."""
        if isinstance(action, (Go, Bonus)):
            p = self.current_player
            if p < 0 or self.end[p] < 0:
                return -1
            return self.board.neighbour[self.end[p]][action.direction]
        if isinstance(action, ChooseStart):
            return self.board.starts.get(action.number, -1)
        return -1

    def action_to(self, node: int) -> Action | None:
        """The legal action that lays the next stick (or chooses the start) at intersection ``node``."""
        for a in self.legal_actions():
            if self.target(a) == node:
                return a
        return None

    # ------------------------------------------------------------------ what a seat sees
    def _observation(self, player: int | None) -> GetOnBoardObservation:
        """Everything on the table: the game hides nothing from any seat (see the module docstring)."""
        return GetOnBoardObservation(player, self.fields.key_of(self))

    # ------------------------------------------------------------------ results & copies
    def returns(self) -> list[float]:
        """The final scores at the end, zeros before (a terminal-reward game, as OpenSpiel expects).

        :meth:`scores` gives the score-so-far at any moment.
        """
        if self.phase != P_OVER:
            return [0.0] * self.num_players
        return self.scores()

    def scores(self) -> list[float]:
        """Each player's score as if the game ended now (eliminated players: 0)."""
        return [float(self.score(p)) for p in range(self.num_players)]

    def with_turn(self, player: int, ticket: int) -> GetOnBoardState:
        """A clone in which ``player`` is about to lay ``ticket`` from where their line is now.

        A look-ahead for analysis: whatever would happen first (other players' sticks, the end
        of the round) is skipped, and the ticket replaces the current one (or is revealed).
        """
        self.check_player(player)
        if isinstance(ticket, bool) or not isinstance(ticket, int) or not 1 <= ticket <= 12:
            raise ValueError(f"ticket must be 1-12, got {ticket!r}")
        if not self.start_of or player >= len(self.start_of):
            raise ValueError("every player must have chosen a start first")
        s = self.clone()
        assert isinstance(s, GetOnBoardState)
        if s.phase in TURN:
            s.tickets = (*s.tickets[:-1], ticket)
        else:
            s.tickets = (*s.tickets, ticket)
        s.turn_index = (player - s.controller) % s.num_players
        s._begin_turn(player)
        s.invalidate()
        return s

    def __str__(self) -> str:
        rounds, phase = self.game.options.rounds, PHASES.names[self.phase]
        lines = [f"Get on Board – {self.board.title}, round {self.round}/{rounds}: {phase}"]
        if self.ticket:
            colour = self.tables.colours[self.tables.tickets[self.ticket - 1].colour]
            lines.append(f"  ticket {self.ticket} ({colour})")
        for p in range(len(self.start_of)):
            route = "-".join(self.board.names[i] for i in self.routes[p])
            status = " ELIMINATED" if self.eliminated[p] else ""
            lines.append(f"  {self.player_name(p)}: {self.score(p)} pts{status}  {route}")
        return "\n".join(lines)


@dataclass(frozen=True)
class GetOnBoardObservation:
    """What a seat sees now: the whole table, since the game hides nothing.

    Sheets, objectives (personal ones « face visible »), dealt start tickets, lines and tickets
    are public; the order of the tickets left in the pile is chance, not a secret.  ``player`` is
    the seat looking (``None``: the omniscient view); ``table`` holds the position's fields as
    :attr:`GetOnBoardState.fields` declares them, read by name: ``observation.sheets``,
    ``observation.routes`` (intersection numbers; ``board.names`` gives ``"K3"``),
    ``observation.phase`` (``PHASES.names`` gives its words).
    """

    player: int | None
    table: tuple[Any, ...]

    def __getattr__(self, name: str) -> Any:
        """A declared field of the position, by name (the declaration is the only list of them)."""
        index = _FIELD_INDEX.get(name)
        if index is None or name == "table":
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        return self.table[index]


_FIELD_INDEX = {name: i for i, name in enumerate(GetOnBoardState.fields.key)}

__all__ = [
    "PLAYER_COLOURS",
    "GetOnBoardGame",
    "GetOnBoardObservation",
    "GetOnBoardState",
    "getonboard_tensor_size",
]
