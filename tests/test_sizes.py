"""Library code stays readable: no file over 800 lines, no function over 80 (issue 23's limits).

Counted over the library (``gamelib/`` and ``widgets/``), from a function's ``def`` line to its
last line (docstring and nested functions included).  A failure names every offender with its size.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = (ROOT / "gamelib", ROOT / "widgets")
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 80


def library_files() -> list[Path]:
    return sorted(path for folder in LIBRARY for path in folder.rglob("*.py"))


def test_no_library_file_is_over_800_lines() -> None:
    long = {}
    for path in library_files():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_FILE_LINES:
            long[str(path.relative_to(ROOT))] = lines
    assert len(library_files()) > 50
    assert long == {}, f"files over {MAX_FILE_LINES} lines: {long}"


def test_no_library_function_is_over_80_lines() -> None:
    long = {}
    for path in library_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"] = lines
    assert long == {}, f"functions over {MAX_FUNCTION_LINES} lines: {long}"
