"""A Une Passante: the rules engine (state, actions, notation, rule options).

Seed: ``shared/seeds/000_c10289aac3de1a1f.txt``; ``docs/rules/passante.md`` quotes every rule
sentence next to the rule name used in errors here and the option that picks a reading.

A cooperative game: every player's return is the number of wishes fulfilled so far.  The only
hidden information is the wish cards (each player sees their own hand); the character cards are
public, because drawing one pins the player's heart on that character for everyone to see.

A turn is split into small actions so that branching stays small and every choice is in the
history (see "Notation" in the docs):

* ``draw`` (first thing in a turn, if holding no character card) then the chance outcome
  ``card chat``;
* ``move poete parc`` (one move of one character), or the Omnibus: ``board gardien`` (0-3 times)
  then ``drive cafe``;
* ``play chat`` then the effect's choices: ``target X``, ``send X Z``, ``discard N`` / ``keep``,
  chance ``die X``;
* the table privileges (option ``privileges``): by default the player whose heart is on a
  character gives that character's signal, once per turn (``name N``, ``call X Z``, ``meow``,
  ``hiss``, ``purr``, ``mime X``, ``reach X``/``reach 2``, ``knock Z``, ``stand``, ``sit``,
  ``glare 2``), or the fold ``hint X Z``; ``lay N`` lays a visible wish down; ``veto``/``allow``
  answer for the Policier; ``end`` finishes the turn and walks the Passante.

Chance outcomes: ``wish N`` (a wish card drawn by the player whose draw is pending), ``card X``
(a character card), ``die X`` (the Comédienne's die), ``event X`` (the end-of-round card).
With ``lay_wishes="automatic"`` wishes are laid down the moment they are visible on the board.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from gamelib.core import rng as _rng
from gamelib.core.bitsets import members
from gamelib.core.fields import StateFields, current_player_field
from gamelib.core.game import CHANCE, Action, Game, GameInfo
from gamelib.core.i18n import Wording
from gamelib.passante import actions as _actions
from gamelib.passante import board as _board
from gamelib.passante import options as _options
from gamelib.passante.actions import (
    _CUMULATIVE,
    ALL_WISHES,
    ALLOW,
    ANY_MOMENT,
    BOARD_SETS,
    CALLS,
    CHARACTER_CARDS,
    DIE_DRAWS,
    DIE_OUTCOMES,
    DRAW,
    DRIVES,
    DRIVES_AWAY,
    END,
    EVENTS,
    FREE,
    HINTS,
    LAYS,
    MOVE_TABLE,
    NAMES,
    NOTATION,
    PASS,
    PLAY_BIT,
    PLAYS,
    STARTS,
    VETO,
    VISIBLE_IF_AT,
    WISH_CARDS,
    WISH_MASK,
    WISH_NUMBERS,
    WISH_ZONE,
    Allow,
    Board,
    DieRoll,
    Drive,
    Move,
    Play,
    RoundEvent,
    Send,
    Target,
    Veto,
    WishCard,
    _character_draws,
    _character_outcomes,
    _event_draws,
    _event_outcomes,
    _free_signals,
    _in_range,
    _uniform_pick,
    _wish_draws,
    _wish_outcomes,
    _wish_pick,
)
from gamelib.passante.board import (
    CAFE,
    ECOLE,
    GARCON,
    LOCATION_TITLES,
    LOCATIONS,
    NUM_WISHES,
    OMNIBUS,
    OMNIBUS_START,
    PIECE_TITLES,
    POETE,
    POLICIER,
    START_ZONE,
)
from gamelib.passante.options import (
    _REST,
    _WHO,
    CARD_DRAW,
    DIE,
    EVENT,
    HAND_SIZE,
    MAIN,
    OVER,
    PHASE_NAMES,
    RETURN_TURN,
    SETUP,
    VETO_PHASE,
    WINDOW,
    PassanteOptions,
)
from gamelib.passante.refusals import Refusals

_WORDS = Wording("gamelib.passante")
"""What a student reads (player names), in the language in force."""


def _summary(name: str, value: Any) -> Any:
    """What every seat sees of a private field: the wish deck's size, each hand's and discard pile's."""
    if name == "wish_deck":
        return value.bit_count()
    return tuple(map(len, value))


