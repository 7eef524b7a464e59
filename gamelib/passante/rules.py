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

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, compress
from typing import Annotated, Any, ClassVar, Literal

from gamelib.core.errors import IllegalAction
from gamelib.core.fields import StateFields, current_player_field
from gamelib.core.game import CHANCE, TERMINAL, Action, Game, GameInfo, State
from gamelib.core.i18n import Wording
from gamelib.core.notation import Choice, Int, Notation, action_class, spec_of
from gamelib.core.options import Between, check_declared
from gamelib.passante.board import (
    CAFE,
    CHARACTERS,
    CHAT,
    CHAT_MOVES,
    COMEDIENNE,
    ECOLE,
    GARCON,
    GARDIEN,
    GRAPH_DISTANCE,
    INSTITUTRICE,
    LOCATION_NAMES,
    LOCATION_TITLES,
    LOCATIONS,
    MENDIANTE,
    NEIGHBOURS,
    NUM_WISHES,
    OMNIBUS,
    OMNIBUS_START,
    PIECE_NAMES,
    PIECE_TITLES,
    PLACE,
    POETE,
    POLICIER,
    ROW_DISTANCE,
    ROW_NEIGHBOURS,
    START_ZONE,
    WISHES,
    ZONES,
)

_WORDS = Wording("gamelib.passante")
"""What a student reads (player names), in the language in force."""

WISH_NUMBERS = tuple(range(1, NUM_WISHES + 1))
# indexed by wish number (index 0 unused: -1 zone, and a mask no position satisfies)
WISH_ZONE = (-1, *(w.zone for w in WISHES))
WISH_MASK = (1 << 9, *(w.mask for w in WISHES))
WISH_CHARS = ((), *(w.characters for w in WISHES))
ALL_WISHES = ((1 << (NUM_WISHES + 1)) - 1) ^ 1
"""Bit ``n`` stands for wish ``n`` (1..38) in every wish bitmask."""

DIE_FACES = (POLICIER, MENDIANTE, GARDIEN, CHAT, POETE, GARCON)
"""The die's six characters: every character but the Comédienne (who rolls it) and the
Institutrice (who would copy an effect and could loop back to the die)."""

RATING_BANDS = (
    (38, 38, "Fondez un groupe de musique, organisez des festivals, faites du théâtre de rue !"),
    (33, 37, "Vous maîtrisez l'art des rencontres."),
    (27, 32, "Vous commencez à percevoir les Souhaits de vos partenaires à travers leurs actions."),
    (21, 26, "Des gens passent et vous trouvez cela joli. Moi aussi."),
    (12, 20, "Déplacez et jouez vos personnages avec un peu plus de conviction."),
    (0, 11, "Vous avez peut-être trop d'ambition ?"),
)
"""The seed's rating bands (its "21 - 28" overlaps "27-32": 27 and 28 go to the higher band)."""


def rating(score: int) -> str:
    """The seed's verdict for a final count of wishes fulfilled."""
    for low, high, text in RATING_BANDS:
        if low <= score <= high:
            return text
    raise ValueError(f"score must be between 0 and {NUM_WISHES}, got {score}")


@lru_cache(maxsize=8192)
def bits(mask: int) -> tuple[int, ...]:
    """The set bits of ``mask`` in increasing order (cached: the same decks recur in a search)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


# ---------------------------------------------------------------------------- actions
def _in_range(value: object, high: int, low: int = 0) -> bool:
    # bools are ints equal to 0/1: an action built with True equals (and writes as) the one with 1
    return isinstance(value, int) and low <= value < high


class _Named(Choice):
    """A character or a location by its notation name; refused as ``unknown piece 'chien'``."""

    __slots__ = ()

    def read(self, text: str, game: Game | None) -> int:
        index = self.folded.get(text.lower())
        if index is not None:
            return index
        if self.what == "piece" and text.lower() == PIECE_NAMES[OMNIBUS]:
            raise IllegalAction(
                "notation", "the Omnibus is no character: move it with 'board X' and 'drive Z'"
            )
        raise IllegalAction(
            "notation", f"unknown {self.what} {text!r}; expected one of {', '.join(self.words)}"
        )


class _StartZone(_Named):
    """Where the Passante starts: ``ecole`` or ``cafe`` (stored as the location)."""

    __slots__ = ()

    def read(self, text: str, game: Game | None) -> int:
        zone = super().read(text, game)
        if zone not in (ECOLE, CAFE):
            raise IllegalAction("notation", "the Passante starts at 'ecole' or 'cafe'")
        return zone

    def check(self, value: Any, owner: str) -> None:
        if isinstance(value, bool) or value not in (ECOLE, CAFE):
            raise IllegalAction(
                "notation", f"{owner}: zone must be {ECOLE} (ecole) or {CAFE} (cafe), got {value!r}"
            )

    def values(self, game: Game) -> Sequence[int]:
        return (ECOLE, CAFE)


def _char(field: str = "char") -> Choice:
    return _Named(field, PIECE_NAMES[:8], what="piece")


def _loc(field: str) -> Choice:
    return _Named(field, LOCATION_NAMES, what="location")


_WISH = Int("wish", 1, NUM_WISHES, what="wish number")
_SEAT = Int("player", 1, lambda game: game.num_players, shift=1, limit=4, what="player number")
"""A partner, written 1..n (joueur 1..n), stored as the seat 0..n-1."""


def _privileges(value: str) -> Any:
    return lambda game: game.options.privileges == value


_CARDS, _HINT = _privileges("cards"), _privileges("hint")
_ZONE_ONLY = lambda char, zone: zone != PLACE  # noqa: E731
"""Hints and calls name a zone of a wish: the universe leaves the place out (it parses)."""
_NO_CHAT_ON_PLACE = lambda char, to: not (char == CHAT and to == PLACE)  # noqa: E731
"""The Chat never goes to the place: out of the universe, refused by the rules (``chat-move``)."""

# The rules refuse what the universe leaves out with their own words (``move chat place`` is a
# ``chat-move`` error, ``hint`` without the fold is ``no-talking``), hence ``universe_only``.


@action_class("start", _StartZone("zone", LOCATION_NAMES, what="location"))
class Start(Action):
    """The first player puts the Passante on ``ecole`` (walks clockwise) or ``cafe`` (anticlockwise)."""

    zone: int


@action_class("wish", _WISH)
class WishCard(Action):
    """Chance: the wish card that the player with a pending draw takes from the deck."""

    wish: int


@action_class("card", _char())
class CharacterCard(Action):
    """Chance: the character card drawn by the player to move."""

    char: int


@action_class("die", _char(), where=lambda char: char in DIE_FACES, universe_only=True)
class DieRoll(Action):
    """Chance: the face of the Comédienne's die."""

    char: int


@action_class("event", _char())
class RoundEvent(Action):
    """Chance: the character card drawn at random at the end of a round."""

    char: int


@action_class("draw")
class DrawCharacter(Action):
    """Draw a character card (only as the first action of a turn, holding none)."""


@action_class("move", _char(), _loc("to"), where=_NO_CHAT_ON_PLACE, universe_only=True)
class Move(Action):
    """Move one character one step (the Chat one or two zones)."""

    char: int
    to: int


@action_class("board", _char(), where=lambda char: char != CHAT, universe_only=True)
class Board(Action):
    """A character climbs into the Omnibus before it drives (at most three, never the Chat)."""

    char: int


@action_class("drive", _loc("to"))
class Drive(Action):
    """The Omnibus drives to any location; everyone inside gets off there."""

    to: int


@action_class("play", _char())
class Play(Action):
    """Play the character card in hand: it goes under the deck and its effect applies."""

    char: int


@action_class("target", _char())
class Target(Action):
    """An effect's choice of character (Garçon, Chat, Comédienne, Institutrice)."""

    char: int


@action_class("send", _char(), _loc("to"), where=_NO_CHAT_ON_PLACE, universe_only=True)
class Send(Action):
    """The Policier's effect: where one character of his zone goes."""

    char: int
    to: int


@action_class("discard", _WISH)
class Discard(Action):
    """The Poète's effect: discard one wish from hand."""

    wish: int


@action_class("keep")
class Keep(Action):
    """The Poète's effect: stop discarding and draw as many wishes as were discarded."""


@action_class("hint", _char(), _loc("zone"), when=_HINT, where=_ZONE_ONLY, universe_only=True)
class Hint(Action):
    """The privileges folded into one (option ``privileges="hint"``): point at a character and a
    zone of a wish in hand."""

    char: int
    zone: int


