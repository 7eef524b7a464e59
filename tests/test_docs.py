"""The documentation's examples are executable: notation blocks replay, rule names exist."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

import gamelib

ROOT = Path(__file__).resolve().parent.parent


def test_fugitive_notation_example_replays() -> None:
    text = (ROOT / "docs" / "notation.md").read_text()
    section = text.split("## Fugitive", 1)[1]
    block = section.split("```", 2)[1]
    moves = [m.strip() for line in block.splitlines() for m in line.split("#")[0].split(",") if m.strip()]
    state: Any = gamelib.make("fugitive").new_game(seed=1)
    for move in moves:
        state.apply(move)
    assert state.hideouts == [0, 3, 4, 12]
    assert state.revealed == [True, False, True, False]  # the single guess found 4
    snippet = section.split("```python", 1)[1].split("```", 1)[0]
    with pytest.raises(gamelib.IllegalAction, match="turn-order"):
        exec(snippet, {"gamelib": gamelib})  # the documented error


def test_every_game_has_a_rules_page_and_a_notation_table() -> None:
    for name in gamelib.registered_games():
        assert (ROOT / "docs" / "rules" / f"{name}.md").exists(), name
    assert sorted(DOCUMENTED_VERBS) == sorted(gamelib.registered_games()), (
        "say where each game's verbs are listed"
    )


DOCUMENTED_VERBS = {
    "fugitive": ("docs/notation.md", "## Fugitive"),
    "passante": ("docs/notation.md", "## A Une Passante"),
    "delanopolis": ("docs/rules/delanopolis.md", "## Notation"),
    "getonboard": ("docs/rules/getonboard.md", "## Notation"),
}


@pytest.mark.parametrize("name", sorted(DOCUMENTED_VERBS))
def test_the_notation_tables_list_exactly_the_declared_verbs(name: str) -> None:
    """The docs' notation table and the game's declarations (``NOTATION``) name the same verbs."""
    path, start = DOCUMENTED_VERBS[name]
    section = (ROOT / path).read_text().split(start, 1)[1]
    table: list[str] = []  # the section's first table
    for line in section.splitlines()[1:]:
        if line.startswith("|"):
            table.append(line)
        elif table:
            break
    documented = {
        code.split()[0] for line in table for code in re.findall(r"`([a-z]+(?: [^`]*)?)`", line.split("|")[1])
    }
    declared = set(importlib.import_module(f"gamelib.{name}.rules").NOTATION.verbs)
    assert documented == declared


# ------------------------------------------------------------------ lesson plans: every exercise runs
# docs/teaching.md and docs/classroom.md give students code to type. Each line runs here in the context
# the text names: a notebook run up to a cell (the first code cell containing ``after``, or to the end),
# or an experiments script of notebooks/data/. A line added to the docs without an entry here fails
# test_every_documented_call_is_run, so nothing a teacher hands out goes untested.
NOTEBOOKS = ROOT / "notebooks"
DATA = NOTEBOOKS / "data"

EXERCISES: dict[str, tuple[str, str | None]] = {
    # code -> (context: a notebook or "data/<script>.py", the cell to stop after: None = every cell)
    "play_until(lambda s: False, seed=0)": ("04_get_on_board.ipynb", "final = play_until("),
    "play_until(lambda s: s.round == 6, seed=3).draw()": ("04_get_on_board.ipynb", "final = play_until("),
    'under(final, tourist_overflow="next-row")': ("04_get_on_board.ipynb", "final = play_until("),
    "field(games=30)": ("data/getonboard_experiments.py", None),
    'replay(state.history[:8], seed=7, **WALK, refuge_bonus="by_role").draw()': (
        "03_delanopolis.ipynb",
        "agent, rng = RoleAgent()",
    ),
    "fraction(games=30)": ("data/delanopolis_experiments.py", None),
    'gamelib.delanopolis.analysis.outcome_rates(4, {"bid_cap": 50}, games=100)': (
        "03_delanopolis.ipynb",
        None,
    ),
    'act(state.clone(), "event gardien")': ("02_a_une_passante.ipynb", "effects = {"),
    "stepper.set_hot_seat(True)": ("02_a_une_passante.ipynb", "stepper = Stepper(three"),
    "talk(games=20, players=(3,))": ("data/passante_experiments.py", None),
    'fugitive_stepper(seed=7, options={"edition": 2})': ("01_fugitive.ipynb", "stepper = fugitive_stepper("),
    'fugitive_stepper(seed=7, options={"escape_card": 12})': (
        "01_fugitive.ipynb",
        "stepper = fugitive_stepper(",
    ),
    'gamelib.set_language(os.environ.get("GAMELIB_LANGUAGE", "en"))': ("00_start_here.ipynb", None),
    "stepper.refresh()": ("04_get_on_board.ipynb", "stepper = getonboard_stepper("),
}
"""The code each lesson plan hands out, and where it runs."""

_CALL = re.compile(r"`([^`\n]*\w\([^`\n]*\))`")


def documented_calls() -> set[str]:
    """Inline code in the teaching docs that calls something (a Python expression a student types)."""
    calls: set[str] = set()
    for name in ("teaching.md", "classroom.md"):
        for code in _CALL.findall((ROOT / "docs" / name).read_text(encoding="utf-8")):
            if not code.startswith((".venv/", "make ", "python ", "voila ")):
                calls.add(code)
    return calls


def test_every_documented_call_is_run() -> None:
    missing = sorted(documented_calls() - set(EXERCISES))
    assert missing == [], (
        f"code in docs/teaching.md or docs/classroom.md with no context to run it in: {missing}"
    )


def _notebook_namespace(notebook: str, after: str | None) -> dict[str, object]:
    """Run a notebook's code cells (magics dropped) in its folder, up to the cell containing ``after``."""
    import json
    import os

    from IPython.display import display

    cells = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))["cells"]
    # display() is a builtin in a notebook's kernel (the language switch of each first cell uses it)
    namespace: dict[str, object] = {"__name__": "__notebook__", "display": display}
    here = os.getcwd()
    os.chdir(NOTEBOOKS)
    try:
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("%"))
            exec(compile(code, f"{notebook}", "exec"), namespace)
            if after is not None and after in source:
                break
        else:
            assert after is None, f"{notebook} has no code cell containing {after!r}"
    finally:
        os.chdir(here)
    return namespace