class PassanteGame(Game):
    """A Une Passante for 1-4 cooperating players."""

    info: ClassVar[GameInfo] = GameInfo(
        name="passante",
        title="A Une Passante",
        min_players=1,
        max_players=4,
        default_players=3,
        min_return=0.0,
        max_return=float(NUM_WISHES),
        perfect_information=False,
        has_chance=True,
        utility="identical",
        description="Cooperative: move Belle Époque characters so that everyone's secret wishes come true.",
        returns_during_play=True,
        capabilities=frozenset({"observation_tensor"}),
        hidden_masks=("wish ?", "discard ?"),
    )
    Options: ClassVar[type] = PassanteOptions
    options: PassanteOptions
    drawing: ClassVar[str] = "gamelib.passante.draw:draw_state"
    rating: ClassVar[str] = "gamelib.passante.draw:rating_text"
    encoder: ClassVar[str] = "gamelib.passante.encoding:observation_tensor"
    determinizer: ClassVar[str] = "gamelib.passante.analysis:determinize"
    version: ClassVar[str] = "4"
    legacy_defaults: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "1": {
            "lay_wishes": "automatic",
            "draw_first": True,
            "play_while_boarding": False,
            "omnibus_must_leave": True,
            "policier_veto": False,
            "privileges": "none",
        },
        "2": {"privileges": "none", "lay_wishes": "choice"},
        "3": {"lay_wishes": "choice"},
    }
    """Version 1 (before the text's readings became the defaults) laid wishes automatically,
    drew cards only first thing, allowed no card while boarding, made the Omnibus leave, had no veto;
    versions 1 and 2 had no table privileges but the ``table_talk`` fold; versions 2 and 3 laid
    wishes on their owner's turn only."""

    @property
    def hand_size(self) -> int:
        return HAND_SIZE.get(self.num_players, self.options.solo_hand_size)

    @property
    def total_turns(self) -> int:
        """Five turns each: four steps to leave the board, the game ends a turn after the N-th exit."""
        return 5 * self.num_players

    @property
    def max_game_length(self) -> int:
        # per turn: draw+card, play, 2 moves of at most 4 actions, hint, end, and an effect of at
        # most 1 (institutrice) + 1 (die) + 7 (policier) choices; Poète discards are bounded by the
        # wishes in the game, as are all wish draws.  The same per round for the end-of-round card.
        effect = 9 + NUM_WISHES + self.num_players
        per_turn = 2 + 1 + 8 + 1 + 1 + effect
        # windows (lay_wishes="anytime") open only after something moved or a card was drawn:
        # at most 6 a turn (2 moves, an effect, a veto's return, its draws) and 2 a round, each
        # a pass and an any-moment signal per seat (the lays are among the wish draws)
        windows = (6 * self.total_turns + 2 * 5 + 1) * 2 * self.num_players
        return 1 + self.total_turns * per_turn + 5 * (1 + effect) + 4 * NUM_WISHES + windows

    def action_universe(self) -> tuple[Action, ...]:
        """Every action of this configuration, in the declared order (:data:`NOTATION`)."""
        return NOTATION.universe(self)

    def new_game(self, seed: int | None = None) -> PassanteState:
        return PassanteState(self, seed)

    def player_name(self, player: int) -> str:
        """``player 1`` (seat 0), or ``joueur 1`` under ``gamelib.set_language("fr")``."""
        return _WORDS("player", n=player + 1)

    def parse_action(self, text: str) -> Action:
        return NOTATION.parse(text, self)


_STARTS: dict[int, tuple[PassanteGame, type, dict[str, Any]]] = {}
"""The attributes of each game's start, by ``id(game)`` (the game itself kept, and checked)."""