# ---- the table privileges (option ``privileges="cards"``): one signal per card, for the player
# whose heart is on that character, once per turn, on their own turn
@action_class("name", _WISH, when=_CARDS, universe_only=True)
class Name(Action):
    """Le Poète: « nommer les cartes Souhaits que vous possédez » (by its title): wish N, in hand."""

    wish: int


@action_class("call", _char(), _loc("zone"), when=_CARDS, where=_ZONE_ONLY, universe_only=True)
class Call(Action):
    """Le Garçon de café: « nommer un personnage et une zone » (those of a wish in hand)."""

    char: int
    zone: int


@action_class("meow", when=_CARDS, universe_only=True)
class Meow(Action):
    """Le Chat: « miauler » (what a sound means is the players' convention)."""


@action_class("hiss", when=_CARDS, universe_only=True)
class Hiss(Action):
    """Le Chat: « feuler »."""


@action_class("purr", when=_CARDS, universe_only=True)
class Purr(Action):
    """Le Chat: « ronronner »."""


@action_class("mime", _char(), when=_CARDS, universe_only=True)
class Mime(Action):
    """La Comédienne: « mimer n'importe quel personnage sur le plateau », without a sound."""

    char: int


@action_class("reach", _char(), when=_CARDS, universe_only=True)
class Reach(Action):
    """La Mendiante: « tendre la main vers n'importe quel joueur ou personnage » (a character)."""

    char: int


@action_class("reach", _SEAT, when=_CARDS, universe_only=True)
class ReachPlayer(Action):
    """La Mendiante holds out her hand towards another player (``reach 2``: joueur 2)."""

    player: int


@action_class("knock", _loc("zone"), when=_CARDS, universe_only=True)
class Knock(Action):
    """Le Gardien: « déplacer et faire toquer un objet vous appartenant, n'importe où sur la table »."""

    zone: int


@action_class("stand", when=_CARDS, universe_only=True)
class Stand(Action):
    """L'Institutrice: « vous lever »."""


@action_class("sit", when=_CARDS, universe_only=True)
class Sit(Action):
    """L'Institutrice: « vous asseoir »."""


@action_class("glare", _SEAT, when=_CARDS, universe_only=True)
class Glare(Action):
    """L'Institutrice: « faire les gros yeux à vos partenaires » (``glare 2``: at joueur 2)."""

    player: int


@action_class("lay", _WISH, when=lambda game: game.options.lay_wishes != "automatic", universe_only=True)
class Lay(Action):
    """Lay a wish of one's hand down, face up, while it is visible (option ``lay_wishes``: between
    moves by any holder, "anytime", or on the owner's turn, "choice")."""

    wish: int


@action_class("pass", when=lambda game: game.options.lay_wishes == "anytime", universe_only=True)
class Pass(Action):
    """A seat asked between two moves (option ``lay_wishes="anytime"``) keeps its wishes for now."""


@action_class("veto", when=lambda game: game.options.policier_veto, universe_only=True)
class Veto(Action):
    """The Policier's player stops the move or card just announced (option ``policier_veto``)."""


@action_class("allow", when=lambda game: game.options.policier_veto, universe_only=True)
class Allow(Action):
    """The Policier's player lets the move or card just announced happen."""


@action_class("end")
class End(Action):
    """End the turn: the Passante walks one zone."""


NOTATION = Notation(
    Start, WishCard, CharacterCard, DieRoll, RoundEvent, DrawCharacter, Move, Board, Drive, Play, Target,
    Send, Discard, Keep, Hint, Name, Call, Meow, Hiss, Purr, Mime, Reach, ReachPlayer, Knock, Stand, Sit,
    Glare, Lay, Veto, Allow, End, Pass,
)  # fmt: skip
"""The notation of every action, in universe order (an action's index is its id)."""


def _by_number(cls: type[Action]) -> dict[int, Any]:
    """Every action of ``cls`` (one wish-number field), interned, by wish number."""
    return dict(zip(WISH_NUMBERS, NOTATION.every(cls), strict=True))


def _by_char(cls: type[Action]) -> tuple[tuple[Any, ...], ...]:
    """Every action of ``cls`` (a character and a location), interned: ``table[char][location]``."""
    flat = NOTATION.every(cls)
    return tuple(flat[c * len(LOCATIONS) : (c + 1) * len(LOCATIONS)] for c in CHARACTERS)


# Interned actions: legal_actions returns shared objects.
STARTS: dict[int, Start] = {z: NOTATION.make(Start, z) for z in (ECOLE, CAFE)}
WISH_CARDS: dict[int, WishCard] = _by_number(WishCard)
CHARACTER_CARDS: tuple[CharacterCard, ...] = NOTATION.every(CharacterCard)
DIE_ROLLS: tuple[DieRoll, ...] = NOTATION.every(DieRoll)
EVENTS: tuple[RoundEvent, ...] = NOTATION.every(RoundEvent)
DRAW, KEEP, END = NOTATION.make(DrawCharacter), NOTATION.make(Keep), NOTATION.make(End)
MOVES: tuple[tuple[Move, ...], ...] = _by_char(Move)
BOARDS: tuple[Board, ...] = NOTATION.every(Board)
DRIVES: tuple[Drive, ...] = NOTATION.every(Drive)
PLAYS: tuple[Play, ...] = NOTATION.every(Play)
TARGETS: tuple[Target, ...] = NOTATION.every(Target)
SENDS: tuple[tuple[Send, ...], ...] = _by_char(Send)
DISCARDS: dict[int, Discard] = _by_number(Discard)
HINTS: tuple[tuple[Hint, ...], ...] = _by_char(Hint)
LAYS: dict[int, Lay] = _by_number(Lay)
NAMES: dict[int, Name] = _by_number(Name)
CALLS: tuple[tuple[Call, ...], ...] = _by_char(Call)
SOUNDS = (NOTATION.make(Meow), NOTATION.make(Hiss), NOTATION.make(Purr))
MIMES: tuple[Mime, ...] = NOTATION.every(Mime)
REACHES: tuple[Reach, ...] = NOTATION.every(Reach)
REACH_PLAYERS: tuple[ReachPlayer, ...] = NOTATION.every(ReachPlayer)
KNOCKS: tuple[Knock, ...] = NOTATION.every(Knock)
STAND, SIT = NOTATION.make(Stand), NOTATION.make(Sit)
GLARES: tuple[Glare, ...] = NOTATION.every(Glare)
PRIVILEGE: dict[type, int] = {
    Name: POETE,
    Call: GARCON,
    Meow: CHAT,
    Hiss: CHAT,
    Purr: CHAT,
    Mime: COMEDIENNE,
    Reach: MENDIANTE,
    ReachPlayer: MENDIANTE,
    Knock: GARDIEN,
    Stand: INSTITUTRICE,
    Sit: INSTITUTRICE,
    Glare: INSTITUTRICE,
}
"""Each table privilege's signal and the character whose heart gives it (the Policier's is the veto)."""
SIGNALS = tuple(PRIVILEGE)
SIGNAL_VERBS = tuple(dict.fromkeys(spec_of(kind).verb for kind in SIGNALS))
"""The signals' verbs: name, call, meow, hiss, purr, mime, reach, knock, stand, sit, glare."""


@lru_cache(maxsize=256)
def _free_signals(char: int, player: int, n: int) -> tuple[Action, ...]:
    """The signals of ``char``'s privilege that do not depend on the hand."""
    partners = [q for q in range(n) if q != player]
    if char == CHAT:
        return SOUNDS
    if char == COMEDIENNE:
        return MIMES
    if char == MENDIANTE:
        return (*REACHES, *(REACH_PLAYERS[q] for q in partners))
    if char == GARDIEN:
        return KNOCKS
    if char == INSTITUTRICE:
        return (STAND, SIT, *(GLARES[q] for q in partners))
    return ()


