"""Stepper latency per registered game: what a teacher waits for after each click.

For every registered game this drives a :class:`gamelib_widgets.Stepper` from Python (no browser: the
figures are the kernel side of a click, which is where the time goes) along a random game and
prints the median and 90th percentile, in milliseconds, of

* ``apply+redraw``: one action applied by notation, the board redrawn to PNG and every control
  refreshed (a position never drawn before);
* ``apply, stepper only``: the same with the drawing replaced by a constant: the stepper's own
  share (clone, timeline, buttons, history list, status);
* ``undo (drawn)``: one undo back to a position already shown, so its PNG is cached;
* ``undo (cold)``: one undo with the drawing cache emptied first (a rewind far back, or a new view);
* ``apply+redraw, seat 0's view``: the same from the first seat's view (the history as that seat
  saw it, ``state.public_history(0)``, and the board drawn from its perspective);
* ``autoplay beat``: one beat of autoplay (what the Play widget's timer calls): the seated agent
  (random here) or chance moves, and everything is redrawn;
* ``play-to-end``: the random agents finish a game from the start (one redraw at the end), with
  the number of actions it took;
* for Fugitive, ``apply+belief``: apply with the detective's belief panel live.

Run: ``python benchmarks/widget_latency.py [actions per game]`` (default 25).  Prints figures; it
is not a timed test.  Shared CPUs make single runs noisy: compare medians, not maxima.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence

import gamelib
from gamelib.agents import RandomAgent
from gamelib_widgets import Stepper


def ms(samples: Sequence[float]) -> str:
    """``median / p90`` in milliseconds."""
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered) * 1e3:8.1f} / {p90 * 1e3:8.1f}"


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def random_line(game: gamelib.Game, seed: int, length: int) -> list[str]:
    """The first ``length`` actions (notation) of a random game, chance included."""
    final = gamelib.play(game, [RandomAgent()] * game.num_players, seed=seed)
    return [str(a) for a in final.history[:length]]


def measure_game(name: str, actions: int) -> list[tuple[str, str, str]]:
    game = gamelib.make(name)
    line = random_line(game, seed=1, length=actions)
    stepper = Stepper(game, seed=1)
    drawn = "drawn" if stepper.board.children == (stepper.board_image,) else "text view"
    apply_times = []
    for text in line:
        apply_times.append(timed(lambda text=text: stepper.apply(text)))
        assert stepper.error == "", stepper.error
    undo_times = [timed(stepper.undo) for _ in line]
    cold_times = []
    for _ in line:
        stepper.redo()
    for _ in line:
        stepper._render_cache.clear()  # measure the redraw an uncached position costs
        cold_times.append(timed(stepper.undo))
    # the stepper's own share: the same clicks with the drawing replaced by a constant picture
    bare = Stepper(game, seed=1)
    bare._render = lambda state, perspective: (b"", "")  # type: ignore[method-assign]
    bare_times = [timed(lambda text=text: bare.apply(text)) for text in line]
    seat = Stepper(game, seed=1, perspective=0)
    seat_times = []
    for text in line:
        seat_times.append(timed(lambda text=text: seat.apply(text)))
        assert seat.error == "", seat.error
    random_seats = {"random": RandomAgent()}
    beats = Stepper(game, seed=1, agents=random_seats)
    beat_times = [timed(beats.autoplay_tick) for _ in line]
    play_times, lengths = [], []
    for seed in range(3):
        fresh = Stepper(game, seed=seed, agents=random_seats)
        play_times.append(timed(fresh.play_to_end))
        assert fresh.state.is_terminal(), fresh.error
        lengths.append(len(fresh.history))
    rows = [
        (name, f"apply+redraw ({drawn})", ms(apply_times)),
        (name, "apply, stepper only (no drawing)", ms(bare_times)),
        (name, "apply+redraw, seat 0's view", ms(seat_times)),
        (name, "autoplay beat (random agents)", ms(beat_times)),
        (name, "undo (drawn)", ms(undo_times)),
        (name, "undo (cold)", ms(cold_times)),
        (name, f"play-to-end ({statistics.median(lengths):.0f} actions)", ms(play_times)),
    ]
    if name == "fugitive":
        from gamelib_widgets.fugitive import BeliefPanel

        with_panel = Stepper(game, seed=1, panels=[BeliefPanel])
        belief_times = [timed(lambda text=text: with_panel.apply(text)) for text in line]
        rows.append((name, "apply+belief panel", ms(belief_times)))
    return rows


def main(argv: Sequence[str]) -> None:
    actions = int(argv[1]) if len(argv) > 1 else 25
    print(f"Stepper latency: median / p90 in ms over {actions} actions per game (3 games for play-to-end)")
    print(f"{'game':<12} {'operation':<32} {'median / p90 ms':>19}")
    for name in gamelib.registered_games():
        try:
            rows = measure_game(name, actions)
        except Exception as exc:  # one game's failure must not hide the others' figures
            print(f"{name:<12} FAILED: {type(exc).__name__}: {exc}")
            continue
        for game, operation, figures in rows:
            print(f"{game:<12} {operation:<32} {figures:>19}")


if __name__ == "__main__":
    main(sys.argv)