class PassanteState(Refusals):
    """A position of A Une Passante.  See the module docstring for the turn structure."""

    game: PassanteGame
    fields: ClassVar[StateFields] = StateFields(
        key="""phase pos bus hearts char_hand char_deck char_under char_out wish_deck fulfilled hands
            discards pending turn_player played turns rounds moved moves fresh hinted boarding hints
            signals passante pdir arrivals last_turn ended eff actor src eff_left eff_queue eff_count
            eff_return drew veto_used vetoed proposed vetoer shown asking dealt_to signalled
            window_return""",
        private="wish_deck hands discards",
        lists="pos hearts char_hand hands fulfilled discards",
        config="auto_lay anytime",
        derived="laid _to_move",
        logs="secrets laid_log said",
    )
    """The position (``key``; the private wish deck, hands and discards are seen by everyone as
    their sizes: ``_summary``).  ``secrets``, ``laid_log`` and ``said`` are logs of the history
    (who was dealt which wish at which step, every wish laid, every signal), recorded as its steps
    are applied."""

    _uniform_rollout: ClassVar[Callable[[PassanteState, random.Random, int], None] | None] = None
    """The uniform rollout the search agents play here (``gamelib.agents.mcts``): the compiled
    loop (:func:`use_compiled`), or None (the agents' own loop)."""
    _steps: ClassVar[dict[type, tuple[Callable[..., None], int]]]
    """``_steps_of(cls)``: the transition and role bits of each action class (set below the class)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._steps = _steps_of(cls)

    def __init__(self, game: PassanteGame, seed: int | None) -> None:
        super().__init__(game, seed)
        # the start of a game depends on the game only: made once per game (``_set_start``), then
        # copied as a clone is (one C-level copy of the attributes, then the declared lists)
        start = _STARTS.get(id(game))
        if start is None or start[0] is not game or start[1] is not type(self):
            blank = object.__new__(type(self))
            blank.game, blank.history = game, []
            blank._set_start(game)
            start = (game, type(self), {k: v for k, v in vars(blank).items() if k not in ("game", "history")})
            if len(_STARTS) >= 16:
                _STARTS.clear()
            _STARTS[id(game)] = start
        values = start[2].copy()
        for name in self.fields.lists:
            values[name] = values[name].copy()
        values.update(self.__dict__)  # core's own: game, seed, history
        self.__dict__ = values

    def _set_start(self, game: PassanteGame) -> None:
        """The position before the deal (every field declared here, with what it means)."""
        n = game.num_players
        self.pos: list[int] = list(START_ZONE)
        self.bus = OMNIBUS_START
        self.hearts: list[int] = [-1] * n
        """The character each player's heart is pinned on, or -1."""
        self.char_hand: list[int] = [-1] * n
        """The character card each player holds, or -1 (public: the heart shows it)."""
        self.char_deck = (1 << 8) - 1
        """Character cards in the shuffled part of the deck (order unknown), a bitmask."""
        self.char_under: tuple[int, ...] = ()
        """Cards put under the deck since the last shuffle, top to bottom (order public)."""
        self.char_out = 0
        """Character cards out of the game (option ``mendiante_discards_leave_game``)."""
        self.wish_deck = ALL_WISHES
        self.hands: list[tuple[int, ...]] = [()] * n
        self.fulfilled: list[tuple[int, ...]] = [()] * n
        self.discards: list[tuple[int, ...]] = [()] * n
        """Wishes each player discarded with the Poète, face down."""
        self.pending: tuple[int, ...] = tuple(p for p in range(n) for _ in range(game.hand_size))
        """Players waiting for a wish card, in order (the next chance node deals to the first)."""
        self.phase = SETUP
        self.turn_player = 0
        self.played = 0  # bitmask of players who played this round
        self.turns = 0
        self.rounds = 0
        self.moved = 0  # bitmask of pieces moved this turn (bit 8: Omnibus)
        self.moves = 0
        self.fresh = True  # no action yet this turn: a character card may be drawn
        self.hinted = False
        self.boarding: tuple[int, ...] = ()
        self.hints: tuple[tuple[int, int, int], ...] = ()
        """(player, character, zone) of every ``hint`` and every Garçon's ``call``, in order."""
        self.signals: tuple[tuple[int, str], ...] = ()
        """(player, notation) of every privilege signal given, in order (public)."""
        self.passante = ECOLE
        self.pdir, self.arrivals = 1, 0
        self.last_turn = False  # the turn being played is the final one
        self.ended = False  # the final turn is over (a last end-of-round card may remain)
        self.eff = -1  # the effect under resolution: the character whose effect waits for a choice
        self.actor = -1
        self.src = -1  # the character the effect works from
        self.eff_left = 0  # Chat: characters still to attract
        self.eff_queue: tuple[int, ...] = ()  # Policier: characters to send; Poète: players to discard
        self.eff_count = 0  # Poète: wishes discarded by the current player
        self.eff_return = RETURN_TURN
        self.drew = False  # a character card was drawn this turn
        self.veto_used = False  # the Policier's veto was used this turn
        self.vetoed = 0  # pieces (bits 0-8) and the card (bit 9) vetoed this turn
        self.proposed: Action | None = None  # the move or card waiting for the Policier's word
        self.vetoer = -1
        self.auto_lay = game.options.lay_wishes == "automatic"
        self.anytime = game.options.lay_wishes == "anytime"
        # the moments between moves (option lay_wishes="anytime"): all public
        self.shown = 0
        """Wishes (bit n: wish n) visible and not laid at the last moment between moves."""
        self.asking: tuple[int, ...] = ()
        """The seats still asked in the open window (phase WINDOW), in seat order."""
        self.dealt_to = 0
        """Seats dealt a wish since the last moment between moves (bit p: seat p)."""
        self.signalled = 0
        """Seats that gave an any-moment privilege's signal in a window this turn."""
        self.window_return = MAIN
        """The phase the game goes back to when the window closes."""
        self.laid = 0
        """Every wish laid down (bit n: wish n): derived from ``fulfilled``."""
        self.secrets: tuple[tuple[int, int], ...] = ()
        """(history index, seat) of every step only that seat sees: the wish cards dealt to it
        (``wish N``) and its Poète discards (``discard N``); the others see ``wish ?``."""
        self.laid_log: tuple[tuple[int, int, int], ...] = ()
        """(history index, seat, wish) of every wish laid down, in order (public)."""
        self.said: tuple[tuple[int, int, str, int, int], ...] = ()
        """(history index, seat, kind, a, b) of every signal that tells about a hand (public):
        ``("call", char, zone)`` for ``hint``/``call``, ``("name", wish, 0)`` for ``name``."""
        self._settle()
        self._to_move = self._who()
        """Who acts now (``current_player``), kept up to date by every transition."""

    # ------------------------------------------------------------------ queries
    current_player = current_player_field("_to_move")

    def _who(self) -> int:
        """Who acts: the chance deal while a draw is owed (even after the last turn), else the phase's."""
        if self.pending:
            return CHANCE
        return _WHO[self.phase](self)

    def score(self) -> int:
        """Wishes fulfilled so far (all players together)."""
        return sum(len(f) for f in self.fulfilled)

    def characters_at(self, loc: int) -> list[int]:
        return [c for c, z in enumerate(self.pos) if z == loc]

    def is_visible(self, wish: int) -> bool:
        """Is the wish's situation on the board (its characters on its zone, alone or accompanied)?"""
        m = WISH_MASK[wish]
        zone = WISH_ZONE[wish]
        return all(self.pos[c] == zone for c in members(m))

    def may_move(self, player: int, char: int) -> bool:
        """Seed: "Aucun autre joueur ne peut déplacer ce personnage" (the one with a heart)."""
        seat = self.check_player(player)
        if not _in_range(char, 8):
            raise ValueError(f"char must be a character index 0..7, got {char!r}")
        assert seat is not None
        return self._may_move(seat, char)

    def _derive(self) -> None:
        laid = 0
        for wishes in self.fulfilled:
            for w in wishes:
                laid |= 1 << w
        self.laid = laid
        self._to_move = self._who()

    # ------------------------------------------------------------------ legal moves
    def _legal_actions(self) -> list[Action]:
        if self.pending:
            return _wish_draws(self.wish_deck)
        return _LEGAL[self.phase](self)

    def _setup_actions(self) -> list[Action]:
        return [STARTS[ECOLE], STARTS[CAFE]]

    def _chance_actions(self) -> list[Action]:
        """The outcomes of ``_chance_outcomes`` without their probabilities, from the same caches."""
        return list(self._card_draws())

    def _boarding_actions(self) -> list[Action]:
        acts: list[Action] = []
        if self._omnibus_has_room():
            boardable = self._boardable(self._others_hearts(self.turn_player))
            floor = self._boarding_floor()
            acts.extend(b for b in boardable if b.char >= floor)
        acts.extend(self._drives())
        card = self.char_hand[self.turn_player]
        if card >= 0 and self.game.options.play_while_boarding and not self._card_stopped():
            acts.append(PLAYS[card])
        return acts

    def _veto_actions(self) -> list[Action]:
        return [VETO, ALLOW]

    def _no_actions(self) -> list[Action]:
        return []

    def _window_actions(self) -> list[Action]:
        """The asked seat: lay a visible wish of its hand, give an any-moment signal, or pass."""
        q = self.asking[0]
        acts = self._lays(q) if self.shown else []  # a window opens only with lay_wishes="anytime"
        char = self.hearts[q]
        # _signal_left in a window: one any-moment signal per seat and turn
        if char in ANY_MOMENT and not self.signalled >> q & 1 and self.game.options.privileges == "cards":
            acts.extend(_free_signals(char, q, self.game.num_players))
        acts.append(PASS)
        return acts

    def _drives(self) -> tuple[Action, ...]:
        if self.game.options.omnibus_must_leave:
            return DRIVES_AWAY[self.bus]
        return DRIVES

    def _main_actions(self) -> list[Action]:
        """The turn's moves: lays, the card (draw or play), the pieces' moves, signals, ``end``.

        The hot path of every rollout: the one-line rules are read here as the expressions their
        methods state (named beside each: ``_moves_left``, ``_card_stopped``, ``_stopped``,
        ``_signal_left`` in a turn, ``_drives``), which the refusals ask; ``tests/passante/
        test_passante_h6_speed.py`` checks this list against one built from the methods."""
        p = self.turn_player
        opts = self.game.options
        # _lays: none when laying is automatic, none when no wish is shown between moves ("anytime")
        acts = [] if self.auto_lay or (self.anytime and not self.shown) else self._lays(p)
        card = self.char_hand[p]
        if card < 0:
            # _why_no_draw, holding no card: not after the turn's start (draw_first), one a turn, a card left
            if (self.fresh or not opts.draw_first) and not self.drew and (self.char_deck or self.char_under):
                acts.append(DRAW)
        elif not self.vetoed >> PLAY_BIT & 1:  # _card_stopped
            acts.append(PLAYS[card])
        moves_left = self.moves < 2  # _moves_left
        no_moves = True
        hearts = self.hearts
        if moves_left:  # the pieces free to move: ordinary moves, then the Omnibus
            before = len(acts)
            own = hearts[p]  # _others_hearts(p)
            others = 0
            for h in hearts:
                if h >= 0 and h != own:
                    others |= 1 << h
            blocked = self.moved | self.vetoed | others  # _stopped, and the others' hearts
            pos = self.pos
            for c in FREE[blocked & 255]:  # each free character's moves from where it stands
                acts += MOVE_TABLE[c][pos[c]]
            if not blocked >> OMNIBUS & 1:
                bus = self.bus
                if bus in pos:
                    acts += self._boardable(others)
                acts += DRIVES_AWAY[bus] if opts.omnibus_must_leave else DRIVES  # _drives
            no_moves = len(acts) == before
        char = hearts[p]
        if char >= 0 and not self.hinted and opts.privileges != "none":  # _signal_left in a turn
            if opts.privileges != "cards":
                acts += self._hints(p)
            elif char in (POETE, GARCON):
                acts += self._signals(p)
            else:
                acts += _free_signals(char, p, self.game.num_players)
        if not opts.must_move_twice or not moves_left or no_moves:
            acts.append(END)
        return acts

    def _boardable(self, others: int) -> tuple[Board, ...]:
        """The boardings of the characters that may climb into the Omnibus where it stands
        (:meth:`_waiting_at_omnibus`, never :meth:`_never_boards`; ``others``:
        :meth:`_others_hearts` of the player to move)."""
        return BOARD_SETS[self._waiting_at_omnibus() & ~self._never_boards(others)]

    def _hints(self, player: int) -> list[Action]:
        return [HINTS[c][z] for c, z in self._hand_pairs(player)]

    def _signals(self, player: int) -> list[Action]:
        """The signals of the privilege of the character ``player``'s heart is on."""
        char = self.hearts[player]
        if char == POETE:
            return [NAMES[w] for w in self.hands[player]]
        if char == GARCON:
            return [CALLS[c][z] for c, z in self._hand_pairs(player)]
        return list(_free_signals(char, player, self.game.num_players))

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.pending:
            return _wish_outcomes(self.wish_deck)
        return list(self._card_outcomes())

    def _card_outcomes(self) -> Sequence[tuple[Action, float]]:
        """The outcomes of a character card's draw, the die or the end-of-round card (shared)."""
        if self.phase == CARD_DRAW:
            if self.char_deck:
                return _character_outcomes(self.char_deck)
            return ((CHARACTER_CARDS[self.char_under[0]], 1.0),)
        if self.phase == DIE:
            return DIE_OUTCOMES
        if self.phase == EVENT:
            return _event_outcomes(self._event_deck())
        return ()

    def _card_draws(self) -> Sequence[Action]:
        """The equally likely outcomes of a character card's draw, the die or the end-of-round card
        (:meth:`_card_outcomes` without the probabilities, each ``1/n``; shared)."""
        if self.phase == CARD_DRAW:
            if self.char_deck:
                return _character_draws(self.char_deck)
            return (CHARACTER_CARDS[self.char_under[0]],)
        if self.phase == DIE:
            return DIE_DRAWS
        if self.phase == EVENT:
            return _event_draws(self._event_deck())
        return ()

    def sample_chance(self, rng: random.Random | None = None) -> Action:
        """Core's draw (the same outcome from the same ``rng`` or seed: :func:`~gamelib.core.rng.pick`
        over :meth:`chance_outcomes`) found by bisection (every chance outcome of the game is one
        of ``n`` equally likely ones: ``_uniform_pick``), without building a wish deal's outcomes
        (``_wish_pick``): random play deals from a deck once."""
        if self._to_move == CHANCE:
            draws = () if self.pending else self._card_draws()
            if draws or (self.pending and self.wish_deck):
                u = rng.random() if rng is not None else _rng.uniform(self.seed, len(self.history))
                if draws:
                    return _uniform_pick(draws, u)
                card = _wish_pick(self.wish_deck, u)
                assert card is not None
                return card
        return super().sample_chance(rng)

    # ------------------------------------------------------------------ transitions
    def _apply(self, action: Action) -> None:
        """Each action's own ``@transition`` (``refusals.py``, ``effects.py``), between what every
        action shares: a move or card the Policier's player may stop is only announced (phase
        "Policier's veto"); afterwards wishes are laid (``lay_wishes="automatic"``), owed draws
        come first, and a moment between moves may open (``lay_wishes="anytime"``)."""
        kind = type(action)
        step, role = self._steps[kind]  # the transition and _ROLES' bits, one lookup
        if role & _ANSWERED:  # one test for the actions that are neither announced nor answers
            if role & _PROPOSAL:
                if not self.veto_used and POLICIER in self.hearts and self._vetoable(action):
                    self.proposed = action
                    self.phase = VETO_PHASE
                    self._to_move = CHANCE if self.pending else self.vetoer
                    return
            elif kind is Allow:
                assert self.proposed is not None
                role = _ROLES[type(self.proposed)]  # what follows is what follows the move or card allowed
            else:  # Veto
                step(self, action)
                self._to_move = CHANCE if self.pending else _WHO[self.phase](self)
                return
        step(self, action)
        if self.auto_lay:
            self._settle()
        elif not self.wish_deck:
            self.pending = ()
        if self.pending:
            self._to_move = CHANCE
            return
        phase = self.phase
        if self.anytime and (role & _SHOWS or self.dealt_to) and phase in _REST:
            _open_window(self)  # _open_window, or its compiled copy (use_compiled)
            phase = self.phase
        # the turn's player acts in most positions: read without the phase's getter
        self._to_move = self.turn_player if phase == MAIN else _WHO[phase](self)

    # ------------------------------------------------------------------ results & copies
    def returns(self) -> list[float]:
        return [float(self.score())] * self.game.num_players

    # ------------------------------------------------------------------ hidden information
    def _observation(self, player: int | None) -> PassanteObservation:
        """What ``player`` sees: the board, every public card, and their own wishes only (1..38)."""
        see_all = player is None or self.game.options.open_hands
        return PassanteObservation(
            player=player,
            current_player=self.current_player,
            public=self.fields.public_key(self, _summary),
            hands=tuple(h if see_all or p == player else None for p, h in enumerate(self.hands)),
            discards=tuple(d if see_all or p == player else None for p, d in enumerate(self.discards)),
        )

    def _hidden_steps(self, player: int) -> Mapping[int, str]:
        """The wish cards dealt to the others (``wish ?``) and their Poète discards (``discard ?``)."""
        if self.game.options.open_hands:
            return {}
        history = self.history
        return {
            i: "wish ?" if isinstance(history[i], WishCard) else "discard ?"
            for i, seat in self.secrets
            if seat != player
        }

    # ------------------------------------------------------------------ text
    def __str__(self) -> str:
        lines = [
            f"A Une Passante — turn {min(self.turns + 1, self.game.total_turns)}/{self.game.total_turns}, {PHASE_NAMES[self.phase]}"
        ]
        arrow = "→" if self.pdir == 1 else "←"
        lines.append(
            f"  Passante: {LOCATION_TITLES[self.passante]} {arrow}  (left the board {self.arrivals} time(s))"
        )
        for z in LOCATIONS:
            names = []
            for c in self.characters_at(z):
                hearts = "".join(f"♥{p + 1}" for p in self.controllers(c))
                names.append(PIECE_TITLES[c] + hearts)
            if self.bus == z:
                names.append("[Omnibus]")
            lines.append(f"  {LOCATION_TITLES[z]:<15} {', '.join(names)}")
        for p in range(self.game.num_players):
            card = PIECE_TITLES[self.char_hand[p]] if self.char_hand[p] >= 0 else "-"
            wishes = " ".join(str(w) for w in self.hands[p])
            lines.append(
                f"  {self.player_name(p)}: card {card}; wishes {wishes}; fulfilled {len(self.fulfilled[p])}"
            )
        lines.append(f"  wishes fulfilled: {self.score()}")
        return "\n".join(lines)