MOVE_TABLE = tuple(
    tuple(tuple(MOVES[c][z] for z in (CHAT_MOVES[at] if c == CHAT else NEIGHBOURS[at])) for at in LOCATIONS)
    for c in CHARACTERS
)
"""Every ordinary move of character ``c`` from location ``at``: ``MOVE_TABLE[c][at]``."""
FREE = tuple(tuple(not blocked >> c & 1 for c in CHARACTERS) for blocked in range(256))
"""``FREE[blocked]``: for each character, whether it is not in the ``blocked`` mask (for ``compress``)."""
_AT = tuple.__getitem__
_chain = chain.from_iterable
VETO, ALLOW = NOTATION.make(Veto), NOTATION.make(Allow)
PASS = NOTATION.make(Pass)
DRIVES_AWAY = tuple(tuple(d for d in DRIVES if d.to != at) for at in LOCATIONS)
"""The Omnibus's drives from each location to another one (option ``omnibus_must_leave``)."""
BOARDABLE = tuple(c for c in CHARACTERS if c != CHAT)
"""Characters that ever ride the Omnibus (never the Chat)."""
PLAY_BIT = 9
ANY_MOMENT = (MENDIANTE, GARDIEN, INSTITUTRICE)
"""The privileges the cards say are usable « à n'importe quel moment » / « quand vous le souhaitez »:
given in a window between moves too (option ``lay_wishes="anytime"``)."""
VISIBLE_IF_AT = tuple(
    tuple(
        sum(1 << w for w in WISH_NUMBERS if not WISH_MASK[w] >> c & 1 or WISH_ZONE[w] == at)
        for at in range(max(LOCATIONS) + 1)
    )
    for c in CHARACTERS
)
"""``VISIBLE_IF_AT[c][at]``: the wishes character ``c`` standing on ``at`` leaves possible (those
not asking for ``c``, and those asking for ``c`` there); a wish is visible when every character
leaves it possible, so the visible wishes are the AND of one entry per character, no loop."""
"""Bit of ``vetoed`` that stands for playing the character card (bits 0-8: the pieces)."""


_WISH_CACHE: dict[int, tuple[tuple[WishCard, ...], tuple[tuple[Action, float], ...]]] = {}
"""Deals and chance outcomes by wish-deck contents (a deck's two lists are built once: the chance
node asks for its outcomes, then the deal checks its legality; a search revisits the same decks)."""


_CHUNK_BITS = 13
_CHUNKS: tuple[dict[int, tuple[int, ...]], ...] = ({}, {}, {})
"""The wish numbers of each 13-bit slice of a deck mask, by slice value (filled on demand)."""
_PAIRS = tuple(
    {w: (WISH_CARDS[w], 1.0 / n if n else 0.0) for w in WISH_NUMBERS} for n in range(NUM_WISHES + 1)
)
"""``_PAIRS[n][w]``: the chance outcome ``(wish w, 1/n)`` of a deck of ``n`` cards, made once."""


def _chunk_numbers(k: int, value: int) -> tuple[int, ...]:
    table = _CHUNKS[k]
    numbers = table.get(value)
    if numbers is None:
        base = k * _CHUNK_BITS
        numbers = tuple(base + b for b in range(_CHUNK_BITS) if value >> b & 1)
        table[value] = numbers
    return numbers


def _wish_deck_lists(deck: int) -> tuple[tuple[WishCard, ...], tuple[tuple[Action, float], ...]]:
    cached = _WISH_CACHE.get(deck)
    if cached is None:
        mask = (1 << _CHUNK_BITS) - 1
        numbers = (
            _chunk_numbers(0, deck & mask)
            + _chunk_numbers(1, deck >> _CHUNK_BITS & mask)
            + _chunk_numbers(2, deck >> 2 * _CHUNK_BITS)
        )
        # no tuple is allocated per outcome: cards and (card, 1/n) pairs are shared
        cached = (
            tuple(map(WISH_CARDS.__getitem__, numbers)),
            tuple(map(_PAIRS[len(numbers)].__getitem__, numbers)),
        )
        if len(_WISH_CACHE) >= 64:  # small: random play never comes back, and a big cache slows the GC
            _WISH_CACHE.clear()
        _WISH_CACHE[deck] = cached
    return cached


def _wish_draws(deck: int) -> list[Action]:
    return list(_wish_deck_lists(deck)[0])


@lru_cache(maxsize=512)
def _character_draws(deck: int) -> tuple[CharacterCard, ...]:
    return tuple(CHARACTER_CARDS[c] for c in bits(deck))


def _wish_outcomes(deck: int) -> list[tuple[Action, float]]:
    return list(_wish_deck_lists(deck)[1])


@lru_cache(maxsize=512)
def _character_outcomes(deck: int) -> tuple[tuple[Action, float], ...]:
    draws = _character_draws(deck)
    return tuple((a, 1.0 / len(draws)) for a in draws)


def _summary(name: str, value: Any) -> Any:
    """What every seat sees of a private field: the wish deck's size, each hand's and discard pile's."""
    if name == "wish_deck":
        return value.bit_count()
    return tuple(map(len, value))


# ---------------------------------------------------------------------------- phases
@dataclass(frozen=True)
class Phase:
    """A phase, declared once: its name (what a student reads), who acts in it, and whether a
    move is over when the game stands in it (a window between moves may open there)."""

    name: str
    acts: Literal["first", "turn", "chance", "actor", "vetoer", "asked", "nobody"]
    rest: bool = False


PHASES = (
    Phase("choose the Passante's start", "first"),  # after the deal, joueur 1 places her
    Phase("turn", "turn", rest=True),  # draw, move, board/drive, play, signal, lay, end
    Phase("boarding the Omnibus", "turn", rest=True),  # board X or drive Z
    Phase("character card drawn", "chance"),
    Phase("character effect", "actor"),  # the effect waits for its player's choice
    Phase("Comédienne's die", "chance"),
    Phase("end-of-round card", "chance"),
    Phase("game over", "nobody", rest=True),  # the last window opens before the count
    Phase("Policier's veto", "vetoer"),  # stop the move or card just announced, or allow it
    Phase("wishes laid between moves", "asked"),  # lay N or pass, seat after seat
)
"""Every phase in its number's order.  The number is stored in states and tensors: append only."""
SETUP, MAIN, BOARDING, CARD_DRAW, EFFECT, DIE, EVENT, OVER, VETO_PHASE, WINDOW = range(len(PHASES))
PHASE_NAMES = tuple(phase.name for phase in PHASES)
_CHANCE_PHASES = frozenset(i for i, phase in enumerate(PHASES) if phase.acts == "chance")
_REST = frozenset(i for i, phase in enumerate(PHASES) if phase.rest)
_ACTS: dict[str, Callable[[Any], int]] = {
    "first": lambda state: 0,
    "turn": operator.attrgetter("turn_player"),
    "chance": lambda state: CHANCE,
    "actor": operator.attrgetter("actor"),
    "vetoer": operator.attrgetter("vetoer"),
    "asked": lambda state: state.asking[0],
    "nobody": lambda state: TERMINAL,
}
_WHO = tuple(_ACTS[phase.acts] for phase in PHASES)
"""``_WHO[phase](state)``: who acts (when no wish draw is owed), derived from :data:`PHASES`."""
# Effect kinds resolved in the EFFECT phase are the characters' own indices.
RETURN_TURN, RETURN_ROUND = 0, 1
"""Where an effect hands control back: to the turn it was played in, or to the next round."""


