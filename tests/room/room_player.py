"""A stand-in for a Voilà server's kernels: plays the given seats at random, forever or to the end.

``python room_player.py URL CODE SEED TOKEN...``: prints ``COMMIT <table> <ply> <action>`` (flushed)
after each move the store has committed, and ``DONE`` when every table is over.  The reliability
tests kill it with SIGKILL in the middle and check that nothing it reported was lost.
"""

from __future__ import annotations

import random
import sys
import time

import gamelib.room


def main(argv: list[str]) -> int:
    url, code, seed, *tokens = argv
    room = gamelib.room.open_room(url, code, create=False)
    seats = [room.seat(token) for token in tokens]
    rng = random.Random(int(seed))
    while not all(seat.view().finished for seat in seats):
        moved = False
        for seat in seats:
            view = seat.view()
            if not view.legal:
                continue
            action = rng.choice(view.legal)
            try:
                seat.apply(action, ply=view.ply)
            except gamelib.room.StaleMove:
                continue
            print(f"COMMIT {seat.table} {view.ply} {action}", flush=True)
            moved = True
        if not moved:
            time.sleep(0.01)
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