_LEGAL: list[Callable[[PassanteState], list[Action]]] = [
    PassanteState._setup_actions,  # SETUP
    PassanteState._main_actions,  # MAIN
    PassanteState._boarding_actions,  # BOARDING
    PassanteState._chance_actions,  # CARD_DRAW
    PassanteState._effect_actions,  # EFFECT
    PassanteState._chance_actions,  # DIE
    PassanteState._chance_actions,  # EVENT
    PassanteState._no_actions,  # OVER
    PassanteState._veto_actions,  # VETO_PHASE
    PassanteState._window_actions,  # WINDOW
]
"""The legal actions of each phase (when no wish draw is owed), by phase number (the turn's:
:func:`use_compiled` picks the compiled ``_fast.main_actions`` or ``_main_actions``)."""
_PROPOSALS = frozenset({Move, Play, Board, Drive})
"""The actions the Policier's player may stop (``_vetoable`` says when)."""
_MAY_SHOW = frozenset({Move, Drive, Play, Target, Send, DieRoll, RoundEvent})
"""The actions after which a character may stand elsewhere (directly or by an effect; after the
Policier's ``allow``, the move allowed): the only ones that can show a wish (a draw shows one
through ``dealt_to``)."""
_PROPOSAL, _SHOWS = 1, 2
_ANSWERED = _PROPOSAL | 4
_ROLES: dict[type, int] = {
    kind: (_PROPOSAL if kind in _PROPOSALS else 4 if kind in (Allow, Veto) else 0)
    | (_SHOWS if kind in _MAY_SHOW else 0)
    for kind in PassanteState._transitions
}
"""What ``_apply`` does around each action class's transition, as bits read with one lookup:
``_PROPOSAL`` (announced first, :data:`_PROPOSALS`), 4 (the Policier's answer), ``_SHOWS``
(:data:`_MAY_SHOW`)."""