@dataclass(frozen=True)
class PassanteOptions:
    """Rule options: each is a reading of a seed sentence (see docs/rules/passante.md)."""

    solo_hand_size: Annotated[int, Between(1, 10)] = 5
    """Wishes dealt to a lone player (the seed lists only 4, 3 and 2 players)."""
    heart_leaves_with_card: bool = False
    """False: the heart stays pinned after its card is played (until the Passante or the
    Mendiante removes it, or its owner draws a new card).  True: playing the card unpins it."""
    omnibus_carries_controlled: bool = False
    """May the Omnibus carry a character whose heart belongs to another player?"""
    carried_counts_as_moved: bool = False
    """Does riding the Omnibus count as that character's move of the turn?"""
    must_move_twice: bool = False
    """True: a turn may end only after two moves (or when no move is possible)."""
    nearest_by_row: bool = False
    """How "le plus proche" is measured: False = on the board graph (the place joins every zone,
    so école and café are 2 apart), True = along the row of zones (école-café is 3)."""
    garcon_moves_himself: bool = False
    """May the Garçon de café's effect send the Garçon himself?"""
    effects_respect_control: bool = False
    """True: effects may not pick a character whose heart belongs to another player."""
    policier_uses_place: bool = False
    """May the Policier send characters onto the central place (it is "adjacent" to every zone)?"""
    comedienne_die: Literal["effect", "swap"] = "effect"
    """The Comédienne's fallback die: "effect" applies the rolled character's effect, "swap"
    swaps her with the rolled character if it stands elsewhere (and is not the Chat)."""
    institutrice_from_own_zone: bool = False
    """False: the copied effect works from the copied character's place, as if its card were
    played.  True: from the Institutrice's place, the Institutrice taking that character's role."""
    mendiante_clears_all_hearts: bool = False
    """False: only the hearts on the Mendiante's zone are removed; True: every heart."""
    mendiante_discards_leave_game: bool = False
    """False: the discarded character cards go under the deck; True: out of the game."""
    poete_min_discard: Annotated[int, Between(0, 3)] = 1
    """The least number of wishes the Poète's player discards ("minimum 1 Souhait")."""
    round_event: bool = True
    """Apply a random remaining character's effect at the end of every round."""
    round_event_chooser: Literal["last", "next"] = "last"
    """Who makes the end-of-round effect's choices: "last" = the player who ended the round,
    "next" = the player who starts the next one."""
    final_round_event: bool = False
    """Also at the end of the very last turn (before the count)."""
    turn_order_follows_passante: bool = True
    """Players play "dans le sens de la Passante": the order reverses when she turns back."""
    open_hands: bool = False
    """Analysis variant: every wish hand is public (perfect communication)."""
    table_talk: bool = False
    """Rules version 2's switch for the fold (``privileges="hint"``): True selects the fold
    whatever ``privileges`` says."""
    privileges: Literal["cards", "hint", "none"] = "cards"
    """The table privileges (« Vous pouvez à présent … »): "cards" (the text) = each character's
    own signal for the player whose heart is on it, once per turn on their turn (``name``,
    ``call``, ``meow``/``hiss``/``purr``, ``mime``, ``reach``, ``knock``, ``stand``/``sit``/
    ``glare``; the Policier's is the veto); "hint" = all folded into one ``hint X Z`` any player
    with a heart may give; "none" = no signal at all (rules versions 1 and 2)."""
    lay_wishes: Literal["anytime", "choice", "automatic"] = "anytime"
    """« A n'importe quel moment durant la partie, si la carte Souhait d'un joueur représente une
    situation visible … son possesseur peut la poser »: "anytime" (the text, rules version 4) = on
    their own turn between actions, and between two moves of anybody's turn when a wish has just
    become visible or a card has just been drawn: every seat holding wishes is asked in seat order
    (``lay N`` or ``pass``; see docs/rules/passante.md for what the asking reveals: nothing);
    "choice" = only on the owner's own turn (rules versions 2 and 3); "automatic" = the engine
    lays it the moment it is visible (rules version 1)."""
    window_asks: Literal["everyone", "holders"] = "everyone"
    """Who is asked between moves (``lay_wishes="anytime"``): "everyone" holding wishes (being
    asked tells nothing about a hand); "holders" = only the seats holding a wish visible now
    (shorter games, but everyone learns who holds one, even when it is kept)."""
    draw_first: bool = False
    """True: a character card is drawn only as the first action of the turn.  False (the text):
    once per turn, at any point, while holding none."""
    play_while_boarding: bool = True
    """« à n'importe quel moment durant son tour »: the card may be played while characters are
    boarding the Omnibus (False: not between ``board`` and ``drive``)."""
    omnibus_must_leave: bool = False
    """True: the Omnibus drives to another location.  False (the text, « n'importe quelle
    zone »): it may also stay where it stands (its passengers get off there)."""
    policier_veto: bool = True
    """« empêcher un joueur d'effectuer un déplacement ou jouer un personnage, une fois durant
    son tour »: the player whose heart is on the Policier may stop, once per turn of another
    player, a move or a card as it is announced (``veto`` / ``allow``)."""

    def __post_init__(self) -> None:
        check_declared(self)  # choices (Literal) and ranges (Between), declared once above
        if self.table_talk:
            object.__setattr__(self, "privileges", "hint")


HAND_SIZE = {2: 4, 3: 3, 4: 2}
"""Seed: "Selon le nombre de joueurs (4, 3 ou 2), 2, 3 ou 4 cartes Souhait"."""


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


