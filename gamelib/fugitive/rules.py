"""Fugitive: the rules (the state, its legal moves, and each action's transition beside its refusal).

Seed: ``shared/seeds/003_18137b293661fe55.txt`` plus the published facts in the seeds README;
``docs/rules/fugitive.md`` quotes each sentence next to the rule name used in errors here.  The
actions and their notation are in :mod:`gamelib.fugitive.actions`, the seats, phases and rule
options in :mod:`gamelib.fugitive.options`; this module re-exports the names other modules read.

Hands and decks are int bitmasks (bit ``n`` set = card ``n`` present): cloning is a handful of
int copies and legal moves come from a few shifts.  Each rule is stated once, as a small
predicate (:meth:`FugitiveState._within_reach`, :meth:`~FugitiveState._may_pass`,
:meth:`~FugitiveState._may_name`...) that both the legal moves and the refusals ask.

How a finished game ended is ``state.ended_by`` (one of :data:`ENDINGS`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from gamelib.core.errors import IllegalAction
from gamelib.core.game import CHANCE, Action, Game, GameInfo
from gamelib.core.i18n import Wording
from gamelib.core.rulebook import refusal, transition
from gamelib.fugitive.actions import (
    ADDS,
    DEALS,
    DONE,
    DRAWS,
    GUESSES,
    HIDES,
    MANHUNT_CALL,
    MASKS,
    NOTATION,
    PASS,
    REVEAL,
    SPRINTS,
    Add,
    Deal,
    Done,
    Draw,
    Guess,
    Hide,
    Manhunt,
    Pass,
    Reveal,
    Sprint,
    numbers_not_in,
)
from gamelib.fugitive.board import (
    LAST,
    STEP_LIMIT,
    Layout,
    cards_of,
    footprints,
    footprints_of_mask,
    layout_for,
    mask_of,
)
from gamelib.fugitive.options import (
    D_DRAW,
    D_GUESS,
    D_SERIES,
    DEALING,
    DETECTIVE,
    DRAW_PHASES,
    ENDINGS,
    F_DRAW,
    F_PLACE,
    F_SPRINT,
    FUGITIVE,
    HUNTING,
    NAMING_PHASES,
    OVER,
    PHASES,
    PLAYER_NAMES,
    SETUP,
    FugitiveOptions,
)
from gamelib.fugitive.table import FugitiveObservation, FugitiveTable

# what other modules read here: the actions, phases and board names included
__all__ = ["ADDS", "DEALING", "DEALS", "DETECTIVE", "DONE", "DRAWS", "D_DRAW", "D_GUESS", "D_SERIES"]
__all__ += ["ENDINGS", "FUGITIVE", "F_DRAW", "F_PLACE", "F_SPRINT", "GUESSES", "HIDES", "HUNTING", "LAST"]
__all__ += ["MANHUNT_CALL", "NOTATION", "OVER", "PASS", "PHASES", "PLAYER_NAMES", "REVEAL", "SETUP"]
__all__ += ["SPRINTS", "STEP_LIMIT", "Add", "Deal", "Done", "Draw", "FugitiveGame", "FugitiveObservation"]
__all__ += ["FugitiveOptions", "FugitiveState", "Guess", "Hide", "Layout", "Manhunt", "Pass", "Reveal"]
__all__ += ["Sprint", "cards_of", "footprints", "layout_for", "mask_of"]

_WORDS = Wording("gamelib.fugitive")
"""Player names in the language in force (``gamelib.set_language``)."""

_FORMER_NAMES = {"MANHUNT": HUNTING, "DEAL": DEALING}
"""Phase constants renamed so that a name means one thing (``Manhunt``/``MANHUNT_CALL`` are the
action, ``manhunt`` the option; ``Deal``/``DEALS`` the chance outcome): records store numbers, and
code written against the former names (notebooks) still reads them here."""


def __getattr__(name: str) -> int:
    if name in _FORMER_NAMES:
        return _FORMER_NAMES[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_LAYING = frozenset({Hide, Pass})
"""The fugitive's hideout moves: refused alike when it is not his moment to lay one."""
_NAMING = frozenset({Guess, Add, Reveal, Manhunt})
"""The detective's naming moves: refused alike when it is not his moment to name numbers."""


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
        hidden_masks=tuple(MASKS.values()),
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