def _steps_of(cls: type[PassanteState]) -> dict[type, tuple[Callable[..., None], int]]:
    """Each action class's transition beside its ``_ROLES`` bits (``_apply`` reads both with one
    dict lookup a step); a subclass's own transitions are collected again (core's
    ``__init_subclass__``), so it gets its own table."""
    return {kind: (step, _ROLES.get(kind, 0)) for kind, step in cls._transitions.items()}


PassanteState._steps = _steps_of(PassanteState)


COMPILED = False
"""Is the rollout path compiled (``gamelib.passante._fast``, built from ``_fast.c`` when a C
compiler was there)?  The turn's and the window's legal moves, the moment between moves, and the
search agents' uniform rollout (moves applied by ``_apply``'s steps in C around the Python
transitions, chance drawn as ``sample_chance`` draws).  Why: a rollout is ~80% of an IS-MCTS
iteration (issue 24: 1,600 iterations a second).  The pure methods are the reference; the tests
compare both on every position of random games."""


def use_compiled(on: bool) -> bool:
    """Runs the rollout path compiled (when the module is there) or pure; returns
    :data:`COMPILED`.  ``GAMELIB_PURE_PYTHON=1`` in the environment turns it off at import, as it
    does the Fugitive belief's kernel."""
    global COMPILED, _open_window
    COMPILED = _fast is not None and on
    if _fast is not None and COMPILED:
        _LEGAL[MAIN], _LEGAL[WINDOW] = _fast.main_actions, _fast.window_actions
        _open_window, PassanteState._uniform_rollout = _fast.open_window, _compiled_rollout
    else:
        _LEGAL[MAIN], _LEGAL[WINDOW] = PassanteState._main_actions, PassanteState._window_actions
        _open_window, PassanteState._uniform_rollout = PassanteState._open_window, None
    return COMPILED


