"""Issue 13: the table privileges, each on its own card (« Vous pouvez à présent … »).

Option ``privileges``: "cards" (the text, default) gives the player whose heart is on a character
that character's own signal, once per turn on their turn; "hint" folds them into one ``hint X Z``
(``table_talk=True``, rules version 2's switch, selects it); "none" is silence.  Each signal has a
legal and an illegal case at each value; records of versions 1 and 2 replay without signals.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from passante_scenes import give_card, refused

import gamelib
from gamelib import CHANCE
from gamelib.agents import RandomAgent
from gamelib.core.checks import determinize_problems
from gamelib.passante import board as B
from gamelib.passante.agents import WishSeekerAgent, cooperative_ismcts
from gamelib.passante.rules import PassanteGame, PassanteState

# each character's signals: (a legal one for its holder, given wish 1 « Leçon de choses », Chat —
# École, in hand at 2 players), and an illegal one for that holder
SIGNALS = {
    "poete": ("name 1", "name 2"),
    "garcon": ("call chat ecole", "call chat parc"),
    "chat": ("purr", "name 1"),
    "comedienne": ("mime gardien", "purr"),
    "mendiante": ("reach 2", "reach 1"),
    "gardien": ("knock place", "mime chat"),
    "institutrice": ("glare 2", "glare 1"),
}
EVERY_SIGNAL = [
    "name 1",
    "call chat ecole",
    "meow",
    "hiss",
    "purr",
    "mime gardien",
    "reach chat",
    "reach 2",
    "knock place",
    "stand",
    "sit",
    "glare 2",
]


def ready(players: int = 2, **options: Any) -> PassanteState:
    state = gamelib.make("passante", players=players, options=options).new_game(seed=0)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance())
    state.apply("start ecole")
    assert isinstance(state, PassanteState)
    for p, hand in enumerate(state.hands):  # player 0 holds wish 1 only
        for w in hand:
            state.wish_deck |= 1 << w
        state.hands[p] = ()
    state.wish_deck &= ~(1 << 1)
    state.hands[0] = (1,)
    state.invalidate()
    return state


def test_the_text_is_the_default() -> None:
    game = gamelib.make("passante")
    assert game.options.privileges == "cards" and game.version == "4"
    assert gamelib.make("passante", options={"table_talk": True}).options.privileges == "hint"


@pytest.mark.parametrize("char", sorted(SIGNALS))
def test_each_card_has_its_own_signal(char: str) -> None:
    good, bad = SIGNALS[char]
    state = ready()
    refused(state, good, "privilege")  # no heart yet
    give_card(state, 0, char)
    legal = {str(a) for a in state.legal_actions()}
    assert good in legal and bad not in legal
    refused(state, bad, "privilege")
    state.apply(good)
    assert state.signals == ((0, good),)
    assert good in state.public_history(1)  # everyone sees (or hears) it
    refused(state, good, "privilege")  # one signal per turn
    assert "hint chat ecole" not in legal


def test_the_policier_signals_with_his_veto_only() -> None:
    state = ready()
    give_card(state, 0, "policier")
    assert not {str(a).split()[0] for a in state.legal_actions()} & {s.split()[0] for s in EVERY_SIGNAL}


@pytest.mark.parametrize("text", EVERY_SIGNAL)
def test_signals_write_and_read_back(text: str) -> None:
    game = gamelib.make("passante", players=2)
    assert str(game.parse_action(text)) == text
    assert game.parse_action(text) in game.action_universe()


def test_signals_are_given_on_ones_own_turn() -> None:
    state = ready()
    give_card(state, 1, "chat")
    refused(state, "purr", "privilege")  # joueur 2 holds the privilege, joueur 1 is to move
    state.apply("move poete place")
    state.apply("move garcon place")
    state.apply("end")
    while state.current_player == CHANCE:
        state.apply(state.sample_chance())
    assert state.current_player == 1
    assert "purr" in {str(a) for a in state.legal_actions()}


@pytest.mark.parametrize("privileges", ["hint", "none"])
def test_other_values_have_no_card_signal(privileges: str) -> None:
    state = ready(privileges=privileges)
    give_card(state, 0, "chat")
    for text in EVERY_SIGNAL:
        if text.split()[0] in ("reach", "glare"):
            continue
        refused(state, text, "no-talking")
    if privileges == "hint":
        refused(state, "hint poete ecole", "hint")  # not a wish in hand
        state.apply("hint chat ecole")
        assert state.hints == ((0, B.CHAT, B.ECOLE),)
    else:
        refused(state, "hint chat ecole", "no-talking")


def test_table_talk_is_the_fold() -> None:
    state = ready(table_talk=True)
    give_card(state, 0, "chat")
    assert "hint chat ecole" in {str(a) for a in state.legal_actions()}
    refused(state, "purr", "no-talking")


@pytest.mark.parametrize("version", ["1", "2"])
def test_older_records_replay_without_signals(version: str) -> None:
    old = PassanteGame.legacy_defaults[version]
    game = gamelib.make("passante", players=3, options=dict(old))
    state = gamelib.play(game, [RandomAgent()] * 3, seed=5)
    record = state.to_record()
    record["version"] = record["version"].rsplit("+", 1)[0] + f"+passante.{version}"
    record["options"] = {k: v for k, v in record["options"].items() if k not in old}
    replayed = gamelib.from_record(record)
    assert replayed == state and replayed.game.options.privileges == "none"
    record["options"]["table_talk"] = True
    with pytest.raises(ValueError):  # the fold allows hints, never a card signal
        bad = dict(record, actions=[*record["actions"][:20], "purr"])
        gamelib.from_record(bad)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_keeps_what_was_named_and_called(players: int) -> None:
    game = gamelib.make("passante", players=players)
    rng = random.Random(players)
    checked = 0
    for seed in range(12):
        state = game.new_game(seed=seed)
        for _ in range(rng.randrange(50, 500)):
            if state.is_terminal():
                break
            state.apply(
                state.sample_chance(rng)
                if state.current_player == CHANCE
                else rng.choice(state.legal_actions())
            )
        assert isinstance(state, PassanteState)
        for p in range(players):
            assert determinize_problems(state, p, random.Random(p)) == []
            world = state.determinize(p, rng)
            assert isinstance(world, PassanteState)
            assert world.said == state.said
            checked += any(kind == "name" and q != p for _, q, kind, _, _ in state.said)
    assert checked  # some positions had another player's ``name``


@pytest.mark.parametrize("privileges", ["cards", "hint", "none"])
def test_agents_play_every_value(privileges: str) -> None:
    game = gamelib.make("passante", players=3, options={"privileges": privileges})
    for agents in ([WishSeekerAgent()] * 3, [RandomAgent()] * 3, [cooperative_ismcts(iterations=5)] * 3):
        state = gamelib.play(game, agents, seed=1)
        assert state.is_terminal()
        assert gamelib.from_record(state.to_record()) == state
    seekers = gamelib.play(game, [WishSeekerAgent()] * 3, seed=2)
    verbs = {str(a).split()[0] for a in seekers.history}
    if privileges == "cards":
        assert verbs & {"name", "call"}
    assert ("hint" in verbs) == (privileges == "hint")


def test_records_written_before_the_notation_was_declared_still_replay() -> None:
    # written by the hand-written __str__/parse_action (commit a10b926), every verb of the game
    # among them (reach chat and reach 2, meow/hiss/purr, die, veto...): records are the contract
    path = Path(__file__).parent / "data" / "records_before_declared_notation.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    verbs = set()
    for entry in stored:
        record = entry["record"]
        state = gamelib.from_record(record)
        assert state.is_terminal() and state.returns() == entry["returns"]
        assert [str(a) for a in state.history] == record["actions"]
        verbs |= {a.split()[0] for a in record["actions"]}
    # every verb of rules version 3; "pass" (between moves) came with version 4
    universe = {str(a).split()[0] for a in gamelib.make("passante", players=4).action_universe()}
    assert verbs == (universe | {"hint"}) - {"pass"}
