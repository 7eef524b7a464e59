"""The C++ reference's stored times (issue 24) belong to the positions they claim, and the
conversion of our records into the reference's input keeps what the detective saw."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    if str(ROOT / "benchmarks") not in sys.path:  # the script imports its sibling fugitive_belief
        sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(
        "fugitive_reference", ROOT / "benchmarks" / "fugitive_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_stored_reference_masses_are_our_counts_for_every_v2_position() -> None:
    script = _script()
    stored = json.loads(script.STORED.read_text())["positions"]
    ours = {p["id"]: p for name in ("random", "agents") for p in script.positions(name)}
    assert set(stored) == set(ours)
    assert all(stored[k]["deal_weighted_mass"] == ours[k]["deal_weighted_mass"] for k in ours)
    assert all(stored[k]["ms"] > 0 for k in ours)


def test_the_reference_input_is_what_the_detective_saw() -> None:
    script = _script()
    for position in script.positions("random")[:12]:
        record = position["record"]
        observation = script.information_state(record)["observation"]
        hides = sum(1 for a in record["actions"] if a.startswith("hide "))
        assert len(observation["route"]) == hides + 1  # position 0 holds card 0
        plays = [p for p in observation["play_history"] if p["route_index"] is not None]
        assert [p["route_index"] for p in plays] == list(range(1, hides + 1))
        deals = sum(1 for a in record["actions"] if a.startswith("deal "))
        marshal = sum(1 for d in observation["draw_history"] if d["role"] == "marshal")
        assert len(observation["draw_history"]) == deals and marshal == len(observation["hand"])
        rounds = [d["round_number"] for d in observation["draw_history"]]
        assert rounds == sorted(rounds) and rounds[0] == 1
        found = {n for g in observation["guess_history"] if g["success"] for n in g["numbers"]}
        for node in observation["route"][1:]:
            if node["revealed"]:
                assert node["hideout"] in found
            elif node["hideout"] is not None:  # only the escape card is seen face down
                assert node["hideout"] == record["options"].get("escape_card", 42)
