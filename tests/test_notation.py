"""Core's declared notation (:mod:`gamelib.core.notation`) on a toy set of actions."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.core.errors import IllegalAction
from gamelib.core.game import Action
from gamelib.core.notation import Choice, Int, Notation, notation


@notation("draw", Int("deck", 1, 3, shift=1))
@dataclass(frozen=True, slots=True)
class Draw(Action):
    deck: int


@notation("go", Choice("direction", "NESW"))
@dataclass(frozen=True, slots=True)
class Go(Action):
    direction: int


@notation("done")
@dataclass(frozen=True, slots=True)
class Done(Action):
    pass


@notation("move", Int("piece", 0, 8), Int("zone", 1, 9), where=lambda piece, zone: piece != zone)
@dataclass(frozen=True, slots=True)
class Move(Action):
    piece: int
    zone: int


@notation("bid", Int("amount", 0, 100, step=5))
@dataclass(frozen=True, slots=True)
class Bid(Action):
    amount: int


NOTATION = Notation(Draw, Go, Done, Move, Bid)


def test_writing_follows_the_declaration() -> None:
    assert [str(Draw(0)), str(Go(3)), str(Done()), str(Move(2, 5)), str(Bid(15))] == [
        "draw 1",
        "go W",
        "done",
        "move 2 5",
        "bid 15",
    ]


def test_every_action_of_the_universe_reads_back_interned() -> None:
    universe = NOTATION.universe(None)  # type: ignore[arg-type]
    assert len(universe) == 3 + 4 + 1 + (9 * 9 - 8) + 21
    for action in universe:
        parsed = NOTATION.parse(str(action))
        assert parsed == action and parsed is action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("draw 4", "deck must be between 1 and 3"),
        ("draw 0", "deck must be between 1 and 3"),
        ("draw", "'draw' takes 1 argument(s), the deck"),
        ("draw 1 2", "'draw' takes 1 argument(s)"),
        ("draw 02", "without leading zeros"),
        ("draw -1", "digits 0-9"),
        ("draw ２", "U+FF12"),
        ("\u212aEEP", "U+212A"),  # a Kelvin sign lower-cases to k: not a k for notation
        ("draw\u30001", "U+3000"),
        ("draw\xa01", "U+00A0"),
        ("draw\x1c1", "U+001C"),
        ("draw\t1", "U+0009"),
        ("draw  1", "one space"),
        (" draw 1", "one space"),
        ("draw 1 ", "one space"),
        ("go X", "direction is one of N, E, S, W"),
        ("done now", "'done' takes no argument"),
        ("fly 2", "unknown action 'fly'; expected one of: draw, go, done, move, bid"),
        ("move 3 3", "names no action"),
        ("bid 12", "steps of 5"),
        ("", "empty notation"),
    ],
)
def test_bad_notation_is_refused_naming_the_field(text: str, message: str) -> None:
    with pytest.raises(IllegalAction, match="notation") as caught:
        NOTATION.parse(text)
    assert message in str(caught.value)


def test_verbs_and_choices_read_in_any_case() -> None:
    assert NOTATION.parse("GO n") is NOTATION.parse("go N")


@pytest.mark.parametrize("build", [lambda: Draw(3), lambda: Draw(-1), lambda: Go(True), lambda: Move(1, "2")])
def test_an_action_built_by_hand_out_of_range_is_refused(build: object) -> None:
    with pytest.raises(IllegalAction, match="must be an int"):
        build()  # type: ignore[operator]


def test_a_declaration_must_match_the_fields() -> None:
    with pytest.raises(TypeError, match="must match its fields"):

        @notation("pick", Int("card", 0, 3))
        @dataclass(frozen=True, slots=True)
        class Pick(Action):
            number: int


def test_a_game_dependent_bound_needs_a_static_limit() -> None:
    with pytest.raises(ValueError, match="needs a limit"):
        Int("card", 0, lambda game: game.last)


@given(st.text(max_size=12))
def test_any_text_parses_or_is_refused_cleanly(text: str) -> None:
    try:
        action = NOTATION.parse(text)
    except IllegalAction as exc:
        assert exc.rule == "notation"
    else:
        assert NOTATION.parse(str(action)) is action


def test_action_class_declares_a_frozen_slotted_dataclass_with_its_notation() -> None:
    from dataclasses import FrozenInstanceError

    from gamelib.core.notation import action_class

    @action_class("pick", Int("card", 1, 9))
    class Pick(Action):
        card: int

    pick = Pick(3)
    assert str(pick) == "pick 3" and pick == Pick(3) and hash(pick) == hash(Pick(3))
    assert not hasattr(pick, "__dict__")  # slots: cheap to intern by the thousand
    with pytest.raises(FrozenInstanceError):
        pick.card = 4  # type: ignore[misc]
    with pytest.raises(IllegalAction, match="card must be an int between 1 and 9"):
        Pick(10)
    assert Notation(Pick).parse("pick 9") == Pick(9)


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=10))
def test_a_notation_that_reads_has_one_spelling_up_to_case(text: str) -> None:
    """Strict: whatever reads is the action's own writing (letters' case aside); no other
    script, space or control character slips through."""
    try:
        action = NOTATION.parse(text)
    except IllegalAction as exc:
        assert exc.rule == "notation"
    else:
        assert text.lower() == str(action).lower() and text.isascii()


@given(st.sampled_from(["draw 2", "go N", "done", "move 1 2", "bid 15"]), st.integers(0, 10), st.data())
def test_a_foreign_character_anywhere_is_refused(text: str, at: int, data: st.DataObject) -> None:
    foreign = data.draw(
        st.characters(codec="utf-8").filter(lambda c: not " " <= c <= "~" or c == " "), label="foreign"
    )
    spoiled = text[:at] + foreign + text[at:]
    with pytest.raises(IllegalAction, match="notation"):
        NOTATION.parse(spoiled)


def test_long_input_is_cut_in_the_message() -> None:
    with pytest.raises(IllegalAction) as caught:
        NOTATION.parse("bid " + "9" * 5000)
    message = str(caught.value)
    assert len(message) < 200 and "(5004 characters)" in message
    with pytest.raises(IllegalAction) as caught:
        NOTATION.parse("bid " + "9" * 90)  # short enough to be read: the number is cut
    assert "got '" + "9" * 40 + "'… (90 characters)" in str(caught.value)
    with pytest.raises(IllegalAction) as caught:
        NOTATION.parse("x" * 10_000)
    assert len(str(caught.value)) < 200 and "(10000 characters)" in str(caught.value)


def test_refused_input_leaves_nothing_interned() -> None:
    """Parsing interns nothing the rules did not make: memory stays bounded whatever is typed."""
    wide = Notation(Wide)
    wide.parse("pay 7")
    assert wide.parse("pay 7") == Wide(7)
    assert len(wide._interned) == 0  # a parse alone keeps nothing
    made = wide.make(Wide, 7)
    assert wide.parse("pay 7") is made  # what the rules made is shared


@notation("pay", Int("amount", 0, 10**9))
@dataclass(frozen=True, slots=True)
class Wide(Action):
    amount: int


@pytest.mark.parametrize("name", __import__("gamelib").registered_games())
def test_every_game_reads_only_strict_notation(name: str) -> None:
    import gamelib

    game = gamelib.make(name)
    universe = [str(a) for a in game.action_universe()]
    spaced = next(t for t in universe if " " in t)
    verb, _, rest = spaced.partition(" ")
    assert game.parse_action(spaced) == game.action_universe()[universe.index(spaced)]
    for space in ("\u3000", "\xa0", "\x1c", "\t", "  ", "\u2003"):
        with pytest.raises(IllegalAction, match="notation"):
            game.parse_action(verb + space + rest)
    for spoiled in (
        " " + spaced,
        spaced + " ",
        spaced + "\n",
        verb.upper().replace("K", "\u212a") + " " + rest,
    ):
        if spoiled.isascii() and spoiled.lower() == spaced.lower():
            continue  # no K in the verb to spoil
        with pytest.raises(IllegalAction, match="notation"):
            game.parse_action(spoiled)
    with pytest.raises(IllegalAction) as caught:
        game.parse_action(verb + " " + "9" * 5000)
    assert len(str(caught.value)) < 400 and "characters" in str(caught.value)


def test_no_game_writes_a_notation_longer_than_core_reads() -> None:
    import gamelib
    from gamelib.core.notation import MAX_LENGTH

    for name in gamelib.registered_games():
        game = gamelib.make(name, players=gamelib.core.game_class(name).info.max_players)
        assert max(len(str(a)) for a in game.action_universe()) <= MAX_LENGTH // 2
    with pytest.raises(IllegalAction, match="more than 100 characters"):
        NOTATION.parse("done" + " " * 97)
