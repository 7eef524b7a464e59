"""Delanopolis: the mayor of Paris against the challengers, for twelve "zones cobayes".

>>> import gamelib
>>> game = gamelib.make("delanopolis", players=4)
>>> state = game.new_game(seed=1)
>>> state.current_player == gamelib.CHANCE      # the lot that draws the mayor
True
"""

from gamelib.delanopolis.rules import DelanopolisGame, DelanopolisOptions, DelanopolisState

__all__ = ["DelanopolisGame", "DelanopolisOptions", "DelanopolisState"]