_CONTEXTS: dict[tuple[str, str | None], dict[str, object]] = {}


@pytest.mark.parametrize("code", sorted(EXERCISES))
def test_a_documented_exercise_runs_in_its_context(code: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    context, after = EXERCISES[code]
    if context.startswith("data/"):
        import functools
        import inspect
        import sys

        sys.path.insert(0, str(ROOT / "tests"))
        from stored_support import experiments_script

        script = vars(experiments_script(context.removeprefix("data/")))
        namespace: dict[str, object] = {
            name: functools.partial(value, progress=False)
            if inspect.isfunction(value) and "progress" in inspect.signature(value).parameters
            else value
            for name, value in script.items()
        }
    else:
        key = (context, after)
        if key not in _CONTEXTS:
            _CONTEXTS[key] = _notebook_namespace(context, after)
        namespace = dict(_CONTEXTS[key])
        namespace.setdefault("gamelib", gamelib)
    previous = gamelib.language()
    try:
        result = eval(compile(code, "docs", "eval"), namespace)
    finally:
        gamelib.set_language(previous)
    assert result is None or result is not NotImplemented


# ------------------------------------------------------------------ lesson plans: cell numbers
# Each lesson table cites the cells it shows (0-based, as nbformat counts them). Cells get added to the
# notebooks; these checks make a stale number fail instead of sending a teacher to the wrong cell.
_PLAN = re.compile(r"^## .*\(`notebooks/(\d\d_\w+\.ipynb)`\)", re.M)
_ROW_CELLS = re.compile(r"^\|[^|]*\|([^|]*)\|\s*(\d+)-(\d+)\s*\|", re.M)
_CODE_IN_CELL = re.compile(r"`([^`]+)`\s*(?:in cell|\(cell) (\d+)\b")


def lesson_plans() -> list[tuple[str, str]]:
    """(notebook, the plan's text) for each lesson plan of docs/teaching.md."""
    text = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    starts = list(_PLAN.finditer(text))
    ends = [match.start() for match in starts[1:]] + [len(text)]
    return [(match.group(1), text[match.start() : end]) for match, end in zip(starts, ends, strict=True)]


def _cells(notebook: str) -> list[dict[str, Any]]:
    import json

    cells: list[dict[str, Any]] = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))["cells"]
    return cells


def _heading(cell: dict[str, Any]) -> str:
    """A markdown cell's first heading line ('' for a code cell or a cell with none)."""
    if cell["cell_type"] != "markdown":
        return ""
    return next((line for line in "".join(cell["source"]).splitlines() if line.startswith("#")), "")


def test_the_lesson_plans_cover_four_notebooks() -> None:
    assert sorted(name for name, _ in lesson_plans()) == [
        "01_fugitive.ipynb",
        "02_a_une_passante.ipynb",
        "03_delanopolis.ipynb",
        "04_get_on_board.ipynb",
    ]


@pytest.mark.parametrize("notebook, plan", lesson_plans(), ids=[name for name, _ in lesson_plans()])
def test_lesson_plan_cell_ranges_follow_the_notebook(notebook: str, plan: str) -> None:
    """Each row's cells start at a section heading and end just before the next one (or the last cell);
    a row naming its section (``(section N``) starts at that section's heading; rows go in order."""
    cells = _cells(notebook)
    rows = [(what, int(first), int(last)) for what, first, last in _ROW_CELLS.findall(plan)]
    assert len(rows) >= 6, f"{notebook}: the lesson table was not found"
    previous = -1
    for what, first, last in rows:
        where = f"{notebook} cells {first}-{last} ({what.strip()[:60]}...)"
        assert previous < first <= last < len(cells), where
        assert _heading(cells[first]), f"{where}: cell {first} is not a section heading"
        assert last + 1 == len(cells) or _heading(cells[last + 1]), (
            f"{where}: cell {last + 1} is still that section"
        )
        section = re.search(r"\(sections? (\d+)\b", what)
        if section:
            assert re.match(rf"#+ {section.group(1)}\. ", _heading(cells[first])), (
                f"{where}: cell {first} is {_heading(cells[first])!r}, not section {section.group(1)}"
            )
        previous = last


