"""Get on Board – Paris & Roma: the rules engine (state, actions, notation, options, scoring).

Seed: ``shared/seeds/004_768639de7336b9a9.txt`` plus the published facts of the seeds README;
``docs/rules/getonboard.md`` quotes each sentence next to the rule name used in errors here.

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

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, NamedTuple, TypeAlias

from gamelib.core.encoding import encoding_of
from gamelib.core.errors import IllegalAction, OptionError
from gamelib.core.fields import StateFields, current_player_field
from gamelib.core.game import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    GameInfo,
    State,
)
from gamelib.core.i18n import Wording
from gamelib.core.notation import Choice, Int, Notation, action_class
from gamelib.core.options import Between, check_declared
from gamelib.getonboard.board import (
    CINEMA,
    DARK_LOVERS,
    DIRECTIONS,
    ENTRANCE,
    GRANNY,
    LIGHT_LOVERS,
    NO_HEADING,
    OPERA,
    OPPOSITE,
    PUBLISHED,
    RESTAURANT,
    STUDENT,
    THEATRE,
    TOURIST,
    CityMap,
    Shape,
    Tables,
    completable,
    junction_cost,
    load_map,
    load_tables,
)

ROUNDS = 12
STICKS = 32
"""Sticks per player: exactly enough, since the 12 tickets ask for 26 sticks on every sheet (each
colour twice: 2 x (2+2+2+1+3+3)) and at most 6 more come from metro entrances."""

_WORDS = Wording("gamelib.getonboard")
"""Player names in the language in force (``gamelib.set_language``)."""

PLAYER_COLOURS = ("red", "blue", "green", "purple", "orange")
MONUMENTS = (THEATRE, OPERA)
DESTINATIONS = (THEATRE, OPERA, RESTAURANT)


# ---------------------------------------------------------------------------- actions
_MAX_PERSONAL = max(len(deck) for deck in load_tables().personal.values())
_MAX_START = max(int(facts["starts"]) for facts in PUBLISHED.values())


def _deck_size(game: GetOnBoardGame) -> int:
    return len(game.tables.personal[game.city])


def _start_count(game: GetOnBoardGame) -> int:
    return len(game.board.starts)


_DIRECTION = Choice("direction", DIRECTIONS)
_START = Int("number", 1, _start_count, what="start number", limit=_MAX_START)


@action_class("objective", Int("objective", 1, 6, what="common objective"))
class DrawObjective(Action):
    """Chance: common objective ``objective`` (1-6) is laid out, yellow side up."""

    objective: int


@action_class("sheet", Int("sheet", 1, 5))
class DealSheet(Action):
    """Chance: the next player in seat order gets score sheet ``sheet`` (1-5)."""

    sheet: int


@action_class("personal", Int("card", 1, _deck_size, what="personal objective card", limit=_MAX_PERSONAL))
class DealPersonal(Action):
    """Chance: the next player gets personal objective card ``card`` (1-based in the city deck)."""

    card: int


@action_class("deal", _START)
class DealStart(Action):
    """Chance: a start ticket (a start number of the map) is dealt to the next player."""

    number: int


@action_class("ticket", Int("number", 1, 12, what="ticket"))
class RevealTicket(Action):
    """Chance: the Contrôleur reveals ticket ``number`` (1-12) from the shuffled pile."""

    number: int


@action_class("start", _START)
class ChooseStart(Action):
    """A player keeps one of their dealt start tickets: the start pawn goes on that start."""

    number: int


@action_class("go", _DIRECTION)
class Go(Action):
    """Lay the next stick of the ticket's shape, from the end of the line towards ``direction``.

    ``direction`` is 0-3 (N, E, S, W); anything else is refused when the action is built.
    """

    direction: int


@action_class("bonus", _DIRECTION)
class Bonus(Action):
    """End of turn: cross out one circled metro entrance to lay one extra stick ``direction`` (0-3)."""

    direction: int


@action_class("end")
class EndTurn(Action):
    """End of turn without spending a metro entrance (kept entrances score 2 each)."""


GetOnBoardAction: TypeAlias = (
    DrawObjective | DealSheet | DealPersonal | DealStart | RevealTicket | ChooseStart | Go | Bonus | EndTurn
)
"""Every action of the game (``_apply`` dispatches on it with ``match``)."""

NOTATION = Notation(
    DrawObjective, DealSheet, DealPersonal, DealStart, RevealTicket, ChooseStart, Go, Bonus, EndTurn
)
"""The game's actions in universe order: parsing, the universe and the interned tables below."""

# interned actions: OBJECTIVES[k - 1] is "objective k", GOS[d] is "go d"...
OBJECTIVES: tuple[DrawObjective, ...] = NOTATION.every(DrawObjective)
SHEETS: tuple[DealSheet, ...] = NOTATION.every(DealSheet)
PERSONALS: tuple[DealPersonal, ...] = NOTATION.every(DealPersonal)
DEALS: tuple[DealStart, ...] = NOTATION.every(DealStart)
STARTS: tuple[ChooseStart, ...] = NOTATION.every(ChooseStart)
TICKETS: tuple[RevealTicket, ...] = NOTATION.every(RevealTicket)
GOS: tuple[Go, ...] = NOTATION.every(Go)
BONUSES: tuple[Bonus, ...] = NOTATION.every(Bonus)
Pile = tuple[list[tuple[Action, float]], list[Action]]
"""A chance node's outcomes (card, probability) and the same cards as its legal actions."""
END: EndTurn = NOTATION.make(EndTurn)

