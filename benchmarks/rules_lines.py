"""How much of each game's ``rules.py`` is rules, and how much is bookkeeping.

Issue 16 ("say each thing once") asks each ``rules.py`` to shrink to its rules.  This script
classifies the lines of every top-level statement and method of ``gamelib/<game>/rules.py``:

* **notation**: action classes (their fields, ``__str__``, bounds checks), interning tables of
  actions, ``parse_action`` and ``action_universe``;
* **fields**: a state's ``__init__`` field list, ``_clone``, ``key``/``_public_key`` and field
  declarations;
* **rules**: everything else (legality, transitions, scoring, options, docs of the rules).

Run: ``python benchmarks/rules_lines.py`` (prints a table; ``--json`` for machine use).
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("fugitive", "passante", "delanopolis", "getonboard")
FIELD_METHODS = {"__init__", "_clone", "key", "_public_key"}
NOTATION_METHODS = {"parse_action", "action_universe"}


def _is_action_class(node: ast.ClassDef) -> bool:
    return any(isinstance(b, ast.Name) and b.id == "Action" for b in node.bases)


def _span(node: ast.AST) -> int:
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    end = node.end_lineno or node.lineno
    return end - start + 1


def _mentions_actions(node: ast.AST, action_names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in action_names for n in ast.walk(node))


def classify(path: Path) -> dict[str, int]:
    tree = ast.parse(path.read_text())
    counts = {"notation": 0, "fields": 0, "rules": 0}
    action_names = {n.name for n in tree.body if isinstance(n, ast.ClassDef) and _is_action_class(n)}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and _is_action_class(node):
            counts["notation"] += _span(node)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                method = item.name if isinstance(item, ast.FunctionDef) else ""
                declares_fields = isinstance(item, ast.Assign | ast.AnnAssign) and any(
                    isinstance(t, ast.Name) and t.id == "fields" for t in ast.walk(item)
                )
                if method in NOTATION_METHODS:
                    counts["notation"] += _span(item)
                elif declares_fields or (method in FIELD_METHODS and "State" in node.name):
                    counts["fields"] += _span(item)
                else:
                    counts["rules"] += _span(item)
            counts["rules"] += 1  # the class line
        elif isinstance(node, ast.Assign | ast.AnnAssign) and _mentions_actions(node, action_names):
            counts["notation"] += _span(node)
        else:
            counts["rules"] += _span(node)
    return counts


def main() -> None:
    table = {game: classify(ROOT / "gamelib" / game / "rules.py") for game in GAMES}
    if "--json" in sys.argv:
        print(json.dumps(table, indent=1))
        return
    print(f"{'game':<12} {'rules':>6} {'notation':>9} {'fields':>7} {'total':>6}")
    for game, c in table.items():
        print(f"{game:<12} {c['rules']:>6} {c['notation']:>9} {c['fields']:>7} {sum(c.values()):>6}")


if __name__ == "__main__":
    main()
