"""Agents by name: specs, the registry hook for games' own agents, the AGENTS convention."""

from __future__ import annotations

import sys
import types

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamelib
from gamelib.agents import GreedyAgent, ISMCTSAgent, MCTSAgent, RandomAgent, make_agent, registered_agents
from gamelib.agents import registry as agent_registry
from gamelib.agents.registry import parse_agent_spec, register_agent, split_agent_specs
from gamelib.core import registry as game_registry


def test_generic_names() -> None:
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("greedy(samples=3)"), GreedyAgent)
    mcts = make_agent("mcts(iterations=20, c=0.5, omniscient=True)")
    assert isinstance(mcts, MCTSAgent) and (mcts.iterations, mcts.c, mcts.omniscient) == (20, 0.5, True)
    assert isinstance(make_agent("ismcts", "fugitive", time_limit=0.1), ISMCTSAgent)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts(200)", "must be named"),
        ("mcts(iterations=__import__('os'))", "must be a literal"),
        ("os.system('x')", "cannot read agent spec"),
        ("mcts(", "cannot read agent spec"),
        ("mcts(depth=3)", "agent 'mcts'"),
        ("nobody", "unknown agent 'nobody'"),
    ],
)
def test_bad_specs_are_rejected_without_evaluating_anything(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_parse_and_split_specs() -> None:
    assert parse_agent_spec(" mcts(iterations=5, c=1.0) ") == ("mcts", {"iterations": 5, "c": 1.0})
    assert split_agent_specs("mcts(iterations=5,c=1),random, greedy") == [
        "mcts(iterations=5,c=1)",
        "random",
        "greedy",
    ]
    with pytest.raises(ValueError, match="cannot split"):
        split_agent_specs("mcts(iterations=5,random")


class Stubborn:
    name = "stubborn"

    def __init__(self, choice: int = 0) -> None:
        self.choice = choice

    def act(self, state, player, rng):  # type: ignore[no-untyped-def]
        actions = state.legal_actions()
        return actions[min(self.choice, len(actions) - 1)]


def test_register_agent_for_one_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agent_registry, "_AGENTS", dict(agent_registry._AGENTS))
    register_agent("fugitive", "stubborn", Stubborn)
    register_agent("fugitive", "lazy", "gamelib.agents.basic:FirstLegalAgent")
    assert make_agent("stubborn(choice=2)", "fugitive").choice == 2
    assert {"stubborn", "lazy"} <= set(registered_agents("fugitive"))
    with pytest.raises(ValueError, match="unknown agent 'stubborn'"):
        make_agent("stubborn")  # not a generic agent
    results = gamelib.tournament("fugitive", ["stubborn", "lazy"], games=2, progress=False)
    assert results.agent_names == ["stubborn", "lazy"]


def test_register_agent_validates_its_arguments() -> None:
    with pytest.raises(ValueError, match="identifier"):
        register_agent(None, "two words", Stubborn)
    with pytest.raises(ValueError, match="module:Attr"):
        register_agent(None, "x", "gamelib.agents.basic.RandomAgent")
    with pytest.raises(TypeError, match="import path or a callable"):
        register_agent(None, "x", 42)  # type: ignore[arg-type]


def test_a_game_ships_agents_by_the_agents_module_convention(monkeypatch: pytest.MonkeyPatch) -> None:
    package = types.ModuleType("toypkg")
    package.__path__ = []  # type: ignore[attr-defined]
    rules = types.ModuleType("toypkg.rules")
    agents = types.ModuleType("toypkg.agents")
    agents.AGENTS = {"stubborn": Stubborn}  # type: ignore[attr-defined]

    class Fugitive2(game_registry.game_class("fugitive")):  # type: ignore[misc,valid-type]
        pass

    Fugitive2.__module__ = "toypkg.rules"
    rules.Fugitive2 = Fugitive2  # type: ignore[attr-defined]
    for name, module in (("toypkg", package), ("toypkg.rules", rules), ("toypkg.agents", agents)):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setitem(game_registry._GAMES, "toy-conv", "toypkg.rules:Fugitive2")
    assert "stubborn" in registered_agents("toy-conv")
    assert isinstance(make_agent("stubborn", "toy-conv"), Stubborn)
    with pytest.raises(ValueError, match="unknown agent 'stubborn'"):
        make_agent("stubborn", "fugitive")


@given(st.text(max_size=40))
def test_any_spec_text_builds_an_agent_or_fails_with_a_clear_error(text: str) -> None:
    try:
        agent = make_agent(text)
    except ValueError as exc:
        assert str(exc)
    else:
        assert hasattr(agent, "act")


@given(
    st.lists(
        st.sampled_from(["random", "first", "greedy", "mcts(iterations=5)", "ismcts(iterations=5, c=0.5)"]),
        min_size=1,
        max_size=4,
    )
)
def test_split_agent_specs_round_trips(specs: list[str]) -> None:
    assert split_agent_specs(",".join(specs)) == specs


@pytest.mark.parametrize("game", ["fugitive", "delanopolis", "getonboard", "passante"])
def test_a_game_never_shadows_a_generic_agent(game: str) -> None:
    """A name means the same agent in every game: ``greedy(samples=4)`` works everywhere.

    A game's own agents get their own names (Get on Board's ``stick_greedy``, ``ticket_mcts``; A Une
    Passante's ``coop_ismcts``).
    """
    import importlib

    from gamelib.agents.registry import _AGENTS

    generic = {name for (where, name) in _AGENTS if where is None}
    own = set(getattr(importlib.import_module(f"gamelib.{game}.agents"), "AGENTS", {}))
    assert not own & generic, f"{game}'s AGENTS shadows the generic {sorted(own & generic)}"