# ---------------------------------------------------------------------------- phases
P_OBJECTIVE, P_SHEET, P_PERSONAL, P_DEAL, P_START, P_REVEAL, P_LAY, P_BONUS, P_OVER = range(9)
PHASE_NAMES = (
    "common objectives are drawn",
    "score sheets are dealt",
    "personal objectives are dealt",
    "start tickets are dealt",
    "players choose their start",
    "the Contrôleur reveals a ticket",
    "a player lays the ticket's sticks",
    "a player may spend a metro entrance",
    "game over",
)
CHANCE_PHASES = (P_OBJECTIVE, P_SHEET, P_PERSONAL, P_DEAL, P_REVEAL)

CITY_PLAYERS = {"rome": (2, 3), "paris": (4, 5)}


@dataclass(frozen=True)
class GetOnBoardOptions:
    """Rule options; each is an interpretation or variant quoted in ``docs/rules/getonboard.md``."""

    city: Literal["auto", "rome", "paris"] = "auto"
    """"rome", "paris", or "auto": Rome for 1-3 players, Paris for 4-5 (the seed's pairing)."""
    free_city: bool = False
    """Lift the pairing "À deux ou trois joueurs, utilisez Rome ; à quatre ou cinq, Paris"."""
    rome_fluid: Literal["round", "first-ticket"] = "round"
    """Which ticket sets Rome's fluid colour: "round" (each revealed ticket) or "first-ticket"."""
    fluid_bonus: Literal["with-transfer", "always"] = "with-transfer"
    """Rome's +1 circle on a fluid section: "with-transfer" (only where opponents' sticks lie) or "always"."""
    loops: Literal["allowed", "forced-only"] = "allowed"
    """A stick that re-enters one's own line (now, or by force later in the turn): "allowed" (the
    text: « Revenir sur un carrefour déjà visité [...] le joueur est éliminé », a legal move that
    eliminates) or "forced-only" (offered only when no other stick finishes the shape safely: a
    convenience for random baselines and searches; the default of rules version 1)."""
    shape_fit: Literal["whole-shape", "per-stick"] = "whole-shape"
    """"whole-shape" (the text: the route « du tracé demandé » is laid whole, « Le nombre de segments
    et le nombre de virages doivent être respectés », so a stick after which the rest of the shape
    cannot be laid on the map is refused, rule ``shape-fits-map``) or "per-stick" (any stick on an
    open section is offered; a line stuck mid-shape ends its turn there, the sticks left are lost)."""
    tourist_overflow: Literal["lost", "next-row"] = "lost"
    """A tourist reached when the current row is full: "lost" or "next-row"."""
    empty_destination: Literal["ignore", "close"] = "ignore"
    """A monument or restaurant reached while the current row is empty: "ignore" or "close" (the row is wasted)."""
    start_features: bool = False
    """Whether the features of one's start intersection apply when the pawn is placed."""
    rounds: Annotated[int, Between(1, ROUNDS)] = ROUNDS
    """Number of rounds (12 in the rules; fewer only for teaching and tests)."""
    solo_yellow_rounds: Annotated[int, Between(0, ROUNDS)] = 6
    """Solo: a common objective is worth 10 if achieved within this many rounds, 6 afterwards."""
    solo_affluence: bool = True
    """Solo: the map's affluence line counts as one opponent stick on each of its sections."""

    def __post_init__(self) -> None:
        check_declared(self)  # options built by hand are held to the declarations above


# ---------------------------------------------------------------------------- the score sheet
class ScoreSheet(NamedTuple):
    """One player's paper sheet: every box that can be ticked, as small ints and tuples."""

    grannies: int = 0
    students: int = 0
    cinemas: int = 0
    tourist_rows: tuple[int, ...] = (0, 0, 0)
    tourists_closed: int = 0
    light: tuple[int, ...] = (0, 0, 0)
    dark: tuple[int, ...] = (0, 0, 0)
    lovers_closed: int = 0
    entrances: int = 0
    """Entrances circled (spent ones included)."""
    spent: int = 0
    transfers: int = 0
    modifications: int = 0
    objective_points: tuple[int, ...] = (0, 0)
    visits: tuple[int, ...] = (0,) * 10
    """How many intersections of each feature kind the line reached (for the common objectives)."""


_SHEET_FIELD = {name: i for i, name in enumerate(ScoreSheet._fields)}
_new_sheet = tuple.__new__
_GRANNIES, _STUDENTS, _CINEMAS = _SHEET_FIELD["grannies"], _SHEET_FIELD["students"], _SHEET_FIELD["cinemas"]
_TOURIST_ROWS, _TOURISTS_CLOSED = _SHEET_FIELD["tourist_rows"], _SHEET_FIELD["tourists_closed"]
_LIGHT, _DARK, _LOVERS_CLOSED = _SHEET_FIELD["light"], _SHEET_FIELD["dark"], _SHEET_FIELD["lovers_closed"]
_ENTRANCES, _VISITS = _SHEET_FIELD["entrances"], _SHEET_FIELD["visits"]

