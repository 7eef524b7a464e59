"""Stepper latency per registered game: what a teacher waits for after each click.

For every registered game this drives a :class:`gamelib_widgets.Stepper` from Python along a random
game and prints, per click, the kernel's **CPU time** (``time.process_time``: the machine is
shared, wall time is noise) as median / 90th percentile in milliseconds, and what the click sends
to the browser: the number of widget messages and their bytes (JSON plus binary buffers, the
board's PNG among them), which is what the browser then parses, decodes and lays out.  The
clicks:

* ``click (new position)``: one action applied by notation, the board drawn and encoded, every
  control refreshed (a position never drawn before) — the click → new board path;
* ``click, seat 0's view``: the same from the first seat's view;
* ``undo (drawn)``: one undo back to a position already shown (its picture is cached);
* ``step (cold)``: Step (the seated agents, chance) to a position never computed;
* ``step after an idle moment``: Step as a class presses it, the page idle for a moment before:
  the Stepper computes the next Step's position and picture while the kernel is idle
  (``prefetch_now``, what it schedules after each change), and only the click is timed;
* ``autoplay beat``: one beat of autoplay (random agents), with no idle moment between beats;
* ``play-to-end``: the random agents finish a game from the start (one redraw at the end).

``--against REV`` measures the Stepper of git revision ``REV`` too (its ``widgets/`` folder is
extracted to a temporary package), interleaved click by click with the current one, so both
see the same load: ``python benchmarks/widget_latency.py --against aeccff3~1``.  The load average
is printed with the figures.  The browser-side time (Chromium, click to new picture) is measured
by the browser suite; this script is the kernel side and the size of what is sent.

Run: ``python benchmarks/widget_latency.py [--actions N] [--against REV] [--games a,b]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import ipywidgets as W

import gamelib
from gamelib.agents import RandomAgent

ROOT = Path(__file__).resolve().parent.parent


class Wire:
    """Counts the widget messages (and their bytes) the kernel would send to the browser."""

    messages = 0
    size = 0

    @classmethod
    def install(cls) -> None:
        def send(widget: Any, msg: Any, buffers: Any = None) -> None:
            cls.messages += 1
            cls.size += len(json.dumps(msg, default=str)) + sum(len(b) for b in buffers or ())

        W.Widget._send = send  # type: ignore[method-assign]

    @classmethod
    def reset(cls) -> None:
        cls.messages = cls.size = 0


def reference_package(rev: str) -> ModuleType:
    """The ``widgets/`` folder of git revision ``rev``, importable as ``gamelib_widgets_ref``."""
    where = Path(tempfile.mkdtemp(prefix="widget_latency_")) / "gamelib_widgets_ref"
    (where / "data").mkdir(parents=True)
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", rev, "widgets/"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for name in names:
        blob = subprocess.run(["git", "show", f"{rev}:{name}"], cwd=ROOT, check=True, capture_output=True)
        (where / Path(name).relative_to("widgets")).write_bytes(blob.stdout)
    sys.path.insert(0, str(where.parent))
    return importlib.import_module("gamelib_widgets_ref")


def cpu(call: Callable[[], object]) -> tuple[float, int, int]:
    """CPU seconds of ``call()``, with the messages and bytes it sent."""
    Wire.reset()
    start = time.process_time()
    call()
    return time.process_time() - start, Wire.messages, Wire.size


def summary(samples: Sequence[tuple[float, int, int]]) -> str:
    times = sorted(s[0] for s in samples)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    messages = statistics.median(s[1] for s in samples)
    size = statistics.median(s[2] for s in samples) / 1024
    return f"{statistics.median(times) * 1e3:7.1f} / {p90 * 1e3:7.1f} ms {messages:5.0f} msgs {size:7.1f} KB"


def random_line(game: gamelib.Game, seed: int, length: int) -> list[str]:
    """The first ``length`` actions (notation) of a random game, chance included."""
    final = gamelib.play(game, [RandomAgent()] * game.num_players, seed=seed)
    return [str(a) for a in final.history[:length]]


def measure(packages: dict[str, ModuleType], name: str, actions: int) -> list[tuple[str, str, str]]:
    """Every operation of the module docstring, the packages interleaved click by click."""
    game = gamelib.make(name)
    line = random_line(game, seed=1, length=actions)
    results: dict[tuple[str, str], list[tuple[float, int, int]]] = {}

    def record(label: str, operation: str, sample: tuple[float, int, int]) -> None:
        results.setdefault((operation, label), []).append(sample)

    steppers = {label: pkg.Stepper(game, seed=1) for label, pkg in packages.items()}
    seats = {label: pkg.Stepper(game, seed=1, perspective=0) for label, pkg in packages.items()}
    for text in line:
        for label in packages:
            record(label, "click (new position)", cpu(partial(steppers[label].apply, text)))
            record(label, "click, seat 0's view", cpu(partial(seats[label].apply, text)))
    for _ in line:
        for label, stepper in steppers.items():
            record(label, "undo (drawn)", cpu(stepper.undo))
    cold = {label: pkg.Stepper(game, seed=1) for label, pkg in packages.items()}
    idle = {label: pkg.Stepper(game, seed=1) for label, pkg in packages.items()}
    for _ in line:
        for label in packages:
            if not cold[label].state.is_terminal():
                record(label, "step (cold)", cpu(cold[label].step_agent))
            stepper = idle[label]
            if stepper.state.is_terminal():
                continue
            if hasattr(stepper, "prefetch_now"):
                stepper.prefetch_now()  # the idle moment (untimed)
            record(label, "step after an idle moment", cpu(stepper.step_agent))
    random_seats = {"random": RandomAgent()}
    beats = {label: pkg.Stepper(game, seed=1, agents=random_seats) for label, pkg in packages.items()}
    for _ in line:
        for label, stepper in beats.items():
            record(label, "autoplay beat", cpu(stepper.autoplay_tick))
    for seed in range(3):
        for label, pkg in packages.items():
            fresh = pkg.Stepper(game, seed=seed, agents=random_seats)
            record(label, "play-to-end", cpu(fresh.play_to_end))
    return [(f"{name}", f"{operation} [{label}]", summary(s)) for (operation, label), s in results.items()]


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=25)
    parser.add_argument("--against", help="a git revision whose Stepper is measured alongside")
    parser.add_argument("--games", help="comma-separated game names (default: every registered game)")
    args = parser.parse_args(argv[1:])
    Wire.install()
    import gamelib_widgets

    packages: dict[str, ModuleType] = {"now": gamelib_widgets}
    if args.against:
        packages[args.against] = reference_package(args.against)
    games = args.games.split(",") if args.games else list(gamelib.registered_games())
    print(
        f"Stepper clicks: CPU median / p90, messages and bytes sent (median), {args.actions} actions per game"
    )
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name in games:
        try:
            rows = measure(packages, name, args.actions)
        except Exception as exc:  # one game's failure must not hide the others' figures
            print(f"{name:<12} FAILED: {type(exc).__name__}: {exc}")
            continue
        for game, operation, figures in rows:
            print(f"{game:<12} {operation:<44} {figures}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main(sys.argv)
