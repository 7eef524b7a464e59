"""The gamelib command line: tournaments and rule sweeps for scripts and clusters.

    python -m gamelib games
    python -m gamelib agents fugitive
    python -m gamelib tournament fugitive --agents random,random --games 10000 --workers 2 --out results.csv
    python -m gamelib tournament fugitive --agents "ismcts(iterations=200),random" --scheduler tcp://host:8786
    python -m gamelib sweep fugitive --option edition --values 1,2 --agents random,random --games 2000

Agents are names or specs with literal parameters (``mcts(iterations=200, c=1.0)``); see
``python -m gamelib agents GAME``.  ``--out`` writes one CSV row per game and seat (seed, seat,
agent, return, outcome, length), so any game can be replayed from its seed.
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import os
import sys
import textwrap
import time
from collections.abc import Sequence
from typing import Any

import gamelib
from gamelib.agents.registry import registered_agents, split_agent_specs
from gamelib.core.errors import OptionError, shown


def _literal(text: str) -> Any:
    """An option value: a Python literal if it reads as one (2, 0.5, True), else the text itself."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"--set expects NAME=VALUE, got {shown(pair)}")
        options[name.strip()] = _literal(value.strip())
    return options


def _add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a registered game (see: python -m gamelib games)")
    parser.add_argument(
        "--agents",
        required=True,
        help="comma-separated agent specs, one per seat, e.g. 'mcts(iterations=100),random'",
    )
    parser.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--players", type=int, default=None, help="player count (default: the game's)")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="a rule option, e.g. --set edition=2"
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=1, help="local worker processes (default 1: serial)")
    where.add_argument(
        "--scheduler", default=None, metavar="ADDRESS", help="a Dask scheduler, e.g. tcp://host:8786"
    )
    parser.add_argument("--batch-size", type=int, default=None, help="games per task (default: automatic)")
    parser.add_argument("--no-rotate", action="store_true", help="keep agents in fixed seats")
    parser.add_argument("--max-actions", type=int, default=None, help="stop games after this many actions")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--out", default=None, help="write one CSV row per game and seat")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gamelib", description="gamelib: tournaments and rule sweeps from the command line."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("games", help="list the registered games, their players and rule options")
    agents = commands.add_parser("agents", help="list the agents usable by name")
    agents.add_argument("game", nargs="?", default=None)

    tournament = commands.add_parser("tournament", help="play games between agents and print statistics")
    _add_run_arguments(tournament)
    tournament.add_argument("--records", default=None, help="also write every game's record (JSON lines)")

    sweep = commands.add_parser("sweep", help="the same tournament for each value of one rule option")
    _add_run_arguments(sweep)
    sweep.add_argument("--option", required=True, help="the rule option to vary")
    sweep.add_argument("--values", required=True, help="comma-separated values, e.g. 1,2")
    return parser


def _executor(args: argparse.Namespace) -> tuple[Any, Any]:
    """(executor argument, Dask client to close or None)."""
    if args.scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise ValueError("--scheduler needs Dask: pip install 'dask[distributed]'") from None
        client = Client(args.scheduler)
        return client, client
    if args.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {args.workers}")
    return ("processes" if args.workers > 1 else None), None


def _write_csv(path: str, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else ["game"])
        writer.writeheader()
        writer.writerows(rows)


def _common(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "players": args.players,
        "options": _options(args.set),
        "batch_size": args.batch_size,
        "rotate": not args.no_rotate,
        "max_actions": args.max_actions,
        "progress": not args.no_progress,
        "workers": args.workers if args.workers > 1 else None,
    }


def _print_games() -> None:
    """Every game, its players, and each rule option: default, allowed values, doc line."""
    for name in gamelib.registered_games():
        info = gamelib.core.game_class(name).info
        count = f"{info.min_players}" + (
            f"-{info.max_players}" if info.max_players != info.min_players else ""
        )
        print(f"{name:<14} {info.title}: {count} players")
        for spec in gamelib.options(name):
            print(f"    {spec.name}={spec.default!r}  ({spec.allowed()})")
            if spec.doc:
                text = spec.doc.replace("``", "")  # reST literals read plainly in a terminal
                print(textwrap.fill(text, width=100, initial_indent=" " * 8, subsequent_indent=" " * 8))


def _check_run_arguments(args: argparse.Namespace) -> None:
    """Refuse what would fail only after playing: counts below 1, outputs that cannot be written."""
    for flag, value in (("--games", args.games), ("--max-actions", args.max_actions)):
        if value is not None and value < 1:
            raise ValueError(f"{flag} must be a positive number, got {value}")
    if args.batch_size is not None and args.batch_size < 1:
        raise ValueError(f"--batch-size must be a positive number, got {args.batch_size}")
    for flag in ("out", "records"):
        path = getattr(args, flag, None)
        if path:
            _check_writable(path, "--" + flag)


def _check_writable(path: str, flag: str) -> None:
    """Open ``path`` for appending (creating nothing that was not there) to prove it writable."""
    existed = os.path.exists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise ValueError(f"{flag} {shown(path, 200)} cannot be written: {exc.strerror}") from None
    if not existed:
        os.remove(path)


def run(args: argparse.Namespace) -> int:
    if args.command == "games":
        _print_games()
        return 0
    if args.command == "agents":
        print(", ".join(registered_agents(args.game)))
        return 0
    _check_run_arguments(args)
    agents = split_agent_specs(args.agents)
    executor, client = _executor(args)
    start = time.perf_counter()
    try:
        if args.command == "tournament":
            results = gamelib.tournament(
                args.game,
                agents,
                games=args.games,
                seed=args.seed,
                executor=executor,
                keep_records=args.records is not None,
                **_common(args),
            )
            elapsed = time.perf_counter() - start
            print(results)
            print(
                f"{len(results)} games in {elapsed:.2f} s ({len(results) / elapsed:.0f} games/s) on {results.executor_label}"
            )
            if args.out:
                _write_csv(args.out, results.rows())
            if args.records:
                with open(args.records, "w", encoding="utf-8") as handle:
                    for i in range(len(results)):
                        handle.write(json.dumps(results.record(i)) + "\n")
        else:
            values = [_literal(v.strip()) for v in args.values.split(",") if v.strip()]
            swept = gamelib.sweep(
                args.game,
                option=args.option,
                values=values,
                agents=agents,
                games=args.games,
                seed=args.seed,
                executor=executor,
                **_common(args),
            )
            print(swept)
            if args.out:
                _write_csv(args.out, swept.rows())
    finally:
        if client is not None:
            client.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return run(args)
    except (ValueError, OptionError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