CATEGORIES = (
    "grannies",
    "students",
    "tourists",
    "lovers",
    "transfers",
    "objectives",
    "personal",
    "entrances",
    "turns",
)
"""Score categories, in the order of the paper sheet's total column."""


def tourist_row_value(count: int, tables: Tables) -> int:
    return tables.tourist_row_values[min(count, tables.tourist_row_size)]


def lover_row_value(light: int, dark: int, tables: Tables) -> int:
    couples = min(light, dark)
    return couples * tables.couple_points + (light + dark - 2 * couples) * tables.single_points


def score_breakdown(sheet: ScoreSheet, personal_reached: int, tables: Tables) -> dict[str, int]:
    """Points per category (see :data:`CATEGORIES`) and ``"total"``, as at the end of the game.

    Unresolved tourist and lover rows score half their value, rounded down; turn modifications
    are a negative category.
    """
    grannies = sum(tables.granny_track[: min(sheet.grannies, len(tables.granny_track))])
    students = min(sheet.students, tables.students_max) * min(sheet.cinemas, tables.cinemas_max)
    tourists = 0
    for i, count in enumerate(sheet.tourist_rows):
        value = tourist_row_value(count, tables)
        tourists += value if i < sheet.tourists_closed else value // 2
    lovers = 0
    for i in range(tables.lover_rows):
        value = lover_row_value(sheet.light[i], sheet.dark[i], tables)
        lovers += value if i < sheet.lovers_closed else value // 2
    track = tables.transfer_track
    transfers = track[min(sheet.transfers, len(track)) - 1] if sheet.transfers else 0
    out = {
        "grannies": grannies,
        "students": students,
        "tourists": tourists,
        "lovers": lovers,
        "transfers": transfers,
        "objectives": sum(sheet.objective_points),
        "personal": tables.personal_points[personal_reached],
        "entrances": tables.entrance_points * (sheet.entrances - sheet.spent),
        "turns": -sum(tables.turn_penalties[: sheet.modifications]),
    }
    out["total"] = sum(out.values())
    return out


def apply_features(
    sheet: ScoreSheet, features: tuple[int, ...], tables: Tables, options: GetOnBoardOptions
) -> ScoreSheet:
    """The sheet after reaching an intersection: its features apply one after the other."""
    if not features:
        return sheet
    box: list[Any] = list(sheet)  # the fields of ScoreSheet, in order (see _SHEET_FIELD)
    visits = list(sheet.visits)
    for f in features:
        visits[f] += 1
        if f == ENTRANCE:
            if box[_ENTRANCES] < tables.entrance_boxes:
                box[_ENTRANCES] += 1
        elif f == GRANNY:
            box[_GRANNIES] += 1
        elif f == STUDENT:
            box[_STUDENTS] += 1
        elif f == CINEMA:
            box[_CINEMAS] += 1
        elif f == TOURIST:
            row = box[_TOURISTS_CLOSED]
            rows = list(box[_TOURIST_ROWS])
            while row < tables.tourist_rows and rows[row] >= tables.tourist_row_size:
                if options.tourist_overflow != "next-row":
                    row = tables.tourist_rows  # lost
                    break
                row += 1
            if row < tables.tourist_rows:
                rows[row] += 1
                box[_TOURIST_ROWS] = tuple(rows)
        elif f in (THEATRE, OPERA):
            row = box[_TOURISTS_CLOSED]
            if row < tables.tourist_rows and (
                box[_TOURIST_ROWS][row] > 0 or options.empty_destination == "close"
            ):
                box[_TOURISTS_CLOSED] = row + 1
        elif f in (LIGHT_LOVERS, DARK_LOVERS):
            row = box[_LOVERS_CLOSED]
            if row < tables.lover_rows:
                which = _LIGHT if f == LIGHT_LOVERS else _DARK
                values = list(box[which])
                if values[row] < tables.lovers_per_colour:
                    values[row] += 1
                    box[which] = tuple(values)
        elif f == RESTAURANT:
            row = box[_LOVERS_CLOSED]
            if row < tables.lover_rows and (
                box[_LIGHT][row] + box[_DARK][row] > 0 or options.empty_destination == "close"
            ):
                box[_LOVERS_CLOSED] = row + 1
    box[_VISITS] = tuple(visits)
    return _new_sheet(ScoreSheet, box)  # ScoreSheet._make without its length check: box has every field


def _survives_per_stick(
    board: CityMap, node: int, heading: int, junctions: str, step: int, sticks: int, boxes: int, visited: int
) -> bool:
    """Under ``shape_fit="per-stick"``: can sticks ``step..`` go on from ``node`` without re-entering
    ``visited``?  A line with no stick the shape allows is stuck, which ends the turn safely."""
    if step >= sticks:
        return True
    moves = board.next_sticks(node, heading, junctions, step, boxes)
    if not moves:
        return True  # stuck: the turn ends here, safely
    return any(
        not visited >> nb & 1
        and _survives_per_stick(board, nb, d, junctions, step + 1, sticks, boxes - cost, visited | 1 << nb)
        for d, nb, cost in moves
    )


