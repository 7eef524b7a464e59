"""A Une Passante's actions: every action class with its notation, the interned tables the rules
hand out, and the wish and card tables the legal moves read (no state here: the rules live in
``rules.py``, each action's transition and refusal in ``refusals.py`` (a turn's actions) or
``effects.py`` (the effects' answers and chance outcomes)).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate
from typing import Any

from gamelib.core.bitsets import members
from gamelib.core.errors import IllegalAction
from gamelib.core.game import Action, Game
from gamelib.core.notation import Choice, Int, Notation, action_class, spec_of
from gamelib.passante.board import (
    CAFE,
    CHARACTERS,
    CHAT,
    CHAT_MOVES,
    COMEDIENNE,
    ECOLE,
    GARCON,
    GARDIEN,
    INSTITUTRICE,
    LOCATION_NAMES,
    LOCATIONS,
    MENDIANTE,
    NEIGHBOURS,
    NUM_WISHES,
    OMNIBUS,
    PIECE_NAMES,
    PLACE,
    POETE,
    POLICIER,
    WISHES,
)

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
FREE = tuple(tuple(c for c in CHARACTERS if not blocked >> c & 1) for blocked in range(256))
"""``FREE[blocked]``: the characters not in the ``blocked`` mask, in order (a loop over them,
extending a list by each one's tuple of moves, beats chaining iterators)."""
VETO, ALLOW = NOTATION.make(Veto), NOTATION.make(Allow)
PASS = NOTATION.make(Pass)
DRIVES_AWAY = tuple(tuple(d for d in DRIVES if d.to != at) for at in LOCATIONS)
"""The Omnibus's drives from each location to another one (option ``omnibus_must_leave``)."""
BOARDABLE = tuple(c for c in CHARACTERS if c != CHAT)
"""Characters that ever ride the Omnibus (never the Chat)."""
BOARD_SETS = tuple(tuple(BOARDS[c] for c in CHARACTERS if mask >> c & 1) for mask in range(256))
"""``BOARD_SETS[mask]``: the boardings of the characters in ``mask`` (bits 0-7), in order."""
AT_LOCATION = tuple(
    tuple(tuple(1 << c if at == where else 0 for at in LOCATIONS) for c in CHARACTERS) for where in LOCATIONS
)
"""``AT_LOCATION[where][c][at]``: bit ``c`` when character ``c`` standing on ``at`` stands on
``where``, else 0 (the characters on a location are the OR of one entry per character, no loop)."""
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

_BYTE_NUMBERS = tuple(
    tuple(
        tuple(8 * k + b for b in range(8) if value >> b & 1 and 8 * k + b in WISH_CARDS)
        for value in range(256)
    )
    for k in range(5)
)
"""``_BYTE_NUMBERS[k][v]``: the wish numbers of byte ``k`` of a deck mask whose value is ``v``
(wishes 1..38 are bits 1..38: five bytes; every table made once, at import)."""
_BYTE_CARDS = tuple(
    tuple(tuple(map(WISH_CARDS.__getitem__, numbers)) for numbers in table) for table in _BYTE_NUMBERS
)
"""``_BYTE_CARDS[k][v]``: the interned ``wish N`` outcomes of the same byte."""
_PAIRS = tuple(
    {w: (WISH_CARDS[w], 1.0 / n if n else 0.0) for w in WISH_NUMBERS} for n in range(NUM_WISHES + 1)
)
"""``_PAIRS[n][w]``: the chance outcome ``(wish w, 1/n)`` of a deck of ``n`` cards, made once."""


def _wish_deck_lists(deck: int) -> tuple[tuple[WishCard, ...], tuple[tuple[Action, float], ...]]:
    cached = _WISH_CACHE.get(deck)
    if cached is None:
        b0, b1, b2, b3, b4 = deck & 255, deck >> 8 & 255, deck >> 16 & 255, deck >> 24 & 255, deck >> 32
        n0, n1, n2, n3, n4 = _BYTE_NUMBERS
        numbers = n0[b0] + n1[b1] + n2[b2] + n3[b3] + n4[b4]
        c0, c1, c2, c3, c4 = _BYTE_CARDS
        # no tuple is allocated per outcome: cards and (card, 1/n) pairs are shared
        cached = (
            c0[b0] + c1[b1] + c2[b2] + c3[b3] + c4[b4],
            tuple(map(_PAIRS[len(numbers)].__getitem__, numbers)),
        )
        if len(_WISH_CACHE) >= 64:  # small: random play never comes back, and a big cache slows the GC
            _WISH_CACHE.clear()
        _WISH_CACHE[deck] = cached
    return cached


_CUMULATIVE = ((), *(tuple(accumulate((1.0 / n,) * n)) for n in range(1, NUM_WISHES + 1)))
"""``_CUMULATIVE[n]``: the running sums of ``n`` outcomes of probability ``1/n``, added one after
another as :func:`gamelib.core.rng.pick` adds them (so a bisection finds the outcome it picks)."""


def _wish_pick(deck: int, u: float) -> WishCard | None:
    """The wish card :func:`~gamelib.core.rng.pick` draws from ``_wish_outcomes(deck)`` with ``u``
    (None: an empty deck), found by bisection without building the outcomes (a deal of random play
    comes from a deck seen once: the outcomes would be built for one draw)."""
    b0, b1, b2, b3, b4 = deck & 255, deck >> 8 & 255, deck >> 16 & 255, deck >> 24 & 255, deck >> 32
    n0, n1, n2, n3, n4 = _BYTE_NUMBERS
    numbers = n0[b0] + n1[b1] + n2[b2] + n3[b3] + n4[b4]
    n = len(numbers)
    if not n:
        return None
    i = bisect_right(_CUMULATIVE[n], u)
    return WISH_CARDS[numbers[i if i < n else n - 1]]


def _uniform_pick(draws: Sequence[Action], u: float) -> Action:
    """The outcome :func:`~gamelib.core.rng.pick` draws with ``u`` from ``draws`` each of
    probability ``1/n`` (the character cards, the die, the round's card), found by bisection."""
    n = len(draws)
    i = bisect_right(_CUMULATIVE[n], u)
    return draws[i if i < n else n - 1]


def _wish_draws(deck: int) -> list[Action]:
    return list(_wish_deck_lists(deck)[0])


@lru_cache(maxsize=512)
def _character_draws(deck: int) -> tuple[CharacterCard, ...]:
    return tuple(CHARACTER_CARDS[c] for c in members(deck))


def _wish_outcomes(deck: int) -> list[tuple[Action, float]]:
    return list(_wish_deck_lists(deck)[1])


DIE_OUTCOMES = tuple((DIE_ROLLS[c], 1.0 / len(DIE_FACES)) for c in DIE_FACES)
"""The Comédienne's die: each face with probability 1/6."""


DIE_DRAWS = tuple(action for action, _ in DIE_OUTCOMES)


@lru_cache(maxsize=256)
def _event_draws(deck: int) -> tuple[RoundEvent, ...]:
    """The end-of-round cards that may come out of ``deck`` (a mask), in :func:`_event_outcomes`' order."""
    return tuple(EVENTS[c] for c in members(deck))


@lru_cache(maxsize=256)
def _event_outcomes(deck: int) -> tuple[tuple[Action, float], ...]:
    """The end-of-round card drawn from the cards of ``deck`` (a mask), each equally likely."""
    cards = members(deck)
    return tuple((EVENTS[c], 1.0 / len(cards)) for c in cards)


@lru_cache(maxsize=512)
def _character_outcomes(deck: int) -> tuple[tuple[Action, float], ...]:
    draws = _character_draws(deck)
    return tuple((a, 1.0 / len(draws)) for a in draws)