@pytest.mark.parametrize("notebook, plan", lesson_plans(), ids=[name for name, _ in lesson_plans()])
def test_code_quoted_with_its_cell_is_in_that_cell(notebook: str, plan: str) -> None:
    """ "`seed=1` in cell 3", "`RECOMPUTE = False` (cell 3": the code is in that cell."""
    cells = _cells(notebook)
    for code, number in _CODE_IN_CELL.findall(plan):
        assert code in "".join(cells[int(number)]["source"]), f"{notebook}: `{code}` is not in cell {number}"


# ------------------------------------------------------------------ docs/architecture.md: every code sample runs
# A fenced block is one of three kinds, told by its info string:
#   ```python file=<path>   a file of the toy game: written under a temporary folder put on sys.path
#   ```<lang> from=<path>   an excerpt: its lines, in order, are lines of that file (``...`` skips any,
#                           a line ending " …" quotes the start of a longer one);
#                           the path is the toy's when it wrote one, else the repository's
#   ```python               code: run in order, in one namespace, once the toy's files are written
# Any other fence (a diagram) is no code.  So the page cannot quote code that is not there any more.
ARCHITECTURE = ROOT / "docs" / "architecture.md"
_FENCE = re.compile(r"^```([\w-]+)([^\n]*)\n(.*?)^```\s*$", re.M | re.S)


def fenced_blocks(path: Path) -> list[tuple[str, dict[str, str], str]]:
    """``(language, attributes, code)`` of every fenced block of ``path`` with a language."""
    blocks = []
    for match in _FENCE.finditer(path.read_text(encoding="utf-8")):
        attributes = dict(item.split("=", 1) for item in match.group(2).split() if "=" in item)
        blocks.append((match.group(1), attributes, match.group(3)))
    return blocks


def excerpt_problem(code: str, source: str) -> str:
    """'' when the lines of ``code`` are lines of ``source`` in order (a ``...`` line skips any), else
    the first line not found where it should be."""
    lines = [line.strip() for line in source.splitlines()]
    at = 0
    for wanted in (line.strip() for line in code.splitlines()):
        if not wanted or wanted == "...":
            continue
        cut = wanted.endswith(" …")  # a long line quoted up to "…": the start must match
        found = [
            i
            for i in range(at, len(lines))
            if (lines[i].startswith(wanted[:-2]) if cut else lines[i] == wanted)
        ]
        if not found:
            return wanted
        at = found[0] + 1
    return ""


def test_every_excerpt_of_the_other_pages_quotes_its_file() -> None:
    """A block marked ``from=<file>`` on any other page of docs/ is still a quote of that file."""
    checked = 0
    for path in sorted((ROOT / "docs").rglob("*.md")):
        if path == ARCHITECTURE:
            continue  # checked with its runnable samples below
        for _, attributes, code in fenced_blocks(path):
            if "from" in attributes:
                source = (ROOT / attributes["from"]).read_text(encoding="utf-8")
                problem = excerpt_problem(code, source)
                assert problem == "", (
                    f"{path.name} quotes {attributes['from']}, which has no line {problem!r}"
                )
                checked += 1
    assert checked >= 1  # docs/notation.md quotes Fugitive's Draw


def test_the_excerpt_check_can_fail() -> None:
    source = "def f():\n    x = 1\n    return x\n"
    assert excerpt_problem("def f():\n    ...\n    return x", source) == ""
    assert excerpt_problem("    return x\n    x = 1", source) == "x = 1"  # out of order
    assert excerpt_problem("def f(): …\n    return y", source) == "return y"


def test_every_code_sample_of_the_architecture_page_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from gamelib.core import registry

    blocks = fenced_blocks(ARCHITECTURE)
    toy: set[str] = set()
    for language, attributes, code in blocks:
        if "file" in attributes:
            assert language == "python", attributes
            target = tmp_path / attributes["file"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(code, encoding="utf-8")
            toy.add(attributes["file"])
    monkeypatch.syspath_prepend(str(tmp_path))
    namespace: dict[str, Any] = {"__name__": "__architecture__"}
    ran = checked = 0
    try:
        for language, attributes, code in blocks:
            if "from" in attributes:
                path = attributes["from"]
                source = (tmp_path / path if path in toy else ROOT / path).read_text(encoding="utf-8")
                problem = excerpt_problem(code, source)
                assert problem == "", (
                    f"docs/architecture.md quotes {path}, which has no line {problem!r} there"
                )
                checked += 1
            elif language == "python" and "file" not in attributes:
                exec(compile(code, f"docs/architecture.md block {ran + 1}", "exec"), namespace)
                ran += 1
    finally:
        for name in list(sys.modules):
            if name.split(".")[0] in {path.split("/")[0] for path in toy}:
                del sys.modules[name]
        registry._GAMES.pop("sticks", None)
    assert toy and ran >= 3 and checked >= 5, (toy, ran, checked)
