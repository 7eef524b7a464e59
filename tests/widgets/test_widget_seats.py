"""Seats start with the agent made for their role; one agent-function helper; the bidding panel."""

from __future__ import annotations

import random

import pytest
from pile_game import SecretPileGame

import gamelib
from gamelib.agents import RandomAgent
from gamelib.agents.registry import as_agent_fn, default_agents, make_agent
from gamelib_widgets import Stepper


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_every_game_names_an_agent_per_seat_and_each_resolves(name: str) -> None:
    game = gamelib.make(name)
    names = default_agents(game)
    assert len(names) == game.num_players
    for agent_name in names:
        assert callable(as_agent_fn(make_agent(agent_name, name)))


def test_seat_defaults_follow_the_roles() -> None:
    assert default_agents(gamelib.make("fugitive")) == ["heuristic", "belief"]
    assert default_agents(gamelib.make("delanopolis", players=5)) == ["role"] * 5
    assert default_agents(SecretPileGame()) == ["random", "random"], "an unregistered game: random"


def test_the_delanopolis_stepper_seats_the_role_agent_not_a_bidder_as_mayor() -> None:
    from gamelib.delanopolis.agents import MayorStrategy, RoleAgent, ValueBidder

    plain = Stepper(gamelib.make("delanopolis", players=4), seed=3)
    assert plain.seats == ["role"] * 4 and isinstance(plain.agents["role"], RoleAgent)
    # the notebook's call: a mapping with a bidder first
    given = {"value": ValueBidder(), "mayor": MayorStrategy(), "role": RoleAgent()}
    stepper = Stepper(gamelib.make("delanopolis", players=4), seed=3, agents=given)
    assert stepper.seats == ["role"] * 4
    fugitive = Stepper("fugitive", seed=1)
    assert fugitive.seats == ["heuristic", "belief"]
    pile = Stepper(SecretPileGame(), agents={"mine": RandomAgent(), "random": RandomAgent()})
    assert pile.seats == ["mine", "mine"], "no roles declared: the first agent given"


def test_as_agent_fn_takes_act_or_a_function() -> None:
    agent = RandomAgent()
    assert as_agent_fn(agent) == agent.act

    def play_first(state: gamelib.State, player: int, rng: random.Random) -> gamelib.Action:
        return state.legal_actions()[0]

    assert as_agent_fn(play_first) is play_first
    with pytest.raises(TypeError, match="agent 'x' needs an act"):
        as_agent_fn(3, "x")


def test_the_bidding_panel_follows_the_view_menu() -> None:
    from gamelib_widgets.delanopolis import BiddingPanel, delanopolis_stepper

    assert delanopolis_stepper(players=4, seed=3).panels == [], "the board draws the auction: once"
    assert Stepper("delanopolis", panels="auto").panels == []
    stepper = delanopolis_stepper(players=4, seed=3, panels=(BiddingPanel,))
    (panel,) = stepper.panels
    assert isinstance(panel, BiddingPanel) and stepper.seats == ["role"] * 4
    assert "everyone" in panel.caption.value
    while True:  # until a seat other than 0 has a sealed bid in
        mover = stepper.state.current_player
        assert stepper.step_agent(), stepper.error
        if mover > 0 and str(stepper.state.history[-1]).startswith("bid") and stepper.state.phase == 4:
            break
    stepper.perspective = 0
    assert "player 1" in panel.caption.value and f"player {mover + 1}" not in panel.caption.value
    sealed = panel.image.value
    stepper.perspective = mover
    assert panel.image.value != sealed, f"player {mover + 1} sees the bid player 1 does not"
    stepper.perspective = None
    assert "everyone" in panel.caption.value
    with pytest.raises(ValueError, match="Delanopolis"):
        Stepper("fugitive", panels=[BiddingPanel])
