"""How much of each game's rules modules is rules, and how much is notation, declarations and
bookkeeping: before (a git revision) and now, side by side (issue 23's closing note).

A game's rules are no longer one ``rules.py``: A Une Passante splits them over ``actions.py``,
``options.py``, ``effects.py``, ``refusals.py``, and the others follow.  So every module of a game
folder is read except those that are not its rules: ``board`` (static content), ``data``,
``draw``, ``agents``, ``analysis``, ``encoding``, Fugitive's ``belief`` package (an analysis) and
``__init__`` (re-exports).  Each line of each module goes to one column:

* **rules**: legality, transitions (``@transition``/``@refusal`` and the helpers they call),
  chance outcomes, scoring, what each seat may see (``_hidden_steps``), the rule constants;
* **notation**: action classes (``@action_class`` and subclasses of ``Action``), ``NOTATION``,
  tables of interned actions, ``parse_action`` and ``action_universe``;
* **declarations**: the state's fields (``fields = StateFields(...)``, the ``__init__`` of the state or of its ``...Table`` base, ``_clone``,
  ``key``, ``_public_key``, ``_derive``), the options dataclass, ``GameInfo``, phases
  (``Phases(...)`` or the older phase tables), ``Literal`` option aliases, plain data classes
  (observations, score sheets: fields and doc lines only);
* **bookkeeping**: ``__all__``, wording handles, dispatch
  (a test that is only ``isinstance(action, ...)``, ``match action`` and its class patterns,
  tables from action classes to methods), display (``__str__``, ``__repr__``), observation
  builders (``_observation``: re-listing fields), ``new_game``, ``max_game_length``,
  ``player_name``;
* **imports** (and ``TYPE_CHECKING`` blocks): apart, as splitting a file adds them mechanically;
* **docs**: docstrings (of the module, classes, functions and attributes), whatever they document,
  so a rules column that grows because its docstrings say why is told apart;
* **other**: blank lines and comments.

Run: ``python benchmarks/rules_lines.py`` (``--before REV`` default 7919c38, the session's base;
``--after REV`` default HEAD; ``--json``; ``--files`` adds a row per module).
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("fugitive", "passante", "delanopolis", "getonboard")
NOT_RULES = {"board", "data", "draw", "agents", "analysis", "encoding", "belief", "__init__"}
COLUMNS = ("rules", "notation", "declarations", "bookkeeping", "imports", "docs", "other")

NOTATION_METHODS = {"parse_action", "action_universe"}
FIELD_METHODS = {"_clone", "key", "_public_key", "_derive"}
BOOKKEEPING_METHODS = {
    "__str__",
    "__repr__",
    "_observation",
    "new_game",
    "max_game_length",
    "player_name",
}
DECLARATION_CALLS = {"StateFields", "GameInfo", "Phases", "Phase"}
BOOKKEEPING_CALLS = {"Wording"}


def git_files(rev: str, game: str) -> dict[str, str]:
    """The rules modules of ``game`` at ``rev``: ``{path: text}``."""
    listing = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", rev, f"gamelib/{game}/"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    files = {}
    for path in listing:
        parts = Path(path).relative_to(f"gamelib/{game}").parts
        if not path.endswith(".py") or Path(parts[0]).stem in NOT_RULES:
            continue
        files[path] = subprocess.run(
            ["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
    return files


def _start(node: ast.AST) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])  # type: ignore[attr-defined]


def _lines(node: ast.AST) -> range:
    return range(_start(node), (node.end_lineno or node.lineno) + 1)  # type: ignore[attr-defined]


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def _called(node: ast.AST) -> set[str]:
    called = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            called.add(f.id if isinstance(f, ast.Name) else getattr(f, "attr", ""))
    return called


def action_classes(trees: Iterable[ast.Module]) -> set[str]:
    """Names of the action classes defined in the folder (subclasses of ``Action``, at any depth,
    or decorated with ``@action_class``)."""
    classes = [n for tree in trees for n in tree.body if isinstance(n, ast.ClassDef)]
    found = {"Action"}
    grew = True
    while grew:
        grew = False
        for cls in classes:
            decorated = any("action_class" in _names(d) for d in cls.decorator_list)
            if cls.name not in found and (decorated or any(_names(b) & found for b in cls.bases)):
                found.add(cls.name)
                grew = True
    return found - {"Action"}


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _is_plain_data(cls: ast.ClassDef) -> bool:
    """A class of fields and their doc lines only (an observation, a score sheet)."""
    return all(
        isinstance(item, ast.AnnAssign) or _is_docstring(item) or isinstance(item, ast.Pass)
        for item in cls.body
    )


def _is_dispatch_table(value: ast.expr, actions: set[str]) -> bool:
    """``{ActionClass: method, ...}``: a table from action classes to what handles them."""
    if not isinstance(value, ast.Dict) or not value.keys:
        return False
    keys_are_actions = all(
        k is not None and _names(k) <= actions | {"self"} and _names(k) & actions for k in value.keys
    )
    values_are_handlers = all(  # functions or methods, not constants (PILE_OF = {Deal: P_DEAL} is a rule)
        isinstance(v, ast.Name | ast.Attribute)
        and not (_names(v) & actions)
        and not (isinstance(v, ast.Name) and v.id.isupper())
        for v in value.values
    )
    return keys_are_actions and values_are_handlers


def _pure_isinstance_on_action(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and isinstance(test.args[0], ast.Name)
        and test.args[0].id == "action"
    )


def _dispatch_lines(function: ast.AST) -> set[int]:
    """Lines of a function that only route an action by its class."""
    lines: set[int] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.If) and _pure_isinstance_on_action(node.test):
            lines.update(_lines(node.test))
            lines.add(node.lineno)
        elif (
            isinstance(node, ast.Match) and isinstance(node.subject, ast.Name) and node.subject.id == "action"
        ):
            lines.add(node.lineno)
            for case in node.cases:
                if isinstance(case.pattern, ast.MatchClass | ast.MatchOr | ast.MatchAs):
                    lines.update(_lines(case.pattern))
        elif isinstance(node, ast.Subscript) and "_transitions" in _names(node.value):
            lines.update(_lines(node))
    return lines


def method_column(cls: ast.ClassDef, item: ast.stmt, actions: set[str]) -> str:
    """The column of one statement of a class body."""
    name = item.name if isinstance(item, ast.FunctionDef) else ""
    if name in NOTATION_METHODS:
        return "notation"
    if name in FIELD_METHODS or (name == "__init__" and ("State" in cls.name or cls.name.endswith("Table"))):
        return "declarations"
    if name in BOOKKEEPING_METHODS:
        return "bookkeeping"
    if isinstance(item, ast.Assign | ast.AnnAssign):
        called = _called(item)
        if called & DECLARATION_CALLS:
            return "declarations"
        if called & BOOKKEEPING_CALLS:
            return "bookkeeping"
        value = item.value
        if value is not None and _is_dispatch_table(value, actions):
            return "bookkeeping"
    return "rules"


def classify(text: str, actions: set[str]) -> dict[str, int]:
    """The lines of one module, by column."""
    tree = ast.parse(text)
    total = len(text.splitlines())
    owner: dict[int, str] = {}

    def put(lines: Iterable[int], column: str, force: bool = False) -> None:
        for line in lines:
            if force or line not in owner:
                owner[line] = column

    for node in tree.body:
        if _is_docstring(node) and node is tree.body[0]:
            continue  # the module docstring: "docs", below
        if isinstance(node, ast.Import | ast.ImportFrom) or (
            isinstance(node, ast.If) and "TYPE_CHECKING" in _names(node.test)
        ):
            put(_lines(node), "imports")
        elif isinstance(node, ast.ClassDef):
            if node.name in actions:
                put(_lines(node), "notation")
            elif node.name.endswith("Options") or _is_plain_data(node):
                put(_lines(node), "declarations")
            else:
                put(range(_start(node), node.body[0].lineno), "rules")  # decorators, class line
                for item in node.body:
                    column = method_column(node, item, actions)
                    if column == "rules" and isinstance(item, ast.FunctionDef):
                        put(_dispatch_lines(item), "bookkeeping")
                    put(_lines(item), column)
        elif isinstance(node, ast.FunctionDef):
            column = "notation" if node.name in NOTATION_METHODS else "rules"
            put(_dispatch_lines(node), "bookkeeping")
            put(_lines(node), column)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = " ".join(
                sorted(_names(node.targets[0] if isinstance(node, ast.Assign) else node.target))
            )
            called = _called(node)
            value = node.value
            table = value is not None and _is_dispatch_table(value, actions)
            if "__all__" in targets or called & BOOKKEEPING_CALLS or table:
                column = "bookkeeping"
            elif called & {"Notation"} or (value is not None and _names(value) & actions):
                column = "notation"
            elif called & DECLARATION_CALLS or "PHASE" in targets.upper() or "Literal" in _names(node):
                column = "declarations"
            else:
                column = "rules"
            put(_lines(node), column)
        else:
            put(_lines(node), "rules")
    for expression in ast.walk(tree):
        if isinstance(expression, ast.Expr) and _is_docstring(expression):
            put(_lines(expression), "docs", force=True)
    counts = dict.fromkeys(COLUMNS, 0)
    source = text.splitlines()
    for line in range(1, total + 1):
        column = owner.get(line, "other")
        stripped = source[line - 1].strip()
        if not stripped or stripped.startswith("#"):
            column = "other"
        counts[column] += 1
    return counts


def measure(rev: str, game: str) -> dict[str, dict[str, int]]:
    """``{module path: counts}`` for the rules modules of ``game`` at ``rev``."""
    files = git_files(rev, game)
    trees = [ast.parse(text) for text in files.values()]
    actions = action_classes(trees)
    return {path: classify(text, actions) for path, text in sorted(files.items())}


def _sum(per_file: dict[str, dict[str, int]]) -> dict[str, int]:
    return {c: sum(counts[c] for counts in per_file.values()) for c in COLUMNS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="7919c38", help="the revision to compare with")
    parser.add_argument("--after", default="HEAD", help="the revision measured now")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--files", action="store_true", help="a row per module too")
    args = parser.parse_args()
    table = {
        game: {"before": measure(args.before, game), "after": measure(args.after, game)} for game in GAMES
    }
    if args.json:
        print(json.dumps(table, indent=1))
        return
    head = " ".join(f"{c[:5]:>11}" for c in COLUMNS)
    print(f"lines of the rules modules, {args.before} -> {args.after} (before -> after)")
    print(f"{'game':<34}{head} {'total':>11} {'largest':>9}")
    for game, sides in table.items():
        before, after = _sum(sides["before"]), _sum(sides["after"])
        cells = " ".join(f"{before[c]:>5}->{after[c]:<5}" for c in COLUMNS)
        largest = max(sum(counts.values()) for counts in sides["after"].values())
        files = f"{game} ({len(sides['before'])}->{len(sides['after'])} files)"
        print(f"{files:<34}{cells} {sum(before.values()):>5}->{sum(after.values()):<5} {largest:>9}")
        if args.files:
            for side in ("before", "after"):
                for path, counts in sides[side].items():
                    row = " ".join(f"{counts[c]:>11}" for c in COLUMNS)
                    print(f"  {side[0]} {Path(path).name:<29}{row} {sum(counts.values()):>11}")


if __name__ == "__main__":
    main()
