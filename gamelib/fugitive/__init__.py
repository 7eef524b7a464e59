"""Fugitive (2 players): a fugitive lays hideouts 0 to 42, a detective names numbers to find them."""

from gamelib.fugitive.rules import DETECTIVE, FUGITIVE, FugitiveGame, FugitiveObservation, FugitiveState

__all__ = ["DETECTIVE", "FUGITIVE", "FugitiveGame", "FugitiveObservation", "FugitiveState"]
