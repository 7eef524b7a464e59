"""Get on Board – Paris & Roma: metro lines on a shared grid, 12 tickets, passengers and transfers.

>>> import gamelib
>>> game = gamelib.make("getonboard", players=3, city="rome")
>>> game.board.num_nodes, game.board.num_sections
(76, 120)
"""
