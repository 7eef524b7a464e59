"""Fugitive's table: the state's fields, declared once, its queries, and what each seat sees of it.

:class:`FugitiveTable` is the part of :class:`~gamelib.fugitive.rules.FugitiveState` that holds the
position and reads it: the fields (hands and decks as int bitmasks, bit ``n`` set = card ``n``
present), the queries tools and agents ask (hands, deck sizes, face-down positions), a seat's
observation (derived from :class:`FugitiveObservation`'s declared fields) and the history steps it
did not see.  The rules (legal moves, each action's transition and refusal) are in
:mod:`gamelib.fugitive.rules`; nothing here changes the position.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from gamelib.core.fields import StateFields
from gamelib.core.game import Game, State
from gamelib.fugitive.actions import MASKS, Deal, Hide, Sprint
from gamelib.fugitive.board import Layout, cards_of, mask_of
from gamelib.fugitive.options import (
    DETECTIVE,
    F_PLACE,
    FUGITIVE,
    OVER,
    PHASES,
    PLAYER_NAMES,
    SEAT_OF_PHASE,
    SETUP,
    FugitiveOptions,
)


class FugitiveTable(State):
    """A position of Fugitive as it lies on the table (the rules are :class:`~gamelib.fugitive.rules.FugitiveState`'s)."""

    fields = StateFields(
        key="phase setup_left fhand dhand decks hideouts revealed sprints first_turn placed_this_turn"
        " deficit draw_deck draw_for draws_left series round winner ended_by escape_pending passed_draw"
        " draw_log named_log",
        private="fhand dhand decks hideouts sprints",
        config="layout last canonical refuse_known hide_escape_sprints",
        derived="face_up",
        lists="decks hideouts revealed sprints draw_log named_log",
    )

    def __init__(self, game: Game, seed: int | None, layout: Layout, options: FugitiveOptions) -> None:
        """The position before the setup deal of ``game`` (whose card ``layout`` and rule
        ``options`` the table reads; the rules module passes them, so the table need not know
        the game class)."""
        super().__init__(game, seed)
        self.layout = layout
        self.last = layout.last  # the escape card, read on hot paths
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
        # Public log of the detective's guesses: (hideouts on the table, numbers named as a
        # bitmask, whether a series), one entry per guess and per series revealed, in order.
        self.named_log: list[tuple[int, int, bool]] = []
        self.face_up = 1  # derived: mask of face-up cards (card 0 to start), kept in step with reveals

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        return SEAT_OF_PHASE[self.phase]

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
    def fugitive_hand_size(self) -> int:
        return self.fhand.bit_count()

    @property
    def detective_hand_size(self) -> int:
        return self.dhand.bit_count()

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

    def _derive(self) -> None:
        """The derived field ``face_up`` (the mask of cards lying face up on the table: revealed
        hideouts and their shown sprint cards), recomputed after editing a state by hand (core
        ``invalidate()``); the transitions keep it in step otherwise (:meth:`_turn_face_up`)."""
        m = 0
        for position, (h, r) in enumerate(zip(self.hideouts, self.revealed, strict=True)):
            if r:
                m |= 1 << h
                if self.sprints_shown(position):
                    for c in self.sprints[position]:
                        m |= 1 << c
        self.face_up = m

    def sprints_shown(self, position: int) -> bool:
        """Whether the detective sees the sprint cards under ``position`` (its hideout is face up,
        and it is not the escape card under option ``escape_sprints="hidden"``)."""
        if not self.revealed[position]:
            return False
        return not (self.hide_escape_sprints and self.hideouts[position] == self.last and position > 0)

    # ------------------------------------------------------------------ hidden information
    def _observation(self, player: int | None) -> FugitiveObservation:
        """What ``player`` sees at the table now (``None`` for the omniscient view): the table as
        it is (the fields in :data:`_OBSERVED`), the hands its seat holds, and the hideouts and
        sprint cards face up to it.

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
            hideouts=hideouts,
            fugitive_hand=tuple(self.fugitive_hand) if see_all else None,
            detective_hand=tuple(self.detective_hand) if player in (DETECTIVE, None) else None,
            **{name: _frozen(getattr(self, name)) for name in _OBSERVED},
        )

    def _hidden_steps(self, player: int) -> dict[int, str]:
        """The steps ``player`` did not see: the other side's ``deal N`` (``deal ?``), and for the
        detective every ``hide N`` but the escape card (``hide ?``) and every ``sprint S`` (``sprint ?``)."""
        hidden: dict[int, str] = {}
        draws = 0  # deals after the setup answer the draw log's entries, in order
        setup = len(self.layout.setup_deals)
        detective = player == DETECTIVE
        for index, action in enumerate(self.history):
            kind = type(action)
            if kind is Deal:
                if index < setup:
                    receiver = FUGITIVE
                else:
                    receiver = self.draw_log[draws][0]
                    draws += 1
                if receiver != player:
                    hidden[index] = MASKS[Deal]
            elif detective and (
                isinstance(action, Sprint) or (isinstance(action, Hide) and action.card != self.last)
            ):
                hidden[index] = MASKS[kind]
        return hidden

    def __str__(self) -> str:
        def show(i: int) -> str:
            h, s = self.hideouts[i], self.sprints[i]
            text = f"{h}" if self.revealed[i] else f"[{h}]"
            return text + (f"+{','.join(map(str, s))}" if s else "")

        row = " ".join(show(i) for i in range(len(self.hideouts)))
        status = PHASES.names[self.phase]
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
    each side drew from, and when.  ``named_log`` holds ``(hideouts_on_table, named, series)`` for
    every guess and every series revealed, in order: the numbers the detective named (a bitmask,
    bit ``n`` = number ``n``; one bit for a guess) and whether they were a series.
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
    named_log: tuple[tuple[int, int, bool], ...]
    series: tuple[int, ...]
    first_turn: bool
    round: int
    winner: int
    escape_pending: bool = False
    """The escape card is down and this is the detective's last turn (he may call ``manhunt``)."""


_OBSERVED = tuple(
    f.name
    for f in fields(FugitiveObservation)
    if f.name not in ("player", "hideouts", "fugitive_hand", "detective_hand")
)
"""What an observation copies from the state as it is (the observation's fields say it once, each
the name of a state field or query); the viewer, the hideouts and the hands, which depend on who
looks, are its own."""


def _frozen(value: Any) -> Any:
    """A list of the state as the observation keeps it: a tuple (the observation is immutable)."""
    return tuple(value) if isinstance(value, list) else value