class FugitiveState(FugitiveTable):
    """A position of Fugitive and its rules: each rule a small predicate the legal moves and the
    refusals both ask, then each action class's ``@transition`` beside its ``@refusal``."""

    game: FugitiveGame

    def __init__(self, game: FugitiveGame, seed: int | None) -> None:
        super().__init__(game, seed, game.layout, game.options)

    # ------------------------------------------------------------------ the rules' predicates
    def _spare_footprints(self, exclude: int) -> int:
        """Footprints of every hand card that could still go under the hideout being laid."""
        return footprints_of_mask(self.fhand & ~(1 << exclude) & ~(1 << self.last))

    def _footprints_needed(self, card: int) -> int:
        """Rule step-limit: the footprints of sprint cards a hideout ``card`` needs under it, one
        per step beyond 3 above the previous hideout (0 or less: a normal move)."""
        return card - self.hideouts[-1] - STEP_LIMIT

    def _within_reach(self, card: int) -> bool:
        """Rule step-limit: the rest of the hand can pay what ``card`` needs (odd cards give 1
        footprint, even cards 2)."""
        need = self._footprints_needed(card)
        return need <= 0 or need <= self._spare_footprints(card)

    def _sprint_floor(self) -> int:
        """Option canonical_order: the sprint cards under one hideout go up, from the last laid."""
        laid = self.sprints[-1]
        return laid[-1] if laid else 0

    def _sprint_leaves_a_way(self, card: int, hand: int) -> bool:
        """Option canonical_order: laying ``card`` leaves enough footprints in the higher cards of
        ``hand`` to pay what the hideout still needs (so the fugitive is never stranded)."""
        still_needed = self.deficit - footprints(card)
        return still_needed <= 0 or footprints_of_mask(hand & -(2 << card)) >= still_needed

    def _may_pass(self) -> bool:
        """Rules first-turn and one-hideout-per-turn: the first turn lays 1 or 2 hideouts (edition
        2: exactly 2), every later turn one or none."""
        if not self.first_turn:
            return self.placed_this_turn == 0
        return self.placed_this_turn >= self.game.options.first_turn_hideouts

    def _unnameable(self) -> int:
        """Rule name-unknown-card: the mask of numbers the detective may not name (option
        ``refuse_known_numbers``: the face-up cards and his own hand; by default none)."""
        return self.face_up | self.dhand if self.refuse_known else 0

    def _nameable(self) -> tuple[int, ...]:
        """Numbers 1..last-1 the detective may name."""
        return numbers_not_in(self._unnameable(), self.last)

    def _may_name(self, n: int) -> bool:
        """Whether the detective may name ``n`` (:meth:`_nameable` lists them all)."""
        return 1 <= n < self.last and not self._unnameable() >> n & 1

    def _series_floor(self) -> int:
        """Option canonical_order: a series names its numbers in increasing order."""
        return self.series[-1] if self.canonical and self.series else 0

    def _can_draw(self) -> bool:
        """Rule draw-empty-deck: a draw happens while some deck still has a card."""
        return any(self.decks)

    # ------------------------------------------------------------------ legal moves
    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase in (SETUP, DEALING):
            return [a for a, _ in self._chance_outcomes()]
        if phase in DRAW_PHASES:
            return [DRAWS[d] for d in range(3) if self.decks[d]]
        if phase == F_PLACE:
            return self._placements()
        if phase == F_SPRINT:
            return self._sprint_moves()
        if phase in NAMING_PHASES:
            return self._namings()
        if phase == D_SERIES:
            return self._series_moves()
        return []

    def _placements(self) -> list[Action]:
        prev = self.hideouts[-1]
        acts: list[Action] = []
        for card in cards_of(self.fhand >> (prev + 1)):  # only cards above the previous hideout
            card += prev + 1
            if self._within_reach(card):
                acts.append(HIDES[card])
        if self._may_pass() or (not acts and self.placed_this_turn > 0):
            # edition 2 wants two first-turn hideouts; if the sprints spent on the first
            # leave no card to reach, the fugitive stops at one (docs: first-turn-stuck)
            acts.append(PASS)
        return acts

    def _sprint_moves(self) -> list[Action]:
        hand = self.fhand & ~(1 << self.last)
        acts: list[Action]
        if self.canonical:
            floor = self._sprint_floor()
            acts = []
            for card in cards_of(hand >> (floor + 1)):
                card += floor + 1
                if self._sprint_leaves_a_way(card, hand):
                    acts.append(SPRINTS[card])
        else:
            acts = [SPRINTS[c] for c in cards_of(hand)]
        if self.deficit <= 0:
            acts.append(DONE)
        return acts

    def _namings(self) -> list[Action]:
        nameable = self._nameable()
        acts: list[Action] = [GUESSES[n] for n in nameable]
        if self.phase == D_GUESS:
            if len(nameable) >= 2:  # a series names two numbers or more
                # in canonical order the first number of a series needs a higher one after it
                acts.extend(ADDS[n] for n in (nameable[:-1] if self.canonical else nameable))
            if self.escape_pending:
                acts.append(MANHUNT_CALL)
        return acts

    def _series_moves(self) -> list[Action]:
        chosen = mask_of(self.series)
        floor = self._series_floor()
        acts: list[Action] = [ADDS[n] for n in self._nameable() if not chosen >> n & 1 and n > floor]
        if len(self.series) >= 2:
            acts.append(REVEAL)
        return acts

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase == SETUP:
            deals = self.layout.setup_deals
            deck = self.decks[deals[len(deals) - self.setup_left]]
        elif self.phase == DEALING:
            deck = self.decks[self.draw_deck]
        else:
            return []
        cards = cards_of(deck)
        p = 1.0 / len(cards)
        return [(DEALS[c], p) for c in cards]

    # ------------------------------------------------------------------ each action: transition, refusal
    def _refuse_now(self, action: Action) -> IllegalAction | None:
        """The moment, before the action's own refusal: a card is due (only ``deal N`` now), or
        it is not the moment of the seat whose kind of action this is (a hideout, a number)."""
        kind = type(action)
        if self.current_player == CHANCE and kind is not Deal:
            name = PHASES.names[self.phase]
            return IllegalAction("chance-node", f"a card must be dealt now ({name}), not {action}", action)
        if kind in _LAYING:
            return self._why_not_lay_now(action)
        if kind in _NAMING:
            return self._why_not_detective_now(action)
        return None

    @transition(Deal)
    def _deal(self, action: Deal) -> None:
        """The chance outcome of the setup or of a draw: the card leaves its deck for a hand."""
        card = action.card
        if self.phase == SETUP:
            deals = self.layout.setup_deals
            self.decks[deals[len(deals) - self.setup_left]] &= ~(1 << card)
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

    @refusal(Deal)
    def _why_not_deal(self, action: Deal) -> IllegalAction:
        if self.current_player != CHANCE:
            return IllegalAction(
                "not-chance", f"no card is being dealt now ({PHASES.names[self.phase]})", action
            )
        return IllegalAction("deal-from-deck", f"card {action.card} is not in the deck being drawn", action)

    @transition(Draw)
    def _draw(self, action: Draw) -> None:
        self.draw_deck = action.deck
        self.draw_for = self.current_player
        self.draw_log.append((self.draw_for, action.deck, len(self.hideouts) - 1))
        self.phase = DEALING

    @refusal(Draw)
    def _why_not_draw(self, action: Draw) -> IllegalAction:
        """A draw refused: not the moment, or an empty deck."""
        phase = self.phase
        if phase in DRAW_PHASES:
            return IllegalAction("draw-empty-deck", f"deck {action.deck + 1} is empty", action)
        name = PHASES.names[phase]
        at_turn_start = phase == D_GUESS or (
            phase == F_PLACE and not self.first_turn and self.placed_this_turn == 0
        )
        if at_turn_start and not self._can_draw():
            return IllegalAction(
                "draw-empty-deck",
                f"all three decks are empty: there is nothing left to draw, so the draw is skipped ({name})",
                action,
            )
        return IllegalAction("turn-order", f"drawing is not allowed now ({name})", action)

    def _why_not_lay_now(self, action: Action) -> IllegalAction | None:
        """Hideouts are laid by the fugitive, after his draw, between two hideouts' sprint cards."""
        phase = self.phase
        if self.current_player != FUGITIVE:
            return IllegalAction(
                "turn-order", f"only the fugitive lays hideouts, now: {PHASES.names[phase]}", action
            )
        if phase == F_DRAW:
            return IllegalAction("draw-first", "the fugitive draws a card before placing", action)
        if phase == F_SPRINT:
            return IllegalAction(
                "finish-sprints", "finish the current hideout with 'sprint N' or 'done' first", action
            )
        return None

    @transition(Hide)
    def _hide(self, action: Hide) -> None:
        card = action.card
        self.deficit = self._footprints_needed(card)  # before the row grows: from the previous hideout
        self.fhand &= ~(1 << card)
        self.hideouts.append(card)
        self.revealed.append(card == self.last)  # laid face up: the fugitive claims escape
        self.sprints.append(())
        self.placed_this_turn += 1
        self.phase = F_SPRINT

    @refusal(Hide)
    def _why_not_hide(self, action: Hide) -> IllegalAction:
        card, prev = action.card, self.hideouts[-1]
        if not self.fhand >> card & 1:
            return IllegalAction("card-in-hand", f"the fugitive does not hold card {card}", action)
        if card <= prev:
            return IllegalAction(
                "increasing-hideouts", f"a hideout must be higher than the previous one ({prev})", action
            )
        return IllegalAction(
            "step-limit",
            f"{card} is {card - prev} above {prev}: {self._footprints_needed(card)} footprint(s) of sprint cards "
            f"are needed, the hand has only {self._spare_footprints(card)}",
            action,
        )

    @transition(Pass)
    def _pass(self, action: Pass) -> None:
        if self.game.options.edition == 2 and not self.first_turn:  # a pass draws from the lowest deck
            lowest = next((d for d in range(3) if self.decks[d]), -1)
            if lowest >= 0:
                self.draw_deck, self.draw_for, self.passed_draw = lowest, FUGITIVE, True
                self.draw_log.append((FUGITIVE, lowest, len(self.hideouts) - 1))
                self.phase = DEALING
                return
        self._end_fugitive_turn()

    @refusal(Pass)
    def _why_not_pass(self, action: Pass) -> IllegalAction:
        if not self.first_turn:
            return IllegalAction("one-hideout-per-turn", "a hideout was already placed this turn", action)
        count = "exactly 2" if self.game.options.first_turn_hideouts == 2 else "1 or 2"
        return IllegalAction("first-turn", f"on the first turn the fugitive places {count} hideouts", action)

    @transition(Sprint)
    def _sprint(self, action: Sprint) -> None:
        card = action.card
        self.fhand &= ~(1 << card)
        self.sprints[-1] = self.sprints[-1] + (card,)
        self.deficit -= footprints(card)

    @refusal(Sprint)
    def _why_not_sprint(self, action: Sprint) -> IllegalAction:
        card = action.card
        if self.phase != F_SPRINT:
            return IllegalAction(
                "sprint-under-new-hideout", "sprint cards go under a hideout being laid", action
            )
        if card == self.last:
            return IllegalAction("escape-card", f"card {self.last} can only be played as a hideout", action)
        if not (self.canonical and self.fhand >> card & 1):
            return IllegalAction("card-in-hand", f"the fugitive does not hold card {card}", action)
        if card < self._sprint_floor():
            why = f"sprint cards go in increasing order: {card} cannot follow {self._sprint_floor()}"
        else:
            why = (
                f"after sprint {card} the higher cards in hand could not pay the "
                f"{self.deficit - footprints(card)} footprint(s) still needed"
            )
        return IllegalAction("canonical-order", f"with canonical_order, {why}", action)

    @transition(Done)
    def _done(self, action: Done) -> None:
        self.deficit = 0
        if self.hideouts[-1] == self.last:
            self._escape()
        elif self.first_turn and self.placed_this_turn < 2:
            self.phase = F_PLACE  # a second first-turn hideout, or pass (edition 1)
        else:
            self._end_fugitive_turn()

    @refusal(Done)
    def _why_not_done(self, action: Done) -> IllegalAction:
        if self.phase != F_SPRINT:
            return IllegalAction(
                "sprint-under-new-hideout", "sprint cards go under a hideout being laid", action
            )
        return IllegalAction(
            "step-limit",
            f"the hideout needs {self.deficit} more footprint(s) of sprint cards (odd cards give 1, even cards 2)",
            action,
        )

    def _why_not_detective_now(self, action: Action) -> IllegalAction | None:
        """The detective names numbers on his turn, once his draws are done."""
        if self.current_player != DETECTIVE:
            return IllegalAction(
                "turn-order", f"it is not the detective's turn ({PHASES.names[self.phase]})", action
            )
        if self.phase == D_DRAW:
            return IllegalAction("draw-first", "the detective draws before guessing", action)
        return None

    def _why_not_this_number(self, action: Guess | Add) -> IllegalAction | None:
        """A number refused for itself: already in the series, or not one the detective may name."""
        n = action.number
        if n in self.series:
            return IllegalAction("series-distinct", f"{n} is already in the series", action)
        if self._may_name(n):
            return None
        if not 1 <= n < self.last:
            why = f"{n} is not a hideout number (1 to {self.last - 1})"
        elif self.dhand >> n & 1:
            why = f"{n} is in the detective's own hand (option refuse_known_numbers)"
        else:
            why = f"{n} already lies face up (option refuse_known_numbers)"
        return IllegalAction("name-unknown-card", why, action)

    @transition(Guess)
    def _guess(self, action: Guess) -> None:
        """One number named: a hit turns that hideout face up; a miss ends the turn (the manhunt)."""
        self.named_log.append((len(self.hideouts) - 1, 1 << action.number, False))
        pos = self._hidden_position_of(action.number)
        if self.phase == HUNTING and pos < 0:
            self._finish(FUGITIVE, "manhunt-miss")  # the first miss ends any manhunt
            return
        if pos >= 0:
            self._turn_face_up(pos)
        if self._detective_caught() or self.phase == HUNTING:
            return
        self._end_detective_turn()

    @refusal(Guess)
    def _why_not_guess(self, action: Guess) -> IllegalAction | None:
        if self.phase == D_SERIES:
            return IllegalAction("series-pending", "finish the series with 'add N' or 'reveal'", action)
        return self._why_not_this_number(action)

    def surely_continues(self, action: Action, through_chance: bool = False) -> bool:
        """Moves that cannot end the game, read from public facts only (face-down count, series,
        escape, round): ``add N`` and a manhunt call leave the detective naming; his draw does too
        once its card is dealt (``through_chance``); a guess or a series turns up at most as many
        hideouts as it names, so while more stay face down his turn ends and the fugitive moves,
        unless that turn was the last (the escape card is down, or the round limit)."""
        kind = type(action)
        if kind is Add or kind is Manhunt:
            return True
        if kind is Draw:
            return through_chance and self.phase == D_DRAW
        if kind is Guess or kind is Reveal:
            if self.phase == HUNTING or self.escape_pending:
                return False
            if self.round + 1 >= self.game.options.max_rounds:
                return False
            named = 1 if kind is Guess else len(self.series)
            return self.revealed.count(False) > named
        return False

    @transition(Add)
    def _add(self, action: Add) -> None:
        self.series = (*self.series, action.number)
        self.phase = D_SERIES

    @refusal(Add)
    def _why_not_add(self, action: Add) -> IllegalAction | None:
        if self.phase == HUNTING:
            return IllegalAction("manhunt", "during a manhunt numbers are named one at a time", action)
        error = self._why_not_this_number(action)
        if error is not None:
            return error
        if self.phase == D_GUESS and len(self._nameable()) < 2:
            return IllegalAction(
                "series-size", "a series names at least two numbers, and only one may be named", action
            )
        if self.canonical:  # the number is nameable: only the order refuses it
            return IllegalAction(
                "canonical-order",
                "with canonical_order, a series names its numbers in increasing order and needs a higher "
                f"number after the first; {action.number} cannot come "
                + (f"after {self.series[-1]}" if self.series else "first"),
                action,
            )
        return None

    @transition(Reveal)
    def _reveal(self, action: Reveal) -> None:
        """The series is checked: every number a face-down hideout, or nothing happens."""
        named = 0
        for number in self.series:
            named |= 1 << number
        self.named_log.append((len(self.hideouts) - 1, named, True))
        positions = []
        for number in self.series:
            position = self._hidden_position_of(number)
            if position < 0:
                break  # one miss and the series reveals nothing: the rest need not be looked up
            positions.append(position)
        else:
            for position in positions:
                self._turn_face_up(position)
        self.series = ()
        if not self._detective_caught():
            self._end_detective_turn()

    @refusal(Reveal)
    def _why_not_reveal(self, action: Reveal) -> IllegalAction:
        return IllegalAction("series-size", "a series names at least two numbers ('add N')", action)

    @transition(Manhunt)
    def _call_manhunt(self, action: Manhunt) -> None:
        self.phase = HUNTING

    @refusal(Manhunt)
    def _why_not_manhunt(self, action: Manhunt) -> IllegalAction:
        if self.phase == HUNTING:
            return IllegalAction("manhunt", "the manhunt is already on: name a number", action)
        if self.phase == D_SERIES:
            return IllegalAction("series-pending", "finish the series with 'add N' or 'reveal'", action)
        immediate = self.game.options.manhunt == "immediate"
        return IllegalAction(
            "manhunt",
            f"a manhunt can only be called once the fugitive has laid card {self.last} and while the highest "
            f"revealed hideout is at most {self.layout.manhunt_threshold}"
            + (" (option manhunt='immediate': it starts by itself)" if immediate else ""),
            action,
        )

    # ------------------------------------------------------------------ what follows a move
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
            self.phase = HUNTING
        else:
            self.escape_pending = True
            self._end_fugitive_turn()

    def _end_fugitive_turn(self) -> None:
        self.placed_this_turn = 0
        self.draws_left = 2 if self.first_turn else 1
        self.first_turn = False
        self._detective_draw_or_guess()

    def _detective_draw_or_guess(self) -> None:
        if self.draws_left > 0 and self._can_draw():
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
        self.phase = F_DRAW if self._can_draw() else F_PLACE

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
