"""The C++ reference belief (smsxgz/fugitive) on our benchmark positions: its inputs and its times.

Issue 24 asks for the exact belief beside its C++ reference in one run, on the shared positions
and on the 2,000 v2 positions of ``benchmarks/data/``.  The shared set carries the reference's
times; this script gives the v2 sets theirs.  It writes, for each position, the reference's
*marshal information state* (schema ``fugitive.information_state`` v1: the route as the detective
sees it, every draw and play with its round, every guess with its outcome, his hand), feeds the
lines to a driver around the reference's ``ComputeMarshalCompletion``, and stores the driver's
answers (deal-weighted mass, best CPU time of 3) in ``benchmarks/data/fugitive_reference_v2.json``.
``benchmarks/fugitive_belief.py`` prints those times beside ours.

The conversion is checked, not assumed: every stored mass must equal our own belief's
``deal_weighted_mass`` for that position (``--store`` refuses otherwise); on the 640 shared
positions the masses agree on every one.

The reference is not part of this repository.  To time it again: fetch smsxgz/fugitive (commit
2a5cdcb) and build it with ``benchmarks/cppref/build.sh PATH/TO/cpp/fugitive/belief.cc /tmp/cppref``
(needs g++ and nlohmann/json, Debian ``nlohmann-json3-dev``).  The script compiles, with
``g++ -O2 -std=c++17``, a copy of ``belief.cc`` without ``ReplayMarshalHistory`` (it needs the
whole OpenSpiel game) against our stand-ins for the three OpenSpiel headers it includes
(``benchmarks/cppref/include/``: the ``SPIEL_CHECK_*`` macros, the ``Player``/``Action`` aliases,
the game's constants and phases) and our driver (``benchmarks/cppref/driver.cc``), which reads the
JSON lines this script writes, calls ``BuildMarshalBeliefInput`` once and times
``ComputeMarshalCompletion`` with ``CLOCK_PROCESS_CPUTIME_ID`` (best of 3), printing
``{"id", "mass", "ms"}`` per line.  Then::

    python benchmarks/fugitive_reference.py --inputs random > random.jsonl
    /tmp/cppref/refbelief 3 < random.jsonl > random.out        # the same for agents
    python benchmarks/fugitive_reference.py --store random.out agents.out

Any other set (e.g. a held-out one, same format) in one command, checked against the set's own
masses and stored beside it as ``<set>.ref.json`` (``fugitive_belief.py --set NAME=PATH`` reads
it)::

    python benchmarks/fugitive_reference.py --run /tmp/cppref/refbelief --inputs-file PATH

or by hand: ``--inputs-file PATH > in.jsonl``, the driver, then
``--store out.jsonl --against PATH [--times-out FILE]``.  Unlike the v2 sets' ``--store``, a
position where the reference errs or its mass differs from ours does not stop a held-out store:
it is listed under ``disagreements`` in the file (and printed): that is what a held-out set is for.
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from fugitive_belief import SETS, ref_path  # the benchmark's sets (this script runs beside it)

import gamelib
from gamelib.core.game import CHANCE

ROOT = Path(__file__).resolve().parents[1]
STORED = ROOT / "benchmarks" / "data" / "fugitive_reference_v2.json"
DETECTIVE = 1


def deck_of(card: int) -> int:
    """The deck (0-2) a card 4-41 comes from (the reference's pile numbers)."""
    return 0 if card <= 14 else 1 if card <= 28 else 2


class _Reader:
    """Walks a game's history once, writing down what the detective sees in the reference's terms.

    Rounds as the reference counts them: round 1 holds the setup deals, the opening hideouts and
    the detective's first turn; each later round starts with the fugitive's turn.
    """

    def __init__(self) -> None:
        self.round = 1
        self.new_round = False
        self.pending: tuple[str, int] | None = None  # a draw waiting for its deal: (role, pile)
        self.draws: list[dict[str, Any]] = []
        self.plays: list[dict[str, Any]] = []
        self.guesses: list[dict[str, Any]] = []
        self.series: list[int] = []
        self.route_length = 0

    def before(self, verb: str, action: Any, player: int) -> None:
        if player not in (CHANCE, DETECTIVE) and self.new_round and verb in ("draw", "hide", "pass"):
            self.round += 1
            self.new_round = False
        if verb == "deal":
            if self.pending is None:  # a setup deal: the fugitive's starting hand
                self.draws.append({"role": "fugitive", "pile": deck_of(action.card), "round_number": 1})
            else:
                role, pile = self.pending
                self.draws.append({"role": role, "pile": pile, "round_number": self.round})
                self.pending = None
        elif verb == "draw":
            self.pending = ("marshal" if player == DETECTIVE else "fugitive", action.deck)
        elif verb == "hide":
            self.route_length += 1
            self.plays.append({"route_index": self.route_length, "round_number": self.round})
        elif verb == "pass" and player != DETECTIVE:
            self.plays.append({"route_index": None, "round_number": self.round})
        elif verb in ("guess", "add"):
            self.series.append(action.number)

    def after(self, verb: str, revealed_before: list[bool], revealed_now: list[bool]) -> None:
        if verb in ("guess", "reveal"):
            success = any(
                now and not before for now, before in zip(revealed_now, revealed_before, strict=True)
            )
            self.guesses.append(
                {
                    "numbers": sorted(self.series),
                    "success": success,
                    "route_length": self.route_length,
                    "round_number": self.round,
                    "manhunt": False,
                }
            )
            self.series = []
            self.new_round = True


def information_state(record: dict[str, Any]) -> dict[str, Any]:
    """The reference's marshal information state at the end of ``record`` (a detective decision)."""
    final = gamelib.from_record(record)
    state = final.game.new_game(final.seed)
    reader = _Reader()
    for action in final.history:
        verb = str(action).split()[0]
        reader.before(verb, action, state.current_player)
        before = list(state.revealed)  # type: ignore[attr-defined]
        state.apply(action)
        reader.after(verb, before, list(state.revealed))  # type: ignore[attr-defined]
    last = final.game.layout.last  # type: ignore[attr-defined]
    hidden_escape_sprints = final.game.options.escape_sprints == "hidden"  # type: ignore[attr-defined]
    route = []
    for index, (hideout, revealed, sprints) in enumerate(
        zip(state.hideouts, state.revealed, state.sprints, strict=True)  # type: ignore[attr-defined]
    ):
        sprint_seen = revealed and (hideout != last or not hidden_escape_sprints)
        route.append(
            {
                "index": index,
                "sprint_count": len(sprints),
                "revealed": bool(revealed),
                "hideout": hideout if revealed or hideout in (0, last) else None,
                "sprint_cards": list(sprints) if sprint_seen else None,
            }
        )
    hand = [card for card in range(1, last + 1) if state.dhand >> card & 1]  # type: ignore[attr-defined]
    observation = {
        "role": "marshal",
        "hand": hand,
        "route": route,
        "guess_history": reader.guesses,
        "draw_history": reader.draws,
        "play_history": reader.plays,
        "action_stage": "manhunt_guess" if last in state.hideouts else "marshal_guess",  # type: ignore[attr-defined]
    }
    return {
        "schema": "fugitive.information_state",
        "schema_version": 1,
        "perfect_recall": True,
        "observation": observation,
    }


def positions(name: str) -> list[dict[str, Any]]:
    return positions_of(SETS[name])


def positions_of(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def input_lines(rows: list[dict[str, Any]]) -> list[str]:
    return [
        json.dumps(
            {"id": p["id"], "information_state": information_state(p["record"])}, separators=(",", ":")
        )
        for p in rows
    ]


def write_inputs(name: str) -> None:
    for line in input_lines(positions(name)):
        print(line)


def _document(times: dict[str, dict[str, float]]) -> dict[str, Any]:
    return {
        "reference": "smsxgz/fugitive 2a5cdcb, cpp/fugitive/belief.cc ComputeMarshalCompletion",
        "measure": "best CPU time of 3 (CLOCK_PROCESS_CPUTIME_ID), JSON parsing excluded, g++ -O2",
        "machine": f"{platform.machine()}, {platform.system()}, 2 cores shared with other work",
        "measured": time.strftime("%Y-%m-%d", time.gmtime()),
        "command": "see the docstring of benchmarks/fugitive_reference.py",
        "positions": dict(sorted(times.items())),
    }


def store(outputs: list[Path]) -> None:
    """Check the driver's masses against ours, then store its times (``STORED``)."""
    ours = {p["id"]: p for name in ("random", "agents") for p in positions(name)}
    times: dict[str, dict[str, float]] = {}
    for path in outputs:
        for line in path.read_text().splitlines():
            answer = json.loads(line)
            mine = ours[answer["id"]]
            if "error" in answer:
                raise SystemExit(f"{answer['id']}: the reference failed: {answer['error']}")
            want = mine["deal_weighted_mass"]
            if abs(answer["mass"] - want) > 1e-9 * max(1, want):
                raise SystemExit(f"{answer['id']}: reference mass {answer['mass']:.6g}, ours {want}")
            times[answer["id"]] = {"ms": answer["ms"], "deal_weighted_mass": want}
    missing = sorted(set(ours) - set(times))
    if missing:
        raise SystemExit(f"no reference answer for {len(missing)} positions, e.g. {missing[:3]}")
    STORED.write_text(json.dumps(_document(times), indent=0) + "\n")
    print(f"stored {len(times)} reference times in {STORED.relative_to(ROOT)}")


def store_against(answers: list[str], against: Path, out: Path | None) -> Path:
    """Store the driver's answers for the set at ``against`` (default ``<set>.ref.json``): times of
    the positions whose mass equals ours; the others (and missing ones) under ``disagreements``."""
    ours = {p["id"]: p for p in positions_of(against)}
    times: dict[str, dict[str, float]] = {}
    disagreements: dict[str, dict[str, Any]] = {}
    for line in answers:
        answer = json.loads(line)
        want = ours[answer["id"]]["deal_weighted_mass"]
        if "error" in answer:
            disagreements[answer["id"]] = {"ours": want, "reference_error": answer["error"]}
        elif abs(answer["mass"] - want) > 1e-9 * max(1, want):
            disagreements[answer["id"]] = {"ours": want, "reference": answer["mass"], "ms": answer["ms"]}
        else:
            times[answer["id"]] = {"ms": answer["ms"], "deal_weighted_mass": want}
    for missing in sorted(set(ours) - set(times) - set(disagreements)):
        disagreements[missing] = {"ours": ours[missing]["deal_weighted_mass"], "reference_error": "no answer"}
    document = _document(times)
    document["set"] = str(against)
    document["disagreements"] = disagreements
    out = out or ref_path(against)
    out.write_text(json.dumps(document, indent=0) + "\n")
    print(
        f"stored {len(times)} reference times in {out}; {len(disagreements)} disagreements", file=sys.stderr
    )
    for key, value in disagreements.items():
        print(f"  DISAGREE {key}: {value}", file=sys.stderr)
    return out


def run(binary: Path, against: Path, out: Path | None, repeats: int = 3) -> Path:
    """Inputs of the set at ``against``, the driver on them (its answers kept beside the output as
    ``.out.jsonl``), then :func:`store_against`."""
    lines = input_lines(positions_of(against))
    done = subprocess.run(
        [str(binary), str(repeats)], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True
    )
    answers = done.stdout.splitlines()
    target = out or ref_path(against)
    target.with_name(target.name.split(".")[0] + ".ref.out.jsonl").write_text(done.stdout)
    return store_against(answers, against, out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", choices=sorted(SETS), help="print the reference's inputs of a set")
    parser.add_argument("--inputs-file", type=Path, metavar="PATH", help="the same for the set at PATH")
    parser.add_argument("--store", nargs="+", type=Path, help="driver outputs to check and store")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="PATH",
        help="with --store: the set the outputs answer (not the v2 sets)",
    )
    parser.add_argument(
        "--times-out", type=Path, metavar="FILE", help="where --against/--run store (<set>.ref.json)"
    )
    parser.add_argument(
        "--run", type=Path, metavar="DRIVER", help="run the driver on --inputs-file PATH and store"
    )
    args = parser.parse_args(argv)
    if args.run:
        if not args.inputs_file:
            parser.error("--run needs --inputs-file PATH")
        run(args.run, args.inputs_file, args.times_out)
    elif args.inputs:
        write_inputs(args.inputs)
    elif args.inputs_file:
        for line in input_lines(positions_of(args.inputs_file)):
            print(line)
    elif args.store and args.against:
        answers = [line for path in args.store for line in path.read_text().splitlines() if line.strip()]
        store_against(answers, args.against, args.times_out)
    elif args.store:
        store(args.store)
    else:
        parser.print_help(sys.stderr)


if __name__ == "__main__":
    main()