# ---------------------------------------------------------------------------- what a seat sees
@dataclass(frozen=True)
class GetOnBoardObservation:
    """What a seat sees now: the whole table, since the game hides nothing.

    Sheets, objectives (personal ones « face visible »), dealt start tickets, lines and tickets
    are public; the order of the tickets left in the pile is chance, not a secret.  ``player`` is
    the seat looking (``None``: the omniscient view).
    """

    player: int | None
    phase: str
    round: int
    to_move: int
    """The seat to act, or ``gamelib.CHANCE`` / ``gamelib.TERMINAL``."""
    controller: int
    """The round's Contrôleur (-1 before the first ticket)."""
    objectives: tuple[int, ...]
    flipped: tuple[bool, ...]
    tickets: tuple[int, ...]
    sheet_of: tuple[int, ...]
    personal: tuple[str, ...]
    """Per player: the three letters of their personal objective."""
    dealt: tuple[tuple[int, ...], ...]
    start_of: tuple[int, ...]
    lines: tuple[tuple[str, ...], ...]
    """Per player: the intersections of their line, in order (names like ``"K3"``)."""
    eliminated: tuple[bool, ...]
    sheets: tuple[ScoreSheet, ...]
    shape: str
    """The shape being laid (empty outside a turn)."""
    step: int
    forced_straight: bool


# ---------------------------------------------------------------------------- the game
def getonboard_tensor_size(game: GetOnBoardGame) -> int:
    """Length of ``state.observation_tensor(p)`` for ``game``'s city and player count."""
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
        self.lay_table: dict[tuple[int, int, str, int, int], tuple[tuple[int, int], ...]] = {}
        """Memo of :meth:`GetOnBoardState._shape_moves` (the board and options are fixed)."""
        self.pile_table: dict[tuple[int, int], Pile] = {}
        """Memo of :meth:`GetOnBoardState._list_outcomes`: (phase, cards out) -> outcomes, actions."""
        self.loops_allowed = opts.loops == "allowed"
        self.rome = city == "rome"
        self.fluid_always = opts.fluid_bonus == "always"
        self.fluid_first_ticket = opts.rome_fluid == "first-ticket"
        self.max_boxes = self.tables.max_modifications
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