class PassanteState(State):
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

    def __init__(self, game: PassanteGame, seed: int | None) -> None:
        super().__init__(game, seed)
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
        self.pdir = 1
        self.arrivals = 0
        self.last_turn = False  # the turn being played is the final one
        self.ended = False  # the final turn is over (a last end-of-round card may remain)
        # effect under resolution
        self.eff = -1  # character whose effect waits for a choice
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

    def occupancy(self) -> list[int]:
        """Bitmask of the characters on each location."""
        occ = [0] * 5
        for c, z in enumerate(self.pos):
            occ[z] |= 1 << c
        return occ

    def characters_at(self, loc: int) -> list[int]:
        return [c for c, z in enumerate(self.pos) if z == loc]

    def is_visible(self, wish: int) -> bool:
        """Is the wish's situation on the board (its characters on its zone, alone or accompanied)?"""
        m = WISH_MASK[wish]
        zone = WISH_ZONE[wish]
        return all(self.pos[c] == zone for c in bits(m))

    def controllers(self, char: int) -> list[int]:
        return [p for p, h in enumerate(self.hearts) if h == char]

    def may_move(self, player: int, char: int) -> bool:
        """Seed: "Aucun autre joueur ne peut déplacer ce personnage" (the one with a heart)."""
        seat = self.check_player(player)
        if not _in_range(char, 8):
            raise ValueError(f"char must be a character index 0..7, got {char!r}")
        assert seat is not None
        return self._may_move(seat, char)

    def _may_move(self, player: int, char: int) -> bool:
        # a character wearing several hearts may be moved by each of their owners
        return self.hearts[player] == char or char not in self.hearts

    def distance(self, a: int, b: int) -> int:
        table = ROW_DISTANCE if self.game.options.nearest_by_row else GRAPH_DISTANCE
        return table[a][b]

    def _derive(self) -> None:
        laid = 0
        for wishes in self.fulfilled:
            for w in wishes:
                laid |= 1 << w
        self.laid = laid
        self._to_move = self._who()

    def visible_wishes(self) -> int:
        """Every wish whose situation is on the board now, as a bitmask (bit n: wish n)."""
        p0, p1, p2, p3, p4, p5, p6, p7 = self.pos
        t0, t1, t2, t3, t4, t5, t6, t7 = VISIBLE_IF_AT
        return t0[p0] & t1[p1] & t2[p2] & t3[p3] & t4[p4] & t5[p5] & t6[p6] & t7[p7]

    # ------------------------------------------------------------------ legal moves
    def _legal_actions(self) -> list[Action]:
        if self.pending:
            return _wish_draws(self.wish_deck)
        actions: list[Action] = _LEGAL[self.phase](self)
        return actions

    def _setup_actions(self) -> list[Action]:
        return [STARTS[ECOLE], STARTS[CAFE]]

    def _chance_actions(self) -> list[Action]:
        return [a for a, _ in self._chance_outcomes()]

    def _boarding_actions(self) -> list[Action]:
        acts: list[Action] = []
        if len(self.boarding) < 3:
            last = self.boarding[-1] if self.boarding else -1
            acts.extend(BOARDS[c] for c in self._boardable() if c > last)
        acts.extend(self._drives())
        card = self.char_hand[self.turn_player]
        if card >= 0 and self.game.options.play_while_boarding and not self.vetoed >> PLAY_BIT & 1:
            acts.append(PLAYS[card])
        return acts

    def _veto_actions(self) -> list[Action]:
        return [VETO, ALLOW]

    def _no_actions(self) -> list[Action]:
        return []

    def _window_actions(self) -> list[Action]:
        """The asked seat: lay a visible wish of its hand, give an any-moment signal, or pass."""
        q = self.asking[0]
        acts: list[Action] = [LAYS[w] for w in self._layable(q)]
        char = self.hearts[q]
        if char in ANY_MOMENT and not self.signalled >> q & 1 and self.game.options.privileges == "cards":
            acts.extend(_free_signals(char, q, self.game.num_players))
        acts.append(PASS)
        return acts

    def _drives(self) -> tuple[Action, ...]:
        if self.game.options.omnibus_must_leave:
            return DRIVES_AWAY[self.bus]
        return DRIVES

    def _layable(self, player: int) -> list[int]:
        """Wishes of ``player``'s hand visible on the board now (choice mode: ``lay N``)."""
        pos = self.pos
        out = []
        for w in self.hands[player]:
            zone = WISH_ZONE[w]
            for c in WISH_CHARS[w]:
                if pos[c] != zone:
                    break
            else:
                out.append(w)
        return out

    def _main_actions(self) -> list[Action]:
        p = self.turn_player
        opts = self.game.options
        acts: list[Action] = (
            [LAYS[w] for w in self._layable(p)] if not self.auto_lay and self.hands[p] else []
        )
        card = self.char_hand[p]
        if card < 0:
            if (self.fresh if opts.draw_first else not self.drew) and (self.char_deck or self.char_under):
                acts.append(DRAW)
        elif not self.vetoed >> PLAY_BIT & 1:
            acts.append(PLAYS[card])
        moves = self._piece_moves()
        acts += moves
        if not self.hinted and self.hearts[p] >= 0 and opts.privileges != "none":
            if opts.privileges == "cards":
                char = self.hearts[p]
                if char in (POETE, GARCON):
                    acts.extend(self._signals(p))
                else:
                    acts.extend(_free_signals(char, p, self.game.num_players))
            else:
                acts.extend(self._hints(p))
        if not opts.must_move_twice or self.moves >= 2 or not moves:
            acts.append(END)
        return acts

    def _piece_moves(self) -> list[Action]:
        if self.moves >= 2:
            return []
        blocked = self.moved | self.vetoed
        hearts = self.hearts
        if len(hearts) > 1:
            own = hearts[self.turn_player]
            for h in hearts:
                if h >= 0 and h != own:
                    blocked |= 1 << h
        here = map(_AT, MOVE_TABLE, self.pos)  # each character's moves from where it stands
        acts: list[Action] = list(_chain(compress(here, FREE[blocked & 255]) if blocked & 255 else here))
        if not blocked >> OMNIBUS & 1:
            if self.pos.count(self.bus):
                acts += map(BOARDS.__getitem__, self._boardable())
            acts += DRIVES_AWAY[self.bus] if self.game.options.omnibus_must_leave else DRIVES
        return acts

    def _boardable(self) -> list[int]:
        """Characters that may climb into the Omnibus where it stands."""
        here = [c for c in compress(CHARACTERS, map(self.bus.__eq__, self.pos)) if c != CHAT]
        if not here:
            return here
        p = self.turn_player
        carry_controlled = self.game.options.omnibus_carries_controlled
        boarding = self.boarding
        return [c for c in here if c not in boarding and (carry_controlled or self._may_move(p, c))]

    def _hints(self, player: int) -> list[Action]:
        pairs = {(c, WISH_ZONE[w]) for w in self.hands[player] for c in WISH_CHARS[w]}
        return [HINTS[c][z] for c, z in sorted(pairs)]

    def _signals(self, player: int) -> list[Action]:
        """The signals of the privilege of the character ``player``'s heart is on."""
        char = self.hearts[player]
        if char == POETE:
            return [NAMES[w] for w in self.hands[player]]
        if char == GARCON:
            pairs = {(c, WISH_ZONE[w]) for w in self.hands[player] for c in WISH_CHARS[w]}
            return [CALLS[c][z] for c, z in sorted(pairs)]
        return list(_free_signals(char, player, self.game.num_players))

    def _effect_actions(self) -> list[Action]:
        eff = self.eff
        if eff == POETE:
            hand = self.hands[self.actor]
            acts: list[Action] = [DISCARDS[w] for w in hand]
            if self.eff_count >= self.game.options.poete_min_discard or not hand:
                acts.append(KEEP)
            return acts
        if eff == POLICIER:
            c = self.eff_queue[0]
            return [SENDS[c][z] for z in self._policier_destinations(c)]
        return [TARGETS[c] for c in self._targets()]

    def _targetable(self, char: int) -> bool:
        return not self.game.options.effects_respect_control or self._may_move(self.actor, char)

    def _nearest(self, candidates: list[int], origin: int) -> list[int]:
        if not candidates:
            return []
        best = min(self.distance(origin, self.pos[c]) for c in candidates)
        return [c for c in candidates if self.distance(origin, self.pos[c]) == best]

    def _targets(self) -> list[int]:
        """Characters the pending effect may pick now (main case, else the "à défaut" one)."""
        eff, src = self.eff, self.src
        here = self.pos[src]
        others = [c for c in CHARACTERS if c != src and self._targetable(c)]
        if eff == GARCON:
            if self.game.options.garcon_moves_himself and here != CAFE and self._targetable(src):
                others = [src, *others]
            pool = [c for c in others if self.pos[c] != CAFE]
            same = [c for c in pool if self.pos[c] == here]
            return same or self._nearest(pool, here)
        if eff == CHAT:
            # adjacent zones are the nearest ones; "à défaut, les deux plus proches"
            # (the Chat never stands on the central place, even when attracted there)
            pool = [c for c in others if self.pos[c] != here and not (c == CHAT and here == PLACE)]
            return self._nearest(pool, here)
        if eff == COMEDIENNE:
            return [c for c in others if c != CHAT and self.pos[c] != here]
        if eff == INSTITUTRICE:
            pool = [c for c in CHARACTERS if c not in (src, INSTITUTRICE)]
            same = [c for c in pool if self.pos[c] == here]
            return same or self._nearest(pool, here)
        return []

    def _policier_destinations(self, char: int) -> list[int]:
        here = self.pos[self.src]
        if here == PLACE:
            return list(ZONES)
        dests = list(ROW_NEIGHBOURS[here])
        if self.game.options.policier_uses_place and char != CHAT:
            dests.append(PLACE)
        return dests

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.pending:
            return _wish_outcomes(self.wish_deck)
        if self.phase == CARD_DRAW:
            if self.char_deck:
                return list(_character_outcomes(self.char_deck))
            return [(CHARACTER_CARDS[self.char_under[0]], 1.0)]
        if self.phase == DIE:
            return [(DIE_ROLLS[c], 1.0 / len(DIE_FACES)) for c in DIE_FACES]
        if self.phase == EVENT:
            cards = bits(self.char_deck | sum(1 << c for c in self.char_under))
            return [(EVENTS[c], 1.0 / len(cards)) for c in cards]
        return []

    # ------------------------------------------------------------------ errors
    def _explain_illegal(self, action: Action) -> IllegalAction:
        who = self.current_player
        phase_name = "wish draw" if self.pending else PHASE_NAMES[self.phase]
        chance_kinds = (WishCard, CharacterCard, DieRoll, RoundEvent)
        if who == CHANCE:
            if not isinstance(action, chance_kinds):
                return IllegalAction(
                    "chance-node", f"a chance outcome is due now ({phase_name}), not {action}", action
                )
            return IllegalAction(
                "chance-outcome", f"{action} is not a possible outcome of the {phase_name}", action
            )
        if isinstance(action, chance_kinds):
            return IllegalAction("not-chance", f"{action} is a chance outcome; now: {phase_name}", action)
        if self.phase == SETUP:
            return IllegalAction(
                "passante-start", "the first player first puts the Passante on 'ecole' or 'cafe'", action
            )
        if isinstance(action, Start):
            return IllegalAction("passante-start", "the Passante's start is chosen once, before play", action)
        if self.phase == VETO_PHASE:
            return IllegalAction(
                "policier-veto",
                f"{self.player_name(self.vetoer)} (Policier) answers {self.proposed} first: 'veto' or 'allow'",
                action,
            )
        if self.phase == WINDOW:
            return self._explain_window(action)
        if isinstance(action, Pass):
            if not self.anytime:
                return IllegalAction(
                    "lay-window",
                    f"no window between moves (option lay_wishes={self.game.options.lay_wishes!r})",
                    action,
                )
            return IllegalAction(
                "lay-window", "'pass' answers the question asked between moves; none is open", action
            )
        if isinstance(action, (Veto, Allow)):
            if not self.game.options.policier_veto:
                return IllegalAction(
                    "policier-veto", "the Policier's veto is off (option policier_veto)", action
                )
            return IllegalAction(
                "policier-veto", "'veto' and 'allow' answer a move or card just announced", action
            )
        if self.phase == EFFECT:
            return self._explain_effect(action)
        if isinstance(action, Lay):
            if self.auto_lay:
                return IllegalAction(
                    "lay-wish", "wishes are laid down automatically (option lay_wishes='automatic')", action
                )
            if self.phase != MAIN:
                return IllegalAction(
                    "lay-wish", "a wish is laid down between moves, not in the middle of one", action
                )
            if action.wish not in self.hands[self.turn_player]:
                return IllegalAction("lay-wish", f"wish {action.wish} is not in the player's hand", action)
            return IllegalAction("lay-wish", f"wish {action.wish} is not visible on the board", action)
        if isinstance(action, (Target, Send, Discard, Keep)):
            return IllegalAction(
                "no-effect-pending", f"{action} answers a character effect; none is pending", action
            )
        if self.phase == BOARDING:
            return self._explain_boarding(action)
        return self._explain_turn(action)

    def _explain_boarding(self, action: Action) -> IllegalAction:
        """Why an action is refused while characters board the Omnibus."""
        if isinstance(action, Board):
            return self._explain_board(action.char)
        if isinstance(action, Drive):
            return IllegalAction("omnibus-move", "the Omnibus must drive to another location", action)
        if isinstance(action, Play) and self.char_hand[self.turn_player] == action.char:
            if self.vetoed >> PLAY_BIT & 1:
                return IllegalAction("policier-veto", "the Policier stopped this card this turn", action)
            return IllegalAction(
                "omnibus-boarding",
                "no card while characters board the Omnibus (option play_while_boarding is off)",
                action,
            )
        return IllegalAction(
            "omnibus-boarding",
            "characters are boarding: 'board X' or 'drive Z' to finish the move",
            action,
        )

    def _explain_turn(self, action: Action) -> IllegalAction:
        """Why an action of the turn (draw, play, signal, move, end) is refused now."""
        p = self.turn_player
        if isinstance(action, DrawCharacter):
            if self.char_hand[p] >= 0:
                return IllegalAction("draw-character", "a player holding a character card draws none", action)
            if self.game.options.draw_first and not self.fresh:
                return IllegalAction(
                    "draw-character", "a character card is drawn at the start of the turn", action
                )
            if self.drew:
                return IllegalAction("draw-character", "one character card drawn per turn", action)
            return IllegalAction("draw-character", "the character deck is empty", action)
        if isinstance(action, Play):
            if self.char_hand[p] == action.char and self.vetoed >> PLAY_BIT & 1:
                return IllegalAction("policier-veto", "the Policier stopped this card this turn", action)
            return IllegalAction(
                "play-character",
                f"{self.player_name(p)} does not hold the {PIECE_TITLES[action.char]} card",
                action,
            )
        if isinstance(action, SIGNALS):
            return self._explain_signal(action)
        if isinstance(action, Hint):
            if self.game.options.privileges != "hint":
                return IllegalAction(
                    "no-talking",
                    "no 'hint': the privileges are not folded into one hint (option privileges='hint')",
                    action,
                )
            if self.hinted:
                return IllegalAction("hint", "one hint per turn", action)
            if self.hearts[p] < 0:
                return IllegalAction("hint", "only a player whose heart is on a character may hint", action)
            return IllegalAction("hint", "a hint names a character and the zone of a wish in hand", action)
        if isinstance(action, End):
            return IllegalAction(
                "two-moves", "with must_move_twice, make two moves before ending the turn", action
            )
        if isinstance(action, (Move, Board, Drive)):
            return self._explain_move(action)
        return IllegalAction("not-legal", f"{action} is not legal now ({PHASE_NAMES[self.phase]})", action)

    def _explain_move(self, action: Move | Board | Drive) -> IllegalAction:
        """Why a move of a piece (a character, or the Omnibus) is refused now."""
        p = self.turn_player
        if self.moves >= 2:
            return IllegalAction("two-moves", "two moves per turn", action)
        piece = action.char if isinstance(action, (Move, Board)) else OMNIBUS
        if isinstance(action, Board):
            piece = OMNIBUS
        if self.moved >> piece & 1:
            return IllegalAction(
                "distinct-pieces", f"the {PIECE_TITLES[piece]} already moved this turn", action
            )
        if self.vetoed >> piece & 1:
            return IllegalAction(
                "policier-veto", f"the Policier stopped the {PIECE_TITLES[piece]} this turn", action
            )
        if isinstance(action, Board):
            return self._explain_board(action.char)
        if isinstance(action, Drive):
            return IllegalAction("omnibus-move", "the Omnibus must drive to another location", action)
        assert isinstance(action, Move)
        c = action.char
        if not self._may_move(p, c):
            owner = self.player_name(self.controllers(c)[0])
            return IllegalAction("control", f"the {PIECE_TITLES[c]} wears {owner}'s heart", action)
        if c == CHAT:
            if action.to == PLACE:
                return IllegalAction("chat-move", "the Chat never goes to the central place", action)
            return IllegalAction("chat-move", "the Chat moves one or two zones along the row", action)
        return IllegalAction(
            "adjacent-move",
            f"from {LOCATION_TITLES[self.pos[c]]} a character goes to a neighbouring zone or the place",
            action,
        )

    def _explain_window(self, action: Action) -> IllegalAction:
        q = self.asking[0]
        name = self.player_name(q)
        if isinstance(action, Lay):
            if action.wish not in self.hands[q]:
                return IllegalAction("lay-wish", f"wish {action.wish} is not in {name}'s hand", action)
            return IllegalAction("lay-wish", f"wish {action.wish} is not visible on the board", action)
        if isinstance(action, SIGNALS) and self.game.options.privileges == "cards":
            char = PRIVILEGE[type(action)]
            if char not in ANY_MOMENT:
                return IllegalAction(
                    "privilege",
                    f"the {PIECE_TITLES[char]}'s privilege is used on its player's own turn, "
                    "not between the moves of another",
                    action,
                )
            if self.hearts[q] != char:
                return IllegalAction(
                    "privilege", f"{name}'s heart is not on the {PIECE_TITLES[char]}", action
                )
            if self.signalled >> q & 1:
                return IllegalAction("privilege", "one signal between moves per turn", action)
            return IllegalAction(
                "privilege", "'reach' and 'glare' point at another player of the game", action
            )
        return IllegalAction(
            "lay-window",
            f"between moves, {name} is asked first: 'lay N' (a visible wish of their hand) or 'pass'",
            action,
        )

    def _explain_signal(self, action: Action) -> IllegalAction:
        p = self.turn_player
        privileges = self.game.options.privileges
        char = PRIVILEGE[type(action)]
        verb = str(action).split()[0]
        if privileges != "cards":
            return IllegalAction(
                "no-talking",
                f"'{verb}' is the {PIECE_TITLES[char]}'s privilege; the cards' privileges are off "
                f"(option privileges={privileges!r})",
                action,
            )
        if self.hinted:
            return IllegalAction("privilege", "one signal per turn", action)
        if self.hearts[p] != char:
            return IllegalAction(
                "privilege",
                f"only the player whose heart is on the {PIECE_TITLES[char]} may '{verb}'",
                action,
            )
        if isinstance(action, Name):
            return IllegalAction("privilege", f"wish {action.wish} is not in the player's hand", action)
        if isinstance(action, Call):
            return IllegalAction(
                "privilege", "'call' names a character and the zone of a wish in hand", action
            )
        return IllegalAction("privilege", "'reach' and 'glare' point at another player of the game", action)

    def _explain_board(self, char: int) -> IllegalAction:
        action = BOARDS[char]
        if char == CHAT:
            return IllegalAction("omnibus-no-chat", "the Chat never rides the Omnibus", action)
        if self.pos[char] != self.bus:
            return IllegalAction(
                "omnibus-board", f"the {PIECE_TITLES[char]} is not where the Omnibus stands", action
            )
        if len(self.boarding) >= 3:
            return IllegalAction("omnibus-capacity", "the Omnibus carries at most three characters", action)
        if char in self.boarding:
            return IllegalAction("omnibus-board", f"the {PIECE_TITLES[char]} is already aboard", action)
        if self.boarding and char < self.boarding[-1]:
            return IllegalAction(
                "omnibus-order", "passengers board in the order of the character list", action
            )
        return IllegalAction("control", f"the {PIECE_TITLES[char]} wears another player's heart", action)

    def _explain_effect(self, action: Action) -> IllegalAction:
        eff = self.eff
        name = PIECE_TITLES[eff]
        if eff == POETE:
            if isinstance(action, Discard):
                return IllegalAction("poete", f"wish {action.wish} is not in the player's hand", action)
            if isinstance(action, Keep):
                return IllegalAction(
                    "poete",
                    f"the Poète discards at least {self.game.options.poete_min_discard} wish(es)",
                    action,
                )
            return IllegalAction(
                "effect-pending", "the Poète's player discards ('discard N') or stops ('keep')", action
            )
        if eff == POLICIER:
            if isinstance(action, Send):
                if action.char != self.eff_queue[0]:
                    return IllegalAction(
                        "policier", f"send the {PIECE_TITLES[self.eff_queue[0]]} first (list order)", action
                    )
                return IllegalAction(
                    "policier", "the Policier sends characters to the adjacent zones", action
                )
            return IllegalAction("effect-pending", "the Policier's effect waits for 'send X Z'", action)
        if isinstance(action, Target):
            rule = {GARCON: "garcon", CHAT: "chat", COMEDIENNE: "comedienne", INSTITUTRICE: "institutrice"}[
                eff
            ]
            if eff == COMEDIENNE and action.char == CHAT:
                return IllegalAction(rule, "the Chat cannot be chosen by the Comédienne", action)
            return IllegalAction(
                rule,
                f"the {name}'s effect may pick {', '.join(PIECE_NAMES[c] for c in self._targets())} now",
                action,
            )
        return IllegalAction("effect-pending", f"the {name}'s effect waits for 'target X'", action)

    # ------------------------------------------------------------------ transitions
    def _apply(self, action: Action) -> None:
        phase = self.phase
        if phase == VETO_PHASE:
            proposed = self._resolve_veto(action)
            if proposed is None:  # vetoed: the move or card does not happen
                self._to_move = CHANCE if self.pending else _WHO[self.phase](self)
                return
            action = proposed
        elif not self.veto_used and POLICIER in self.hearts and self._vetoable(action):
            self.proposed = action
            self.phase = VETO_PHASE
            self._to_move = CHANCE if self.pending else self.vetoer
            return
        kind = type(action)
        if kind in _TURN_ACTIONS and self.phase != WINDOW:
            self.fresh = False  # with draw_first, a character card is drawn first thing or not at all
        if self.pending:
            assert isinstance(action, WishCard)
            self._deal_wish(action.wish)
        else:
            _DISPATCH[kind](self, action)
        if self.auto_lay:
            self._settle()
        elif not self.wish_deck:
            self.pending = ()
        if self.pending:
            self._to_move = CHANCE
            return
        if self.anytime and (kind in _MAY_SHOW or self.dealt_to) and self.phase in _REST:
            self._open_window()
        self._to_move = _WHO[self.phase](self)

    def _resolve_veto(self, action: Action) -> Action | None:
        """The Policier's player's word: the proposed move or card to play now, or None (vetoed)."""
        proposed = self.proposed
        self.proposed, self.vetoer = None, -1
        self.phase = BOARDING if self.boarding else MAIN
        if action is VETO or isinstance(action, Veto):
            self.veto_used = True
            if isinstance(proposed, Play):
                self.vetoed |= 1 << PLAY_BIT
            elif isinstance(proposed, Move):
                self.vetoed |= 1 << proposed.char
            else:
                self.vetoed |= 1 << OMNIBUS
            self._settle()
            return None
        assert proposed is not None
        return proposed

    def _open_window(self) -> None:
        """« A n'importe quel moment durant la partie … son possesseur peut la poser »: a moment
        between moves.  When a wish not laid has just become visible, every seat holding wishes is
        asked in seat order; when only a card was drawn, the seats that drew; the player whose turn
        goes on lays in their own turn.  Who is asked depends on public facts only (the board,
        the wishes laid, hand sizes, who drew), so being asked tells nothing about a hand; with
        ``window_asks="holders"`` only the seats holding a visible wish are asked (that is told)."""
        now = self.visible_wishes() & ~self.laid
        fresh = now & ~self.shown
        self.shown = now
        dealt, self.dealt_to = self.dealt_to, 0
        if not now or not (fresh or dealt):
            return
        ends_turn = self.phase == OVER
        hands, me = self.hands, self.turn_player
        holders = self.game.options.window_asks == "holders"
        asked = tuple(
            q
            for q in range(self.game.num_players)
            if hands[q]
            and (fresh or dealt >> q & 1)
            and (ends_turn or q != me)
            and not (holders and not self._layable(q))
        )
        if asked:
            self.asking = asked
            self.window_return = self.phase
            self.phase = WINDOW

    # one method per action type (dispatched by type through _DISPATCH)
    def _do_start(self, action: Start) -> None:
        self.passante = action.zone
        self.pdir = 1 if action.zone == ECOLE else -1
        self._start_turn(0)

    def _do_card(self, action: CharacterCard) -> None:
        self._take_character(action.char)

    def _do_die(self, action: DieRoll) -> None:
        self._die(action.char)

    def _do_event(self, action: RoundEvent) -> None:
        self._round_event(action.char)

    def _do_draw(self, action: DrawCharacter) -> None:
        self.phase = CARD_DRAW
        self.drew = True

    def _do_lay(self, action: Lay) -> None:
        p = self.asking[0] if self.phase == WINDOW else self.turn_player
        self.hands[p] = tuple(w for w in self.hands[p] if w != action.wish)
        self.fulfilled[p] = (*self.fulfilled[p], action.wish)
        self.laid |= 1 << action.wish
        self.laid_log = (*self.laid_log, (len(self.history), p, action.wish))
        if self.wish_deck:
            self.pending = (*self.pending, p)

    def _do_move(self, action: Move) -> None:
        self.pos[action.char] = action.to
        self.moved |= 1 << action.char
        self.moves += 1

    def _do_board(self, action: Board) -> None:
        self.boarding = (*self.boarding, action.char)
        self.phase = BOARDING

    def _do_drive(self, action: Drive) -> None:
        self._drive(action.to)

    def _do_play(self, action: Play) -> None:
        self._play(action.char)

    def _do_target(self, action: Target) -> None:
        self._target(action.char)

    def _do_send(self, action: Send) -> None:
        self.pos[action.char] = action.to
        self.eff_queue = self.eff_queue[1:]
        if not self.eff_queue:
            self._end_effect()

    def _do_discard(self, action: Discard) -> None:
        p = self.actor
        self.secrets = (*self.secrets, (len(self.history), p))
        self.hands[p] = tuple(w for w in self.hands[p] if w != action.wish)
        self.discards[p] = (*self.discards[p], action.wish)
        self.eff_count += 1

    def _do_keep(self, action: Keep) -> None:
        self.pending = self.pending + (self.actor,) * self.eff_count
        self._poete_next()

    def _do_hint(self, action: Hint) -> None:
        self.hints = (*self.hints, (self.turn_player, action.char, action.zone))
        self.said = (*self.said, (len(self.history), self.turn_player, "call", action.char, action.zone))
        self.hinted = True

    def _do_end(self, action: End) -> None:
        self._end_turn()

    def _do_pass(self, action: Pass) -> None:
        self.asking = self.asking[1:]
        if not self.asking:
            self.phase = self.window_return

    def _do_signal(self, action: Action) -> None:
        if self.phase == WINDOW:
            p = self.asking[0]
            self.signalled |= 1 << p
        else:
            p = self.turn_player
            self.hinted = True
        self.signals = (*self.signals, (p, str(action)))
        if isinstance(action, Call):
            self.hints = (*self.hints, (p, action.char, action.zone))
            self.said = (*self.said, (len(self.history), p, "call", action.char, action.zone))
        elif isinstance(action, Name):
            self.said = (*self.said, (len(self.history), p, "name", action.wish, 0))

    def _vetoable(self, action: Action) -> bool:
        """Is ``action`` a move or a card the Policier's player may stop now?"""
        if self.veto_used or POLICIER not in self.hearts or not self.game.options.policier_veto:
            return False
        if not isinstance(action, (Move, Play, Board, Drive)):
            return False
        if isinstance(action, (Board, Drive)) and self.phase == BOARDING:
            return False  # the Omnibus move was announced with its first boarding
        p = self.turn_player
        for q, h in enumerate(self.hearts):
            if h == POLICIER and q != p:
                self.vetoer = q
                return True
        return False

    def _settle(self) -> None:
        """Lay down every wish visible on the board; queue its owner's replacement draw."""
        if not self.auto_lay:
            if not self.wish_deck:
                self.pending = ()
            return
        occ = self.occupancy()
        for p, hand in enumerate(self.hands):
            shown = [w for w in hand if occ[WISH_ZONE[w]] & WISH_MASK[w] == WISH_MASK[w]]
            if shown:
                step = len(self.history)
                self.laid_log = (*self.laid_log, *((step, p, w) for w in shown))
                self.hands[p] = tuple(w for w in hand if w not in shown)
                self.fulfilled[p] = self.fulfilled[p] + tuple(shown)
                for w in shown:
                    self.laid |= 1 << w
                self.pending = self.pending + (p,) * len(shown)
        if not self.wish_deck:
            self.pending = ()

    def _deal_wish(self, wish: int) -> None:
        p = self.pending[0]
        if self.phase != WINDOW:  # a seat dealt in a window is asked again at once
            self.dealt_to |= 1 << p
        self.secrets = (*self.secrets, (len(self.history), p))
        self.pending = self.pending[1:]
        self.wish_deck &= ~(1 << wish)
        self.hands[p] = tuple(sorted((*self.hands[p], wish)))

    def _start_turn(self, player: int) -> None:
        self.turn_player = player
        self.phase = MAIN
        self.moved = 0
        self.moves = 0
        self.fresh = True
        self.hinted = False
        self.drew = False
        self.veto_used = False
        self.vetoed = 0
        self.signalled = 0

    def _take_character(self, char: int) -> None:
        if self.char_deck:
            self.char_deck &= ~(1 << char)
        else:
            self.char_under = self.char_under[1:]
        p = self.turn_player
        self.char_hand[p] = char
        self.hearts[p] = char  # the player's one heart pin moves to the new character
        self.phase = MAIN
        self.fresh = False

    def _drive(self, to: int) -> None:
        for c in self.boarding:
            self.pos[c] = to
            if self.game.options.carried_counts_as_moved:
                self.moved |= 1 << c
        self.bus = to
        self.boarding = ()
        self.moved |= 1 << OMNIBUS
        self.moves += 1
        self.phase = MAIN

    def _play(self, char: int) -> None:
        p = self.turn_player
        self.char_hand[p] = -1
        self.char_under = (*self.char_under, char)
        if self.game.options.heart_leaves_with_card and self.hearts[p] == char:
            self.hearts[p] = -1
        self.eff_return = RETURN_TURN
        self._start_effect(char, p, char)

    # ------------------------------------------------------------------ effects
    def _start_effect(self, char: int, actor: int, src: int) -> None:
        """Begin ``char``'s effect for ``actor``, working from ``src``'s place."""
        self.eff, self.actor, self.src = char, actor, src
        self.phase = EFFECT
        here = self.pos[src]
        if char == POETE:
            n = self.game.num_players
            if self.eff_return == RETURN_ROUND:  # "sur tous les joueurs": each player in turn
                self.eff_queue = tuple((actor + self._order_step() * i) % n for i in range(n))
            else:
                self.eff_queue = (actor,)
            self.eff_count = 0
            self.actor = self.eff_queue[0]
            return
        if char == MENDIANTE:
            self._mendiante(here)
            self._end_effect()
            return
        if char == GARDIEN:
            for c in CHARACTERS:
                if self.pos[c] == here:
                    self.pos[c] = START_ZONE[c]
            self._end_effect()
            return
        if char == POLICIER:
            self.eff_queue = tuple(c for c in CHARACTERS if c != src and self.pos[c] == here)
            if not self.eff_queue:
                self._end_effect()
            return
        if char == CHAT:
            self.eff_left = 2
        if char == COMEDIENNE and not self._targets():
            self.phase = DIE
            return
        if not self._targets():
            self._end_effect()

    def _mendiante(self, here: int) -> None:
        opts = self.game.options
        drawers = [p for p, h in enumerate(self.hearts) if h >= 0 and self.pos[h] == here]
        self.pending = self.pending + tuple(drawers)
        cleared = range(len(self.hearts)) if opts.mendiante_clears_all_hearts else drawers
        for p in cleared:
            char = self.hearts[p]
            if char < 0:
                continue
            self.hearts[p] = -1
            for q, card in enumerate(self.char_hand):
                if card == char:
                    self.char_hand[q] = -1
                    if opts.mendiante_discards_leave_game:
                        self.char_out |= 1 << char
                    else:
                        self.char_under = (*self.char_under, char)

    def _target(self, char: int) -> None:
        eff, src = self.eff, self.src
        if eff == GARCON:
            self.pos[char] = CAFE
            self._end_effect()
        elif eff == CHAT:
            self.pos[char] = self.pos[src]
            self.eff_left -= 1
            if self.eff_left == 0 or not self._targets():
                self._end_effect()
        elif eff == COMEDIENNE:
            self.pos[src], self.pos[char] = self.pos[char], self.pos[src]
            self._end_effect()
        elif eff == INSTITUTRICE:
            new_src = src if self.game.options.institutrice_from_own_zone else char
            self._start_effect(char, self.actor, new_src)

    def _die(self, face: int) -> None:
        src = self.src
        if self.game.options.comedienne_die == "effect":
            self._start_effect(face, self.actor, face)
            return
        if face != src and face != CHAT and self.pos[face] != self.pos[src]:
            self.pos[src], self.pos[face] = self.pos[face], self.pos[src]
        self._end_effect()

    def _poete_next(self) -> None:
        self.eff_queue = self.eff_queue[1:]
        self.eff_count = 0
        if self.eff_queue:
            self.actor = self.eff_queue[0]
        else:
            self._end_effect()

    def _end_effect(self) -> None:
        self.eff = self.actor = self.src = -1
        self.eff_left = self.eff_count = 0
        self.eff_queue = ()
        if self.eff_return == RETURN_TURN:
            # back to the turn; passengers an effect took off the Omnibus's location get off
            if self.boarding:
                self.boarding = tuple(c for c in self.boarding if self.pos[c] == self.bus)
            self.phase = BOARDING if self.boarding else MAIN
        elif self.ended:
            self.phase = OVER
        else:
            self._start_turn(self._next_player())

    # ------------------------------------------------------------------ turn end
    def _order_step(self) -> int:
        return self.pdir if self.game.options.turn_order_follows_passante else 1

    def _next_player(self) -> int:
        """The next player in the Passante's direction who has not played this round."""
        n = self.game.num_players
        step = self._order_step()
        p = self.turn_player
        for _ in range(n):
            p = (p + step) % n
            if not self.played >> p & 1:
                return p
        return (self.turn_player + step) % n

    def _end_turn(self) -> None:
        n = self.game.num_players
        self.turns += 1
        self.played |= 1 << self.turn_player
        round_over = self.played == (1 << n) - 1
        if round_over:
            self.rounds += 1
            self.played = 0
        opts = self.game.options
        if self.last_turn:
            self.ended = True
            if round_over and opts.round_event and opts.final_round_event and self._event_deck():
                self._begin_event()
            else:
                self.phase = OVER
            return
        self._walk_passante()
        if round_over and opts.round_event and self._event_deck():
            self._begin_event()
            return
        self._start_turn(self._next_player())

    def _event_deck(self) -> int:
        return self.char_deck | sum(1 << c for c in self.char_under)

    def _begin_event(self) -> None:
        # "les cartes Personnages restantes sont mélangées": the known order is lost
        self.char_deck = self._event_deck()
        self.char_under = ()
        self.phase = EVENT

    def _round_event(self, char: int) -> None:
        # the card is shown, its effect applied, and it goes back under the deck
        self.char_deck &= ~(1 << char)
        self.char_under = (char,)
        self.eff_return = RETURN_ROUND
        chooser = self.turn_player if self.game.options.round_event_chooser == "last" else self._next_player()
        self._start_effect(char, chooser, char)

    def _walk_passante(self) -> None:
        """Seed: the Passante moves one zone; hearts on the zone she left are removed."""
        left = self.passante
        if left == PLACE:
            self.passante = ECOLE if self.pdir == 1 else CAFE
        else:
            nxt = left + self.pdir
            if 0 <= nxt < len(ZONES):
                self.passante = nxt
            else:
                self.passante = PLACE
                self.arrivals += 1
                self.pdir = -self.pdir
                if self.arrivals >= self.game.num_players:
                    self.last_turn = True
        for p, h in enumerate(self.hearts):
            if h >= 0 and self.pos[h] == left:
                self.hearts[p] = -1

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


