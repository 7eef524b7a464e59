"""Fugitive: the rules engine (state, actions, notation, options).

Seed: ``shared/seeds/003_18137b293661fe55.txt`` plus the published facts in the seeds README;
``docs/rules/fugitive.md`` quotes each sentence next to the rule name used in errors here.

Hands and decks are int bitmasks (bit ``n`` set = card ``n`` present): cloning is a handful of
int copies and legal moves come from a few shifts.  A turn is split into small actions so that
branching stays small and every choice is explicit in the history:

* fugitive: ``draw 1|2|3`` then the chance outcome ``deal N``; ``hide N`` then any number of
  ``sprint S`` and ``done``; or ``pass``;
* detective: ``draw 1|2|3`` (twice on the first turn) then ``deal N``; ``guess N`` or a series
  ``add N`` ... ``reveal``; after the escape card, also ``manhunt``; during a manhunt, ``guess N``
  until a miss.

How a finished game ended is ``state.ended_by`` (one of :data:`ENDINGS`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from gamelib.core.errors import IllegalAction
from gamelib.core.fields import StateFields
from gamelib.core.game import CHANCE, TERMINAL, Action, Game, GameInfo, State
from gamelib.core.i18n import Wording
from gamelib.core.notation import Int, Notation, action_class, spec_of
from gamelib.core.options import Between, check_declared
from gamelib.fugitive.board import (
    LAST,
    MIN_ESCAPE_CARD,
    STEP_LIMIT,
    Layout,
    cards_of,
    footprints,
    footprints_of_mask,
    layout_for,
    mask_of,
)

_WORDS = Wording("gamelib.fugitive")
"""Player names in the language in force (``gamelib.set_language``)."""

FUGITIVE, DETECTIVE = 0, 1
MAX_ROUNDS = 100_000
"""The largest ``max_rounds``: far beyond any real game, and small enough that
``max_game_length`` stays a 32-bit int (OpenSpiel's bound, so both libraries take the same values)."""
PLAYER_NAMES = ("fugitive", "detective")
N = TypeVar("N", bound=Action)


def _last(game: FugitiveGame) -> int:
    return game.layout.last


def _below_last(game: FugitiveGame) -> int:
    return game.layout.last - 1


# ---------------------------------------------------------------------------- actions
@action_class("draw", Int("deck", 1, 3, shift=1))
class Draw(Action):
    """Choose a deck (0-based inside, 1-3 in notation) to draw from."""

    deck: int


@action_class("deal", Int("card", 4, _below_last, limit=LAST - 1))
class Deal(Action):
    """Chance outcome: the card that comes off the chosen deck."""

    card: int


@action_class("hide", Int("card", 1, _last, limit=LAST))
class Hide(Action):
    """The fugitive lays ``card`` face down as the next hideout."""

    card: int


@action_class("sprint", Int("card", 1, _last, limit=LAST))
class Sprint(Action):
    """The fugitive slips ``card`` under the new hideout as a sprint card (never the escape card:
    ``sprint 42`` reads, and the rules say why it is refused)."""

    card: int


@action_class("done")
class Done(Action):
    """The fugitive has laid all the sprint cards for this hideout."""


@action_class("pass")
class Pass(Action):
    """The fugitive lays no (more) hideout this turn."""


@action_class("guess", Int("number", 1, _below_last, what="number named", limit=LAST - 1))
class Guess(Action):
    """The detective names one number (single guess, or one step of a manhunt)."""

    number: int


@action_class("add", Int("number", 1, _below_last, what="number named", limit=LAST - 1))
class Add(Action):
    """The detective adds a number to a series guess."""

    number: int


@action_class("reveal")
class Reveal(Action):
    """The detective checks the series: all numbers hit, or nothing happens."""


@action_class("manhunt")
class Manhunt(Action):
    """The detective launches the manhunt (after the escape card, option ``manhunt="choice"``)."""


NOTATION = Notation(Draw, Deal, Hide, Sprint, Done, Pass, Guess, Add, Reveal, Manhunt)
"""Fugitive's actions in universe order: an action's index is its integer id (``manhunt``, added
with rules version 2, comes last so the older ids keep their meaning)."""


def _by_number(cls: type[N]) -> tuple[N, ...]:
    """The interned actions of ``cls`` at the index of their number (card or number named): the
    slots below the lowest number hold ``None`` and are never read."""
    actions = NOTATION.every(cls)
    lowest: int = getattr(actions[0], spec_of(cls).args[0].field)
    padded: tuple[Any, ...] = (None,) * lowest + actions
    return padded


# Actions are interned: legal_actions returns shared objects, so membership tests hit identity.
DRAWS: tuple[Draw, ...] = NOTATION.every(Draw)
DEALS = _by_number(Deal)
HIDES = _by_number(Hide)
SPRINTS = _by_number(Sprint)
GUESSES = _by_number(Guess)
ADDS = _by_number(Add)
DONE: Done = NOTATION.make(Done)
PASS: Pass = NOTATION.make(Pass)
REVEAL: Reveal = NOTATION.make(Reveal)
MANHUNT_CALL: Manhunt = NOTATION.make(Manhunt)


@functools.lru_cache(maxsize=8192)
def _nameable(blocked: int, last: int = LAST) -> list[int]:
    """Numbers 1..last-1 not in ``blocked`` (cached: the mask changes only a few times a game)."""
    return [n for n in range(1, last) if not blocked >> n & 1]


# ---------------------------------------------------------------------------- phases
SETUP = 0  # chance: deal the fugitive's starting cards
F_DRAW = 1  # fugitive chooses a deck
F_PLACE = 2  # fugitive: hide N or pass
F_SPRINT = 3  # fugitive: sprint S or done
D_DRAW = 4  # detective chooses a deck
D_GUESS = 5  # detective: guess N, or add N to start a series
D_SERIES = 6  # detective: add N or reveal
MANHUNT = 7  # detective: guess N until a miss
DEAL = 8  # chance: the card drawn from ``draw_deck``
OVER = 9

ENDINGS = {
    "escape": "the fugitive laid the escape card and no manhunt followed",
    "manhunt-miss": "the detective missed during the manhunt: the fugitive escapes",
    "caught": "every hideout was found: the detective wins",
    "max_rounds": "unfinished: the engine's round limit (option max_rounds) stopped the game before a rule ended it",
}
"""The values of ``state.ended_by`` once the game is over, and what each means."""

_PHASE_PLAYER = (
    CHANCE,
    FUGITIVE,
    FUGITIVE,
    FUGITIVE,
    DETECTIVE,
    DETECTIVE,
    DETECTIVE,
    DETECTIVE,
    CHANCE,
    TERMINAL,
)

PHASE_NAMES = {
    SETUP: "setup deal",
    F_DRAW: "fugitive draws",
    F_PLACE: "fugitive places a hideout",
    F_SPRINT: "fugitive lays sprint cards",
    D_DRAW: "detective draws",
    D_GUESS: "detective guesses",
    D_SERIES: "detective builds a series",
    MANHUNT: "manhunt",
    DEAL: "card dealt",
    OVER: "game over",
}


@dataclass(frozen=True)
class FugitiveOptions:
    """Rule options (see docs/rules/fugitive.md)."""

    edition: Literal[1, 2] = 1
    """1: first turn 1 or 2 hideouts.  2: first turn exactly 2; a pass draws an extra card."""
    max_rounds: Annotated[int, Between(1, MAX_ROUNDS)] = 100
    """Engine safety limit (not a rule): after this many detective turns the game stops unfinished
    (returns 0 for both; tournaments report it apart, never as a draw)."""
    escape_card: Annotated[int, Between(MIN_ESCAPE_CARD, LAST)] = LAST
    """The highest card (42 published).  Smaller decks (7..41) are for solvers and classrooms."""
    canonical_order: bool = False
    """Series numbers and the sprint cards under one hideout in increasing order (solvers)."""
    manhunt: Literal["choice", "immediate"] = "choice"
    """After the escape card (highest revealed at or below the threshold): ``"choice"`` (the
    text): the detective draws, then guesses, names a series or calls ``manhunt``, and the fugitive
    escapes when that turn ends; ``"immediate"`` (rules version 1): the manhunt starts at once."""
    refuse_known_numbers: bool = False
    """True: the detective may not name a number he holds or sees face up (a certain miss); for
    agents and solvers.  False (the text, « un chiffre entre 1 et 41 »): any number 1..last-1."""
    escape_sprints: Literal["shown", "hidden"] = "shown"
    """The sprint cards under the escape card, which is laid face up: ``"shown"`` (default: like the
    sprint cards of every face-up hideout, « elles sont aussi révélées ») or ``"hidden"`` (the
    peer engine's reading: face down until the end; the exact belief does not model it yet)."""

    def __post_init__(self) -> None:
        check_declared(self)  # options built by hand are held to the declarations above


class FugitiveGame(Game):
    """Fugitive for 2: player 0 is the fugitive, player 1 the detective."""

    info: ClassVar[GameInfo] = GameInfo(
        name="fugitive",
        title="Fugitive",
        min_players=2,
        max_players=2,
        default_players=2,
        min_return=-1.0,
        max_return=1.0,
        perfect_information=False,
        has_chance=True,
        utility="zero_sum",
        description="Asymmetric bluff and deduction: hideouts 0 to 42 against a detective's guesses.",
        capabilities=frozenset({"observation_tensor", "belief"}),
        hidden_masks=("deal ?", "hide ?", "sprint ?"),
    )
    Options: ClassVar[type] = FugitiveOptions
    options: FugitiveOptions
    version: ClassVar[str] = "2"
    """2: the defaults follow the text (the manhunt a choice on the detective's turn, any number
    may be named).  Records of version 1 replay with the version-1 readings below."""
    legacy_defaults: ClassVar[dict[str, dict[str, Any]]] = {
        "1": {"manhunt": "immediate", "refuse_known_numbers": True},
    }
    drawing: ClassVar[str] = "gamelib.fugitive.draw:draw_state"
    encoder: ClassVar[str] = "gamelib.fugitive.encoding:observation_tensor"
    determinizer: ClassVar[str] = "gamelib.fugitive.belief:determinize"

    layout: Layout
    """The card numbers of this configuration (``layout_for(options.escape_card)``)."""

    def _setup(self) -> None:
        self.layout = layout_for(self.options.escape_card)

    @property
    def max_game_length(self) -> int:
        # per round: 2 fugitive draw actions, hide+done (+pass deal), 4 detective draw actions,
        # a guess or a series of at most 41 numbers + reveal; every sprint card is laid once;
        # the setup deal, the detective's turn after the escape card (draws, a series or the
        # manhunt call) and a manhunt of at most 41 guesses.
        last = self.layout.last
        per_round = 2 + 2 + 2 + 4 + last
        escape_turn = 4 + last + 1
        return (
            len(self.layout.setup_deals) + self.options.max_rounds * per_round + 2 * last + last + escape_turn
        )

    def new_game(self, seed: int | None = None) -> FugitiveState:
        return FugitiveState(self, seed)

    def action_universe(self) -> tuple[Action, ...]:
        # "sprint <escape card>" reads (the rules then say why it is refused) but is never legal
        never = SPRINTS[self.layout.last]
        return tuple(a for a in NOTATION.universe(self) if a is not never)

    def player_name(self, player: int) -> str:
        """``fugitive`` / ``detective`` (``fugitif`` / ``détective`` in French)."""
        return _WORDS(f"seat_{PLAYER_NAMES[player]}")

    def parse_action(self, text: str) -> Action:
        return NOTATION.parse(text, self)


class FugitiveState(State):
    """A position of Fugitive.  See the module docstring for the turn structure."""

    game: FugitiveGame
    fields = StateFields(
        key="phase setup_left fhand dhand decks hideouts revealed sprints first_turn placed_this_turn"
        " deficit draw_deck draw_for draws_left series round winner ended_by escape_pending passed_draw"
        " draw_log",
        private="fhand dhand decks hideouts sprints",
        config="layout last canonical refuse_known hide_escape_sprints",
        derived="face_up",
        lists="decks hideouts revealed sprints draw_log",
    )

    def __init__(self, game: FugitiveGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.layout = layout = game.layout
        self.last = layout.last  # the escape card, read on hot paths
        options = game.options
        self.canonical = options.canonical_order
        self.refuse_known = options.refuse_known_numbers
        self.hide_escape_sprints = options.escape_sprints == "hidden"
        self.setup_left = len(layout.setup_deals)
        self.phase = SETUP if self.setup_left else F_PLACE
        self.fhand = mask_of(layout.start_hand)
        self.dhand = 0
        self.decks = list(layout.deck_masks)
        self.hideouts: list[int] = [0]
        self.revealed: list[bool] = [True]
        self.sprints: list[tuple[int, ...]] = [()]
        self.first_turn = True  # the fugitive's first turn (then the detective's)
        self.placed_this_turn = 0
        self.deficit = 0  # footprints still needed under the hideout being laid
        self.draw_deck = -1  # deck chosen, waiting for the chance outcome
        self.draw_for = FUGITIVE
        self.draws_left = 0  # detective draws left this turn
        self.series: tuple[int, ...] = ()
        self.round = 0  # detective turns completed
        self.winner = -1  # FUGITIVE, DETECTIVE, or -1 (none yet / draw)
        self.ended_by: str | None = None  # how the game ended: a key of ENDINGS (None while playing)
        self.escape_pending = False  # option manhunt="choice": the detective's turn after the escape card
        self.passed_draw = False  # edition 2: the deal after a pass
        # Public draw log: (player, deck, hideouts on the table at that moment).
        self.draw_log: list[tuple[int, int, int]] = []
        self.face_up = 1  # derived: mask of face-up cards (card 0 to start), kept in step with reveals

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        return _PHASE_PLAYER[self.phase]

    @property
    def previous_hideout(self) -> int:
        return self.hideouts[-1]

    @property
    def fugitive_hand(self) -> list[int]:
        return cards_of(self.fhand)

    @property
    def detective_hand(self) -> list[int]:
        return cards_of(self.dhand)

    @property
    def deck_sizes(self) -> tuple[int, int, int]:
        d = self.decks
        return (d[0].bit_count(), d[1].bit_count(), d[2].bit_count())

    def hidden_positions(self) -> list[int]:
        """Positions (1 = first hideout after card 0) still face down."""
        return [i for i, r in enumerate(self.revealed) if not r]

    def highest_revealed(self) -> int:
        """The highest hideout the detective has turned face up (the escape card, laid face up, aside)."""
        last = self.last
        return max(h for h, r in zip(self.hideouts, self.revealed, strict=True) if r and h != last)

    def face_up_mask(self) -> int:
        """Cards lying face up on the table: revealed hideouts and their sprint cards."""
        return self.face_up

    def _derive(self) -> None:
        """The derived field, recomputed after editing a state by hand (core ``invalidate()``)."""
        self.face_up = self._scan_face_up()

    def _scan_face_up(self) -> int:
        m = 0
        for h, r, s in zip(self.hideouts, self.revealed, self.sprints, strict=True):
            if r:
                m |= 1 << h
                if h == self.last and self.hide_escape_sprints:
                    continue  # laid face up, but never found: its sprint cards stay face down
                for c in s:
                    m |= 1 << c
        return m

    def sprints_shown(self, position: int) -> bool:
        """Whether the detective sees the sprint cards under ``position`` (its hideout is face up,
        and it is not the escape card under option ``escape_sprints="hidden"``)."""
        if not self.revealed[position]:
            return False
        return not (self.hide_escape_sprints and self.hideouts[position] == self.last and position > 0)

    def _spare_footprints(self, exclude: int) -> int:
        """Footprints of every hand card that could still go under the hideout being laid."""
        return footprints_of_mask(self.fhand & ~(1 << exclude) & ~(1 << self.last))

    # ------------------------------------------------------------------ legal moves
    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase in (SETUP, DEAL):
            return [a for a, _ in self._chance_outcomes()]
        if phase in (F_DRAW, D_DRAW):
            return [DRAWS[d] for d in range(3) if self.decks[d]]
        if phase == F_PLACE:
            prev = self.hideouts[-1]
            acts: list[Action] = []
            # only cards above the previous hideout; the limit can be raised by sprint cards
            for card in cards_of(self.fhand >> (prev + 1)):
                card += prev + 1
                need = card - prev - STEP_LIMIT
                if need <= 0 or need <= self._spare_footprints(card):
                    acts.append(HIDES[card])
            if self._may_pass() or (not acts and self.placed_this_turn > 0):
                # edition 2 wants two first-turn hideouts; if the sprints spent on the first
                # leave no card to reach, the fugitive stops at one (docs: first-turn-stuck)
                acts.append(PASS)
            return acts
        if phase == F_SPRINT:
            hand = self.fhand & ~(1 << self.last)
            if self.canonical:
                return self._canonical_sprints(hand)
            acts = [SPRINTS[c] for c in cards_of(hand)]
            if self.deficit <= 0:
                acts.append(DONE)
            return acts
        if phase in (D_GUESS, MANHUNT):
            nameable = self._nameable()
            guesses: list[Action] = [GUESSES[n] for n in nameable]
            if phase == D_GUESS and len(nameable) >= 2:  # a series names two numbers or more
                # in canonical order the first number of a series needs a higher one after it
                guesses.extend(ADDS[n] for n in (nameable[:-1] if self.canonical else nameable))
            if phase == D_GUESS and self.escape_pending:
                guesses.append(MANHUNT_CALL)
            return guesses
        if phase == D_SERIES:
            chosen = mask_of(self.series)
            floor = self.series[-1] if self.canonical else 0
            acts = [ADDS[n] for n in self._nameable() if not chosen >> n & 1 and n > floor]
            if len(self.series) >= 2:
                acts.append(REVEAL)
            return acts
        return []

    def _canonical_sprints(self, hand: int) -> list[Action]:
        """Sprint cards above the last one laid under this hideout, never into a dead end.

        Each sprint card must leave enough footprints in the higher cards still in hand to pay what
        the hideout still needs; otherwise laying it would strand the fugitive with no legal move.
        """
        laid = self.sprints[-1]
        floor = laid[-1] if laid else 0
        acts: list[Action] = []
        for card in cards_of(hand >> (floor + 1)):
            card += floor + 1
            still_needed = self.deficit - footprints(card)
            if still_needed <= 0 or footprints_of_mask(hand & -(2 << card)) >= still_needed:
                acts.append(SPRINTS[card])
        if self.deficit <= 0:
            acts.append(DONE)
        return acts

    def _may_pass(self) -> bool:
        if not self.first_turn:
            return self.placed_this_turn == 0
        needed = 2 if self.game.options.edition == 2 else 1
        return self.placed_this_turn >= needed

    def _nameable(self) -> list[int]:
        """Numbers 1..last-1 the detective may name (option ``refuse_known_numbers``: not face up,
        not in the detective's own hand)."""
        return _nameable(self.face_up | self.dhand if self.refuse_known else 0, self.last)

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase == SETUP:
            deals = self.layout.setup_deals
            deck = self.decks[deals[len(deals) - self.setup_left]]
        elif self.phase == DEAL:
            deck = self.decks[self.draw_deck]
        else:
            return []
        cards = cards_of(deck)
        p = 1.0 / len(cards)
        return [(DEALS[c], p) for c in cards]

    # ------------------------------------------------------------------ errors
    def _explain_illegal(self, action: Action) -> IllegalAction:
        phase, who = self.phase, self.current_player
        name = PHASE_NAMES[phase]
        if who == CHANCE and not isinstance(action, Deal):
            return IllegalAction("chance-node", f"a card must be dealt now ({name}), not {action}", action)
        if isinstance(action, Deal):
            if who != CHANCE:
                return IllegalAction("not-chance", f"no card is being dealt now ({name})", action)
            return IllegalAction(
                "deal-from-deck", f"card {action.card} is not in the deck being drawn", action
            )
        if isinstance(action, Draw):
            return self._why_not_draw(action, name)
        if isinstance(action, (Hide, Pass)):
            return self._why_not_lay(action, name)
        if isinstance(action, (Sprint, Done)):
            return self._why_not_sprint(action)
        if isinstance(action, (Guess, Add, Reveal, Manhunt)):
            return self._why_not_name(action, name)
        return IllegalAction("not-legal", f"{action} is not legal now ({name})", action)

    def _why_not_draw(self, action: Draw, name: str) -> IllegalAction:
        """A draw refused: not the moment, or an empty deck."""
        phase = self.phase
        if phase not in (F_DRAW, D_DRAW):
            at_turn_start = phase == D_GUESS or (
                phase == F_PLACE and not self.first_turn and self.placed_this_turn == 0
            )
            if at_turn_start and not any(self.decks):
                return IllegalAction(
                    "draw-empty-deck",
                    f"all three decks are empty: there is nothing left to draw, so the draw is "
                    f"skipped ({name})",
                    action,
                )
            return IllegalAction("turn-order", f"drawing is not allowed now ({name})", action)
        return IllegalAction("draw-empty-deck", f"deck {action.deck + 1} is empty", action)

    def _why_not_lay(self, action: Hide | Pass, name: str) -> IllegalAction:
        """A hideout or a pass refused: not the fugitive's moment, the first-turn count, or the card."""
        phase, who = self.phase, self.current_player
        if who != FUGITIVE:
            return IllegalAction("turn-order", f"only the fugitive lays hideouts, now: {name}", action)
        if phase == F_DRAW:
            return IllegalAction("draw-first", "the fugitive draws a card before placing", action)
        if phase == F_SPRINT:
            return IllegalAction(
                "finish-sprints", "finish the current hideout with 'sprint N' or 'done' first", action
            )
        if isinstance(action, Pass):
            if self.first_turn:
                needed = 2 if self.game.options.edition == 2 else 1
                return IllegalAction(
                    "first-turn",
                    f"on the first turn the fugitive places {'exactly 2' if needed == 2 else '1 or 2'} "
                    "hideouts",
                    action,
                )
            return IllegalAction("one-hideout-per-turn", "a hideout was already placed this turn", action)
        return self._explain_hide(action.card)

    def _why_not_sprint(self, action: Sprint | Done) -> IllegalAction:
        """A sprint card or ``done`` refused: no hideout being laid, footprints missing, or the card."""
        phase = self.phase
        if phase != F_SPRINT:
            return IllegalAction(
                "sprint-under-new-hideout", "sprint cards go under a hideout being laid", action
            )
        if isinstance(action, Done):
            return IllegalAction(
                "step-limit",
                f"the hideout needs {self.deficit} more footprint(s) of sprint cards "
                "(odd cards give 1, even cards 2)",
                action,
            )
        if action.card == self.last:
            return IllegalAction("escape-card", f"card {self.last} can only be played as a hideout", action)
        if self.canonical and self.fhand >> action.card & 1:
            return self._explain_canonical_sprint(action.card)
        return IllegalAction("card-in-hand", f"the fugitive does not hold card {action.card}", action)

    def _why_not_name(self, action: Guess | Add | Reveal | Manhunt, name: str) -> IllegalAction:
        """A detective's move refused: not his moment, the series or manhunt rules, or the number."""
        phase, who = self.phase, self.current_player
        if who != DETECTIVE:
            return IllegalAction("turn-order", f"it is not the detective's turn ({name})", action)
        if phase == D_DRAW:
            return IllegalAction("draw-first", "the detective draws before guessing", action)
        if isinstance(action, Reveal):
            return IllegalAction("series-size", "a series names at least two numbers ('add N')", action)
        if isinstance(action, Manhunt):
            if phase == MANHUNT:
                return IllegalAction("manhunt", "the manhunt is already on: name a number", action)
            if phase == D_SERIES:
                return IllegalAction("series-pending", "finish the series with 'add N' or 'reveal'", action)
            return IllegalAction(
                "manhunt",
                f"a manhunt can only be called once the fugitive has laid card {self.last} and "
                f"while the highest revealed hideout is at most {self.layout.manhunt_threshold}"
                + (
                    " (option manhunt='immediate': it starts by itself)"
                    if self.game.options.manhunt == "immediate"
                    else ""
                ),
                action,
            )
        if phase == MANHUNT and isinstance(action, Add):
            return IllegalAction("manhunt", "during a manhunt numbers are named one at a time", action)
        if phase == D_SERIES and isinstance(action, Guess):
            return IllegalAction("series-pending", "finish the series with 'add N' or 'reveal'", action)
        n = action.number
        if n in self.series:
            return IllegalAction("series-distinct", f"{n} is already in the series", action)
        if self.canonical and isinstance(action, Add) and 1 <= n < self.last:
            blocked = self.face_up | self.dhand
            if not blocked >> n & 1:
                return IllegalAction(
                    "canonical-order",
                    f"with canonical_order, a series names its numbers in increasing order and "
                    f"needs a higher number after the first; {n} cannot come "
                    + (f"after {self.series[-1]}" if self.series else "first"),
                    action,
                )
        if not 1 <= n < self.last:
            return IllegalAction(
                "name-unknown-card", f"{n} is not a hideout number (1 to {self.last - 1})", action
            )
        if self.dhand >> n & 1:
            return IllegalAction(
                "name-unknown-card",
                f"{n} is in the detective's own hand (option refuse_known_numbers)",
                action,
            )
        return IllegalAction(
            "name-unknown-card", f"{n} already lies face up (option refuse_known_numbers)", action
        )

    def _explain_canonical_sprint(self, card: int) -> IllegalAction:
        laid = self.sprints[-1]
        if laid and card < laid[-1]:
            why = f"sprint cards go in increasing order: {card} cannot follow {laid[-1]}"
        else:
            why = (
                f"after sprint {card} the higher cards in hand could not pay the "
                f"{self.deficit - footprints(card)} footprint(s) still needed"
            )
        return IllegalAction("canonical-order", f"with canonical_order, {why}", SPRINTS[card])

    def _explain_hide(self, card: int) -> IllegalAction:
        action = HIDES[card]
        prev = self.hideouts[-1]
        if not self.fhand >> card & 1:
            return IllegalAction("card-in-hand", f"the fugitive does not hold card {card}", action)
        if card <= prev:
            return IllegalAction(
                "increasing-hideouts", f"a hideout must be higher than the previous one ({prev})", action
            )
        need = card - prev - STEP_LIMIT
        return IllegalAction(
            "step-limit",
            f"{card} is {card - prev} above {prev}: {need} footprint(s) of sprint cards are needed, "
            f"the hand has only {self._spare_footprints(card)}",
            action,
        )

    # ------------------------------------------------------------------ transitions
    def _apply(self, action: Action) -> None:
        if isinstance(action, Deal):  # the chance outcome of the setup or of a draw
            card = action.card
            if self.phase == SETUP:
                deals = self.layout.setup_deals
                deck = deals[len(deals) - self.setup_left]
                self.decks[deck] &= ~(1 << card)
                self.fhand |= 1 << card
                self.setup_left -= 1
                if self.setup_left == 0:
                    self.phase = F_PLACE  # first turn: the fugitive draws nothing
                return
            self.decks[self.draw_deck] &= ~(1 << card)
            if self.draw_for == FUGITIVE:
                self.fhand |= 1 << card
                if self.passed_draw:
                    self.passed_draw = False
                    self._end_fugitive_turn()
                else:
                    self.phase = F_PLACE
            else:
                self.dhand |= 1 << card
                self.draws_left -= 1
                self._detective_draw_or_guess()
        elif isinstance(action, Draw):
            deck = action.deck
            self.draw_deck = deck
            self.draw_for = self.current_player
            self.draw_log.append((self.draw_for, deck, len(self.hideouts) - 1))
            self.phase = DEAL
        elif isinstance(action, Hide):
            card = action.card
            prev = self.hideouts[-1]
            self.fhand &= ~(1 << card)
            self.hideouts.append(card)
            self.revealed.append(card == self.last)  # laid face up: the fugitive claims escape
            self.sprints.append(())
            self.deficit = card - prev - STEP_LIMIT
            self.placed_this_turn += 1
            self.phase = F_SPRINT
        elif isinstance(action, Sprint):
            card = action.card
            self.fhand &= ~(1 << card)
            self.sprints[-1] = self.sprints[-1] + (card,)
            self.deficit -= footprints(card)
        elif isinstance(action, Done):
            self.deficit = 0
            if self.hideouts[-1] == self.last:
                self._escape()
            elif self.first_turn and self.placed_this_turn < 2:
                self.phase = F_PLACE  # a second first-turn hideout, or pass (edition 1)
            else:
                self._end_fugitive_turn()
        elif isinstance(action, Pass):
            if self.game.options.edition == 2 and not self.first_turn:
                lowest = next((d for d in range(3) if self.decks[d]), -1)
                if lowest >= 0:
                    self.draw_deck, self.draw_for, self.passed_draw = lowest, FUGITIVE, True
                    self.draw_log.append((FUGITIVE, lowest, len(self.hideouts) - 1))
                    self.phase = DEAL
                    return
            self._end_fugitive_turn()
        elif isinstance(action, Guess):
            number = action.number
            self._guess(number)
        elif isinstance(action, Manhunt):
            self.phase = MANHUNT
        elif isinstance(action, Add):
            number = action.number
            self.series = (*self.series, number)
            self.phase = D_SERIES
        elif isinstance(action, Reveal):
            positions = [self._hidden_position_of(n) for n in self.series]
            if all(p >= 0 for p in positions):
                for p in positions:
                    self._turn_face_up(p)
            self.series = ()
            if not self._detective_caught():
                self._end_detective_turn()

    def _turn_face_up(self, position: int) -> None:
        """Reveal the hideout at ``position`` and the sprint cards under it (see :meth:`sprints_shown`)."""
        self.revealed[position] = True
        self.face_up |= 1 << self.hideouts[position]
        if self.sprints_shown(position):
            for card in self.sprints[position]:
                self.face_up |= 1 << card

    def _hidden_position_of(self, number: int) -> int:
        for i in range(len(self.hideouts) - 1, 0, -1):
            if self.hideouts[i] == number:
                return -1 if self.revealed[i] else i
        return -1

    def _guess(self, number: int) -> None:
        pos = self._hidden_position_of(number)
        if self.phase == MANHUNT and pos < 0:
            self._finish(FUGITIVE, "manhunt-miss")  # the first miss ends any manhunt
            return
        if pos >= 0:
            self._turn_face_up(pos)
        if self._detective_caught() or self.phase == MANHUNT:
            return
        self._end_detective_turn()

    def _detective_caught(self) -> bool:
        if all(self.revealed):
            self._finish(DETECTIVE, "caught")
            return True
        return False

    def _escape(self) -> None:
        """The escape card is down (laid face up: the fugitive announces it).

        The fugitive escapes at once if the detective is ahead (highest revealed above the
        threshold); the detective wins at once if no hideout is face down; otherwise a manhunt
        is due: at once (option ``manhunt="immediate"``) or as a choice on the detective's turn.
        """
        position = len(self.hideouts) - 1
        self._turn_face_up(position)
        if self.highest_revealed() > self.layout.manhunt_threshold:
            self._finish(FUGITIVE, "escape")
        elif self._detective_caught():
            pass  # nothing left face down: every hideout has been found
        elif self.game.options.manhunt == "immediate":
            self.phase = MANHUNT
        else:
            self.escape_pending = True
            self._end_fugitive_turn()

    def _end_fugitive_turn(self) -> None:
        self.placed_this_turn = 0
        self.draws_left = 2 if self.first_turn else 1
        self.first_turn = False
        self._detective_draw_or_guess()

    def _detective_draw_or_guess(self) -> None:
        if self.draws_left > 0 and any(self.decks):
            self.phase = D_DRAW
        else:
            self.draws_left = 0
            self.phase = D_GUESS

    def _end_detective_turn(self) -> None:
        self.round += 1
        if self.escape_pending:
            self._finish(FUGITIVE, "escape")  # the detective's last turn ended without a manhunt
            return
        if self.round >= self.game.options.max_rounds:
            self._finish(-1, "max_rounds")
            return
        self.phase = F_DRAW if any(self.decks) else F_PLACE

    def _finish(self, winner: int, ended_by: str) -> None:
        self.winner = winner
        self.ended_by = ended_by
        self.escape_pending = False
        self.phase = OVER

    # ------------------------------------------------------------------ results
    def returns(self) -> list[float]:
        if self.winner == FUGITIVE:
            return [1.0, -1.0]
        if self.winner == DETECTIVE:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    # ------------------------------------------------------------------ hidden information
    def _observation(self, player: int | None) -> FugitiveObservation:
        """What ``player`` sees at the table now (``None`` for the omniscient view).

        The history as the seat saw it is core's ``public_history(player)`` (see
        :meth:`_hidden_steps`); ``information_state(player)`` pairs the two.
        """
        see_all = player in (FUGITIVE, None)
        hideouts = tuple(
            (h if (r or see_all) else None, len(s), s if (see_all or self.sprints_shown(i)) else None)
            for i, (h, r, s) in enumerate(zip(self.hideouts, self.revealed, self.sprints, strict=True))
        )
        return FugitiveObservation(
            player=player,
            phase=self.phase,
            current_player=self.current_player,
            hideouts=hideouts,
            revealed=tuple(self.revealed),
            fugitive_hand=tuple(self.fugitive_hand) if see_all else None,
            fugitive_hand_size=self.fhand.bit_count(),
            detective_hand=tuple(self.detective_hand) if player in (DETECTIVE, None) else None,
            detective_hand_size=self.dhand.bit_count(),
            deck_sizes=self.deck_sizes,
            draw_log=tuple(self.draw_log),
            series=self.series,
            first_turn=self.first_turn,
            round=self.round,
            winner=self.winner,
            escape_pending=self.escape_pending,
        )

    def _hidden_steps(self, player: int) -> dict[int, str]:
        """The steps ``player`` did not see: the other side's ``deal N`` (``deal ?``), and for the
        detective every ``hide N`` but the escape card (``hide ?``) and every ``sprint S`` (``sprint ?``)."""
        hidden: dict[int, str] = {}
        draws = 0  # deals after the setup answer the draw log's entries, in order
        setup = len(self.layout.setup_deals)
        for index, action in enumerate(self.history):
            if isinstance(action, Deal):
                if index < setup:
                    receiver = FUGITIVE
                else:
                    receiver = self.draw_log[draws][0]
                    draws += 1
                if receiver != player:
                    hidden[index] = "deal ?"
            elif player == DETECTIVE and isinstance(action, Hide) and action.card != self.last:
                hidden[index] = "hide ?"
            elif player == DETECTIVE and isinstance(action, Sprint):
                hidden[index] = "sprint ?"
        return hidden

    def __str__(self) -> str:
        def show(i: int) -> str:
            h, s = self.hideouts[i], self.sprints[i]
            text = f"{h}" if self.revealed[i] else f"[{h}]"
            return text + (f"+{','.join(map(str, s))}" if s else "")

        row = " ".join(show(i) for i in range(len(self.hideouts)))
        status = PHASE_NAMES[self.phase]
        if self.phase == OVER:
            status += f": {('draw (round limit)', PLAYER_NAMES[0] + ' wins', PLAYER_NAMES[1] + ' wins')[self.winner + 1]}"
        return (
            f"Fugitive round {self.round}, {status}\n"
            f"  hideouts ([n] = face down): {row}\n"
            f"  fugitive hand: {' '.join(map(str, self.fugitive_hand))}\n"
            f"  detective hand: {' '.join(map(str, self.detective_hand))}\n"
            f"  decks: {'/'.join(map(str, self.deck_sizes))}"
            + (f"\n  series: {' '.join(map(str, self.series))}" if self.series else "")
        )


@dataclass(frozen=True)
class FugitiveObservation:
    """One player's view of the table.  Hidden values are ``None``.

    ``hideouts`` holds, in table order starting with card 0, ``(value, sprint_count, sprint_cards)``.
    ``draw_log`` holds ``(player, deck, hideouts_on_table)`` for every draw, in order: which deck
    each side drew from, and when.
    """

    player: int | None
    phase: int
    current_player: int
    hideouts: tuple[tuple[int | None, int, tuple[int, ...] | None], ...]
    revealed: tuple[bool, ...]
    fugitive_hand: tuple[int, ...] | None
    fugitive_hand_size: int
    detective_hand: tuple[int, ...] | None
    detective_hand_size: int
    deck_sizes: tuple[int, int, int]
    draw_log: tuple[tuple[int, int, int], ...]
    series: tuple[int, ...]
    first_turn: bool
    round: int
    winner: int
    escape_pending: bool = False
    """The escape card is down and this is the detective's last turn (he may call ``manhunt``)."""