def _compiled_rollout(state: PassanteState, rng: random.Random, limit: int) -> None:
    """The search agents' uniform rollout (``gamelib.agents.mcts._uniform_rollout``: the same
    moves from the same ``rng``, the same calls of the rules' hooks) in the compiled loop; the
    turn's moves from ``_LEGAL`` unless a subclass lists its own, each applied by ``_fast.apply``
    (``_apply``'s steps around the Python transitions) unless a subclass applies its own, the
    chance outcomes drawn by ``_fast.sample`` (``sample_chance``'s) unless a subclass draws its own."""
    assert _fast is not None
    state._legal_cache = None
    cls = type(state)
    own = cls._legal_actions is not PassanteState._legal_actions
    plain = cls._apply is PassanteState._apply  # then its steps in C around the transitions
    chance = all(getattr(cls, name) is getattr(PassanteState, name) for name in _CHANCE_METHODS)
    _fast.rollout(state, rng, limit, None if own else _LEGAL, cls._steps if plain else None, not chance)


_CHANCE_METHODS = ("sample_chance", "_card_draws", "_event_deck", "_chance_outcomes", "_card_outcomes")
"""What ``sample_chance`` reads: a subclass changing none of them draws in C (``_fast.sample``)."""


_open_window: Callable[[PassanteState], None] = PassanteState._open_window
"""The moment between moves ``_apply`` opens: :meth:`~gamelib.passante.effects.Effects._open_window`
or its compiled copy (the same fields written)."""


