"""A Une Passante: a cooperative game of Belle Époque characters, secret wishes and a passer-by.

>>> import gamelib
>>> game = gamelib.make("passante", players=3)
>>> game.hand_size
3
"""
