"""Held-out sets for the Fugitive belief benchmark (issue 24): written by ``--generate-to``, timed
by the C++ reference beside them (``<stem>.ref.json``), disagreements kept, not hidden."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from test_fugitive_reference import _script

ROOT = Path(__file__).resolve().parents[2]


def test_generate_to_writes_positions_with_both_counts(tmp_path: Path) -> None:
    script = _script()
    belief = sys.modules["fugitive_belief"]
    path = tmp_path / "held.jsonl.gz"
    belief.write_rows(path, belief.generate_rows("random", 3, first_seed=123, rng_seed=123, prefix="held"))
    with gzip.open(path, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    assert [r["id"] for r in rows] == ["held-0", "held-1", "held-2"]
    assert all(r["deal_weighted_mass"] >= r["worlds"] > 0 and r["count_ms"] >= 0 for r in rows)
    assert belief.ref_path(path) == tmp_path / "held.ref.json"
    assert script.input_lines(rows)[0].startswith('{"id":"held-0"')


def test_store_against_keeps_times_and_lists_disagreements(tmp_path: Path) -> None:
    script = _script()
    rows = script.positions("random")[:3]
    path = tmp_path / "held.jsonl.gz"
    with gzip.open(path, "wt") as handle:
        handle.writelines(json.dumps(r) + "\n" for r in rows)
    answers = [
        json.dumps({"id": rows[0]["id"], "mass": rows[0]["deal_weighted_mass"], "ms": 1.5}),
        json.dumps({"id": rows[1]["id"], "mass": rows[1]["deal_weighted_mass"] + 1, "ms": 2.0}),
    ]
    out = script.store_against(answers, path, None)
    document = json.loads(out.read_text())
    assert out == tmp_path / "held.ref.json"
    assert document["positions"] == {
        rows[0]["id"]: {"ms": 1.5, "deal_weighted_mass": rows[0]["deal_weighted_mass"]}
    }
    assert set(document["disagreements"]) == {rows[1]["id"], rows[2]["id"]}
    assert sys.modules["fugitive_belief"].reference_times(out) == {rows[0]["id"]: 1.5}