try:
    from gamelib.passante import _fast
except ImportError:  # no C compiler where it was installed: the pure path
    _fast = None  # type: ignore[assignment]
if _fast is not None:
    _fast.configure(MOVE_TABLE, BOARD_SETS, DRIVES, DRIVES_AWAY, PLAYS, DRAW, END, _free_signals)
    _fast.configure_window(VISIBLE_IF_AT, OVER, WINDOW)
    _fast.configure_lays((None, *(LAYS[w] for w in WISH_NUMBERS)), PASS, ANY_MOMENT)
    _fast.configure_apply(
        _ROLES, Allow, tuple(_WHO), _REST, MAIN, VETO_PHASE, _PROPOSAL, _SHOWS, _ANSWERED, POLICIER
    )
    _fast.configure_chance(
        CHARACTER_CARDS,
        DIE_DRAWS,
        EVENTS,
        (None, *(WISH_CARDS[w] for w in WISH_NUMBERS)),
        _CUMULATIVE,
        CARD_DRAW,
        DIE,
        EVENT,
    )
use_compiled(os.environ.get("GAMELIB_PURE_PYTHON") != "1")


@dataclass(frozen=True)
class PassanteObservation:
    """One player's view.  ``public`` is everything on the table (board, hearts, character cards,
    laid-down wishes, card counts, the turn's progress); hidden hands are ``None``."""

    player: int | None
    current_player: int
    public: tuple[Any, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    discards: tuple[tuple[int, ...] | None, ...]


def __getattr__(name: str) -> Any:
    """The names of ``actions.py``, ``options.py`` and ``board.py`` read through ``rules`` (the
    game's other modules import the rules only, as every game folder does; notebooks too)."""
    for module in (_actions, _options, _board):
        if not name.startswith("__") and hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