class GetOnBoardState(State):
    """A position of Get on Board.  See the module docstring for the turn structure."""

    game: GetOnBoardGame
    fields = StateFields(
        key="phase objectives flipped sheet_of personal dealt start_of tickets turn_index "
        "end heading visited owned eliminated sheets step shape forced_straight routes turn_start turn_transfers",
        lists="end heading visited owned eliminated sheets routes",
        config="num_players board tables",
        derived="_player",
        caches="_outcomes",
    )

    def __init__(self, game: GetOnBoardGame, seed: int | None) -> None:
        super().__init__(game, seed)
        n = game.num_players
        self.num_players = n
        self.board = game.board
        self.tables = game.tables
        self.phase = P_OBJECTIVE
        self.objectives: tuple[int, ...] = ()
        """Common objective ids (1-6) on the table."""
        self.flipped: tuple[bool, ...] = ()
        """Per common objective: turned to its grey side (someone achieved it in an earlier round)."""
        self.sheet_of: tuple[int, ...] = ()
        """Per player: the score sheet (0-4)."""
        self.personal: tuple[int, ...] = ()
        """Per player: index of their personal objective in the city deck."""
        self.dealt: tuple[tuple[int, ...], ...] = ()
        """Per player: the start tickets dealt (start numbers)."""
        self.start_of: tuple[int, ...] = ()
        """Per player: the start number chosen."""
        self.tickets: tuple[int, ...] = ()
        """Ticket numbers revealed so far, in order (the last is the current round's)."""
        self.turn_index = 0
        """Position of the player to act in this round's order (0 = the Contrôleur)."""
        self.end = [-1] * n
        self.heading = [NO_HEADING] * n
        self.visited = [0] * n
        self.owned = [0] * n
        self.routes: list[tuple[int, ...]] = [()] * n
        """Per player: the intersections of the line, in order (tuples: shared by clones)."""
        self.eliminated = [False] * n
        self.sheets = [ScoreSheet()] * n
        # the turn in progress
        self.step = 0
        self.shape: Shape = self.tables.shapes[0]
        self.forced_straight = False
        self.turn_start = 0
        """Index in the player's route where this turn began (the partial route follows it)."""
        self.turn_transfers: tuple[tuple[int, int], ...] = ()
        """(section, circles) gained this turn: drawn as transfer sections."""
        self._player = CHANCE
        self._outcomes: Pile | None = None
        """The chance outcomes of this node and their actions, computed once (dropped by every transition)."""

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

    current_player = current_player_field("_player")

    def _derive(self) -> None:
        """The one derived field: who acts, from the phase (also set by every transition)."""
        self._player = self._player_to_move()

    def _player_to_move(self) -> int:
        """Who acts now, from the phase (cached in ``_player`` after every transition)."""
        phase = self.phase
        if phase in (P_LAY, P_BONUS):  # most actions: the player in turn order
            return (max(len(self.tickets), 1) - 1 + self.turn_index) % self.num_players
        if phase == P_OVER:
            return TERMINAL
        if phase == P_START:
            return len(self.start_of)
        return CHANCE  # every other phase deals a card

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

    def boxes_left(self, player: int) -> int:
        return self.tables.max_modifications - self.sheets[player].modifications

    def entrances_available(self, player: int) -> int:
        s = self.sheets[player]
        return s.entrances - s.spent

    def breakdown(self, player: int) -> dict[str, int]:
        """Score by category as if the game ended now; an eliminated player scores nothing."""
        if self.eliminated[player]:
            return dict.fromkeys((*CATEGORIES, "total"), 0)
        if player >= len(self.personal):
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

    def transfer_circles(self, player: int, section: int) -> int:
        """Circles ``player`` would tick for laying a stick on ``section`` now."""
        circles = self.opponent_sticks(player, section)
        fluid = self.fluid_colour()
        on_fluid = fluid >= 0 and self.board.section_colour[section] == fluid
        if on_fluid and (circles > 0 or self.game.options.fluid_bonus == "always"):
            circles += 1
        return circles

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

    # ------------------------------------------------------------------ legal moves
    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == P_LAY:
            p = self._player
            if self.game.loops_allowed and not self.forced_straight:
                owned = self.owned[p]
                return [GOS[d] for d, bit in self._shape_moves(p) if not owned & bit]
            return [GOS[d] for d in self._lay_directions(p)]
        if phase == P_BONUS:
            return [*(BONUSES[d] for d in self._bonus_directions(self._player)), END]
        if phase in CHANCE_PHASES:
            pile = self._outcomes
            if pile is None:
                pile = self._outcomes = self._list_outcomes()
            return pile[1]  # shared, never mutated (core copies what it hands out)
        if phase == P_START:
            return [STARTS[t - 1] for t in sorted(self.dealt[len(self.start_of)])]
        return []

    def _open_directions(self, p: int) -> list[int]:
        """Directions with a section, not back along the last stick, not already holding p's stick."""
        node, heading = self.end[p], self.heading[p]
        back = OPPOSITE[heading] if heading >= 0 else -1
        owned = self.owned[p]
        sections = self.board.section[node]
        return [d for d in range(4) if sections[d] >= 0 and d != back and not owned >> sections[d] & 1]

    def _lay_directions(self, p: int) -> list[int]:
        if self.forced_straight:
            return self._forced_directions(p)
        on_map = self._shape_directions(p)
        if self.game.loops_allowed or len(on_map) < 2:
            return on_map
        safe = [d for d in on_map if not self._fatal_stick(p, d)]
        return safe or on_map

    def _shape_directions(self, p: int) -> list[int]:
        """Sticks the shape allows now (loops aside): an open section, a turn box for a changed
        junction, and under ``shape_fit="whole-shape"`` a way to lay the rest of the shape on the map."""
        owned = self.owned[p]
        return [d for d, bit in self._shape_moves(p) if not owned & bit]

    def _shape_moves(self, p: int) -> tuple[tuple[int, int], ...]:
        """(direction, section's bit) of the sticks the shape allows from p's line end, before
        the one-stick-per-section check: a function of the static board, memoised on the game."""
        node, heading = self.end[p], self.heading[p]
        shape, step = self.shape, self.step
        junctions, sticks = shape.junctions, shape.sticks
        boxes = self.game.max_boxes - self.sheets[p].modifications
        if boxes > sticks - step:
            boxes = sticks - step  # more boxes than junctions to come change nothing
        game = self.game
        key = (node * 5 + heading + 1, boxes, junctions, step, sticks)
        moves = game.lay_table.get(key)
        if moves is None:
            board = self.board
            want = junctions[step - 1] if step else "F"
            back = OPPOSITE[heading] if heading >= 0 else -1
            sections, nbrs = board.section[node], board.neighbour[node]
            found = []
            for d in range(4):
                sec = sections[d]
                if sec < 0 or d == back:
                    continue
                cost = 0 if want == "F" else int((d != heading) != (want == "T"))
                if cost > boxes:
                    continue
                if game.whole_shape and not board.fits(nbrs[d], d, junctions, step + 1, sticks, boxes - cost):
                    continue
                found.append((d, 1 << sec))
            moves = game.lay_table[key] = tuple(found)
        return moves

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
        if self.game.whole_shape:
            return not completable(
                board, nb, d, shape.junctions, step + 1, shape.sticks, boxes, visited | 1 << nb
            )
        return not _survives_per_stick(
            board, nb, d, shape.junctions, step + 1, shape.sticks, boxes, visited | 1 << nb
        )

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

    def _forced_directions(self, p: int) -> list[int]:
        """The FAQ's exception: one stick, straight ahead; any open direction if straight is off the map."""
        heading = self.heading[p]
        open_dirs = self._open_directions(p)
        if heading in open_dirs:
            return [heading]
        return open_dirs

    def _bonus_directions(self, p: int) -> list[int]:
        """The extra stick: any direction, but it "respecte les interdictions de boucle"."""
        node, visited = self.end[p], self.visited[p]
        nbrs = self.board.neighbour[node]
        return [d for d in self._open_directions(p) if not visited >> nbrs[d] & 1]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        pile = self._outcomes
        if pile is None:
            pile = self._outcomes = self._list_outcomes()
        return list(pile[0])

    def _list_outcomes(self) -> Pile:
        """The cards left in the pile being dealt, equally likely, and those cards' actions (the
        legal actions of the chance node); shared lists, never mutated.

        They depend only on the phase and the set of cards already out of that pile (a bitmask),
        so they are memoised on the game: a deck of ``k`` cards has at most ``2**k`` piles.
        """
        phase = self.phase
        used: tuple[int, ...]
        if phase == P_REVEAL:
            used = self.tickets
        elif phase == P_OBJECTIVE:
            used = self.objectives
        elif phase == P_SHEET:
            used = self.sheet_of
        elif phase == P_PERSONAL:
            used = self.personal
        elif phase == P_DEAL:
            used = tuple(t for hand in self.dealt for t in hand)
        else:
            return [], []
        mask = 0
        for card in used:
            mask |= 1 << card
        key = (phase, mask)
        table = self.game.pile_table
        outcomes = table.get(key)
        if outcomes is None:
            left: list[Action]
            if phase == P_REVEAL:
                left = [TICKETS[t - 1] for t in range(1, 13) if not mask >> t & 1]
            elif phase == P_OBJECTIVE:
                left = [OBJECTIVES[i - 1] for i in range(1, 7) if not mask >> i & 1]
            elif phase == P_SHEET:
                left = [SHEETS[i] for i in range(5) if not mask >> i & 1]
            elif phase == P_PERSONAL:
                deck = len(self.tables.personal[self.game.city])
                left = [PERSONALS[c] for c in range(deck) if not mask >> c & 1]
            else:
                left = [DEALS[t - 1] for t in self.board.starts if not mask >> t & 1]
            outcomes = table[key] = ([(a, 1.0 / len(left)) for a in left], left)
        return outcomes

    # ------------------------------------------------------------------ errors
    def _explain_illegal(self, action: Action) -> IllegalAction:
        phase, who = self.phase, self.current_player
        name = PHASE_NAMES[phase]
        chance_kinds = (DrawObjective, DealSheet, DealPersonal, DealStart, RevealTicket)
        if isinstance(action, chance_kinds):
            if who != CHANCE:
                return IllegalAction("chance-node", f"{action} is a chance outcome; now {name}", action)
            expected = {
                P_OBJECTIVE: DrawObjective,
                P_SHEET: DealSheet,
                P_PERSONAL: DealPersonal,
                P_DEAL: DealStart,
                P_REVEAL: RevealTicket,
            }[phase]
            if not isinstance(action, expected):
                return IllegalAction("setup-order", f"{action} does not fit: now {name}", action)
            if isinstance(action, DealStart) and action.number not in self.board.starts:
                return IllegalAction(
                    "not-legal",
                    f"{self.board.title} has start tickets 1-{len(self.board.starts)}, not {action.number}",
                    action,
                )
            return IllegalAction("already-dealt", f"{action}: that card is no longer in its pile", action)
        if who == CHANCE:
            return IllegalAction("chance-node", f"{action} is a player's action; now {name}", action)
        if phase == P_START and not isinstance(action, ChooseStart):
            dealt = ", ".join(f"start {t}" for t in sorted(self.dealt[who]))
            return IllegalAction(
                "turn-order",
                f"{self.player_name(who)} is choosing a start ({dealt}); no ticket is revealed yet, "
                f"so there is no stick to lay nor entrance to spend",
                action,
            )
        if isinstance(action, ChooseStart):
            if phase != P_START:
                return IllegalAction(
                    "turn-order", f"the start is chosen during the setup; now {name}", action
                )
            return IllegalAction(
                "start-ticket",
                f"{self.player_name(who)} was dealt start tickets {sorted(self.dealt[who])}, not {action.number}",
                action,
            )
        if isinstance(action, (Bonus, EndTurn)) and phase != P_BONUS:
            return IllegalAction(
                "bonus-end-of-turn",
                "a metro entrance is spent (or the turn ended) only after the ticket's sticks are laid",
                action,
            )
        if isinstance(action, Go) and phase != P_LAY:
            return IllegalAction(
                "shape-done", f"the ticket's sticks are laid; now 'bonus D' or 'end' ({name})", action
            )
        if isinstance(action, (Go, Bonus)):
            return self._explain_direction(who, action)
        return IllegalAction("not-legal", f"{action} is not legal now ({name})", action)

    def _explain_direction(self, p: int, action: Go | Bonus) -> IllegalAction:
        d = action.direction
        node, heading = self.end[p], self.heading[p]
        board = self.board
        here = board.names[node]
        if board.section[node][d] < 0:
            x, y = board.pos[node]
            dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[d]
            beyond = (x + dx, y + dy)
            if beyond in board.pos:
                return IllegalAction(
                    "river", f"the river blocks the section {DIRECTIONS[d]} of {here}", action
                )
            return IllegalAction(
                "off-map", f"no section {DIRECTIONS[d]} of {here}: it leaves the map", action
            )
        if heading >= 0 and d == OPPOSITE[heading]:
            return IllegalAction("no-u-turn", "a line never goes back along the section it just took", action)
        if self.owned[p] >> board.section[node][d] & 1:
            return IllegalAction(
                "one-stick-per-section", "two sticks of one colour never share a section", action
            )
        nb = board.neighbour[node][d]
        if isinstance(action, Bonus):
            return IllegalAction(
                "bonus-no-loop", f"the extra stick may not re-enter the line at {board.names[nb]}", action
            )
        if self.forced_straight:
            return IllegalAction(
                "forced-straight",
                "the shape cannot be laid on the map with the turn boxes left: one straight stick replaces it",
                action,
            )
        shape, step = self.shape, self.step
        cost = junction_cost(shape.junctions, step, heading, d)
        if cost > self.boxes_left(p):
            want = "a turn" if shape.junctions[step - 1] == "T" else "straight on"
            return IllegalAction(
                "turn-boxes",
                f"the shape {shape.name!r} needs {want} here and all 5 turn boxes are used",
                action,
            )
        if self.game.options.shape_fit == "whole-shape" and not completable(
            board, nb, d, shape.junctions, step + 1, shape.sticks, self.boxes_left(p) - cost, None
        ):
            return IllegalAction(
                "shape-fits-map",
                f"from {board.names[nb]} the rest of {shape.name!r} would leave the map "
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

    # ------------------------------------------------------------------ transitions
    def _apply(self, action: Action) -> None:
        self._outcomes = None
        _TRANSITIONS[type(action)](self, action)  # each phase has its own class; core checked it is legal
        self._player = self._player_to_move()

    def _go(self, action: Go) -> None:  # P_LAY
        d = action.direction
        p = self._player
        if not self.forced_straight and self.step:
            cost = junction_cost(self.shape.junctions, self.step, self.heading[p], d)
            if cost:
                s = self.sheets[p]
                self.sheets[p] = s._replace(modifications=s.modifications + cost)
        self.step += 1
        alive = self._lay_stick(p, d)
        if not alive or self.forced_straight or self.step >= self.shape.sticks:
            self._after_shape(p)
        elif not self.game.whole_shape and not self._shape_directions(p):
            self._after_shape(p)  # stuck mid-shape: the sticks left are lost

    def _bonus(self, action: Bonus) -> None:  # P_BONUS
        p = self._player
        s = self.sheets[p]
        self.sheets[p] = s._replace(spent=s.spent + 1)
        self._lay_stick(p, action.direction)
        self._next_player()

    def _end_turn(self, action: EndTurn) -> None:  # P_BONUS
        self._next_player()

    def _draw_objective(self, action: DrawObjective) -> None:  # P_OBJECTIVE
        self.objectives = (*self.objectives, action.objective)
        if len(self.objectives) == 2:
            self.flipped = (False, False)
            self.phase = P_SHEET

    def _deal_sheet(self, action: DealSheet) -> None:  # P_SHEET
        self.sheet_of = (*self.sheet_of, action.sheet - 1)
        if len(self.sheet_of) == self.num_players:
            self.phase = P_PERSONAL

    def _deal_personal(self, action: DealPersonal) -> None:  # P_PERSONAL
        self.personal = (*self.personal, action.card - 1)
        if len(self.personal) == self.num_players:
            self.phase = P_DEAL

    def _deal_start(self, action: DealStart) -> None:  # P_DEAL
        per = self.game.deals_per_player
        dealt = list(self.dealt)
        if not dealt or len(dealt[-1]) == per:
            dealt.append(())
        dealt[-1] = (*dealt[-1], action.number)
        self.dealt = tuple(dealt)
        if len(dealt) == self.num_players and len(dealt[-1]) == per:
            self.phase = P_START

    def _choose_start(self, action: ChooseStart) -> None:  # P_START
        number = action.number
        p = len(self.start_of)
        node = self.board.starts[number]
        self.start_of = (*self.start_of, number)
        self.end[p] = node
        self.visited[p] = 1 << node
        self.routes[p] = (node,)
        if self.game.options.start_features:
            self.sheets[p] = apply_features(
                self.sheets[p], self.board.features[node], self.tables, self.game.options
            )
        if len(self.start_of) == self.num_players:
            self.phase = P_REVEAL

    def _reveal_ticket(self, action: RevealTicket) -> None:  # P_REVEAL
        self.tickets = (*self.tickets, action.number)
        self.turn_index = 0
        self._begin_turn_or_skip()

    def _lay_stick(self, p: int, d: int) -> bool:
        """Put p's stick from the end of its line towards ``d``; False if that eliminates p."""
        board = self.board
        a = self.end[p]
        b = board.neighbour[a][d]
        section = board.section[a][d]
        bit = 1 << section
        owners = self.owned
        circles = 0
        for owned in owners:  # p's own stick is never on a section it lays (one per section)
            if owned & bit:
                circles += 1
        game = self.game
        if game.affluence & bit:
            circles += 1
        if game.rome and (circles or game.fluid_always):
            tickets = self.tickets
            ticket = tickets[0] if game.fluid_first_ticket else tickets[-1]
            if board.section_colour[section] == self.tables.tickets[ticket - 1].rome_fluid:
                circles += 1
        sheet = self.sheets[p]
        if circles:
            track = len(self.tables.transfer_track)
            sheet = sheet._replace(transfers=min(track, sheet.transfers + circles))
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
        self.sheets[p] = apply_features(sheet, board.features[b], self.tables, game.options)
        return True

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
        tables = self.tables
        shape = self.shape = tables.shape_for(self.sheet_of[p], self.tickets[-1])  # shape_of(p)
        self.step = 0
        self.turn_start = len(self.routes[p]) - 1
        self.turn_transfers = ()
        boxes = tables.max_modifications - self.sheets[p].modifications  # boxes_left(p)
        self.forced_straight = not self.board.fits(
            self.end[p], self.heading[p], shape.junctions, 0, shape.sticks, boxes
        )
        self.phase = P_LAY

    def _after_shape(self, p: int) -> None:
        sheet = self.sheets[p]
        if not self.eliminated[p] and sheet.entrances > sheet.spent:  # entrances_available(p) > 0
            self.phase = P_BONUS
        else:
            self._next_player()

    def _next_player(self) -> None:
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

    def _check_objectives(self) -> None:
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
                        yellow = self.round <= game.options.solo_yellow_rounds
                    else:
                        yellow = not self.flipped[j]
                    points = list(sheet.objective_points)
                    points[j] = tables.first_points if yellow else tables.later_points
                    self.sheets[p] = sheet._replace(objective_points=tuple(points))
                    achieved_now[j] = True
        # "la carte est ensuite retournée": after every player has been checked
        self.flipped = tuple(f or a for f, a in zip(self.flipped, achieved_now, strict=True))

    def _observation(self, player: int | None) -> GetOnBoardObservation:
        """Everything on the table: the game hides nothing from any seat (see the module docstring)."""
        names = self.board.names
        return GetOnBoardObservation(
            player=player,
            phase=PHASE_NAMES[self.phase],
            round=self.round,
            to_move=self.current_player,
            controller=self.controller if self.tickets else -1,
            objectives=self.objectives,
            flipped=self.flipped,
            tickets=self.tickets,
            sheet_of=self.sheet_of,
            personal=tuple(self.personal_letters(p) for p in range(len(self.personal))),
            dealt=self.dealt,
            start_of=self.start_of,
            lines=tuple(tuple(names[v] for v in route) for route in self.routes),
            eliminated=tuple(self.eliminated),
            sheets=tuple(self.sheets),
            shape=self.shape.name if self.phase in (P_LAY, P_BONUS) else "",
            step=self.step,
            forced_straight=self.forced_straight,
        )

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
        if s.phase in (P_LAY, P_BONUS):
            s.tickets = (*s.tickets[:-1], ticket)
        else:
            s.tickets = (*s.tickets, ticket)
        s.turn_index = (player - s.controller) % s.num_players
        s._begin_turn(player)
        s.invalidate()
        return s

    def __str__(self) -> str:
        lines = [
            f"Get on Board – {self.board.title}, round {self.round}/{self.game.options.rounds}: {PHASE_NAMES[self.phase]}"
        ]
        if self.ticket:
            lines.append(
                f"  ticket {self.ticket} ({self.tables.colours[self.tables.tickets[self.ticket - 1].colour]})"
            )
        for p in range(len(self.start_of)):
            route = "-".join(self.board.names[i] for i in self.routes[p])
            status = " ELIMINATED" if self.eliminated[p] else ""
            lines.append(f"  {self.player_name(p)}: {self.score(p)} pts{status}  {route}")
        return "\n".join(lines)


_TRANSITIONS: dict[type[Action], Callable[[GetOnBoardState, Any], None]] = {
    Go: GetOnBoardState._go,
    Bonus: GetOnBoardState._bonus,
    EndTurn: GetOnBoardState._end_turn,
    DrawObjective: GetOnBoardState._draw_objective,
    DealSheet: GetOnBoardState._deal_sheet,
    DealPersonal: GetOnBoardState._deal_personal,
    DealStart: GetOnBoardState._deal_start,
    ChooseStart: GetOnBoardState._choose_start,
    RevealTicket: GetOnBoardState._reveal_ticket,
}
"""One transition per action class, found by its type (a ``match`` on nine classes tried them in turn)."""

__all__ = [
    "CATEGORIES",
    "GetOnBoardGame",
    "GetOnBoardObservation",
    "GetOnBoardOptions",
    "GetOnBoardState",
    "ScoreSheet",
    "apply_features",
    "getonboard_tensor_size",
    "score_breakdown",
]