_DISPATCH: dict[type, Any] = {
    Start: PassanteState._do_start,
    CharacterCard: PassanteState._do_card,
    DieRoll: PassanteState._do_die,
    RoundEvent: PassanteState._do_event,
    DrawCharacter: PassanteState._do_draw,
    Lay: PassanteState._do_lay,
    Move: PassanteState._do_move,
    Board: PassanteState._do_board,
    Drive: PassanteState._do_drive,
    Play: PassanteState._do_play,
    Target: PassanteState._do_target,
    Send: PassanteState._do_send,
    Discard: PassanteState._do_discard,
    Keep: PassanteState._do_keep,
    Hint: PassanteState._do_hint,
    End: PassanteState._do_end,
    Pass: PassanteState._do_pass,
    **dict.fromkeys(SIGNALS, PassanteState._do_signal),
}
"""How each action type changes the state (wish deals are served before: ``pending``)."""
_LEGAL: tuple[Callable[[PassanteState], list[Action]], ...] = (
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
)
"""The legal actions of each phase (when no wish draw is owed), by phase number."""
_TURN_ACTIONS = frozenset({DrawCharacter, Move, Board, Drive, Play, Hint, *SIGNALS})
_MAY_SHOW = frozenset({Move, Drive, Play, Target, Send, DieRoll, RoundEvent, Allow})
"""The actions after which a character may stand elsewhere (directly, by an effect, or the move
the Policier allowed): the only ones that can show a wish (a draw shows one through ``dealt_to``)."""
"""The actions that make a turn no longer fresh (option ``draw_first``)."""


@dataclass(frozen=True)
class PassanteObservation:
    """One player's view.  ``public`` is everything on the table (board, hearts, character cards,
    laid-down wishes, card counts, the turn's progress); hidden hands are ``None``."""

    player: int | None
    current_player: int
    public: tuple[Any, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    discards: tuple[tuple[int, ...] | None, ...]
