"""pyproject.toml and environment.yml must list the same dependencies (conda and pip users alike)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import yaml

import gamelib

ROOT = Path(__file__).resolve().parent.parent


def _name(requirement: str) -> set[str]:
    """Package names of a requirement; ``dask[distributed]`` is ``dask`` plus ``distributed``."""
    match = re.match(r"\s*([A-Za-z0-9_.\-]+)(\[([^\]]*)\])?", requirement)
    assert match, requirement
    names = {match.group(1).lower().replace("_", "-")}
    if match.group(1).lower() == "dask" and match.group(3):
        names |= {extra.strip().lower() for extra in match.group(3).split(",")}
    return names


def pyproject_names() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names: set[str] = set()
    for req in project["dependencies"]:
        names |= _name(req)
    for reqs in project["optional-dependencies"].values():
        for req in reqs:
            names |= _name(req)
    return names


def environment_names() -> set[str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    names: set[str] = set()
    for dep in env["dependencies"]:
        if isinstance(dep, str):
            names |= _name(dep)
        else:  # the pip: section
            names |= {n for d in dep["pip"] if not d.startswith("-") for n in _name(d)}
    return names - {"python", "pip"}


def test_pyproject_and_environment_list_the_same_packages() -> None:
    py, env = pyproject_names(), environment_names()
    assert py - env == set(), f"in pyproject.toml but not environment.yml: {sorted(py - env)}"
    assert env - py == set(), f"in environment.yml but not pyproject.toml: {sorted(env - py)}"


def test_gamelib_core_needs_only_networkx_and_matplotlib() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert {n for r in project["dependencies"] for n in _name(r)} == {"networkx", "matplotlib"}


def test_gamelib_never_imports_jupyter() -> None:
    pattern = re.compile(
        r"^\s*(import|from)\s+(ipywidgets|IPython|gamelib_widgets|widgets|ipykernel|jupyter\w*)\b", re.M
    )
    offenders = [
        str(p.relative_to(ROOT)) for p in (ROOT / "gamelib").rglob("*.py") if pattern.search(p.read_text())
    ]
    assert offenders == []


def test_games_never_import_each_other() -> None:
    games = gamelib.registered_games()
    for game in games:
        folder = ROOT / "gamelib" / game
        if not folder.exists():
            continue
        others = "|".join(g for g in games if g != game)
        pattern = re.compile(rf"gamelib\.({others})\b")
        offenders = [str(p.relative_to(ROOT)) for p in folder.rglob("*.py") if pattern.search(p.read_text())]
        assert offenders == [], f"{game} imports another game: {offenders}"


# ---------------------------------------------------------------- the import name of widgets/
_BARE_WIDGETS = re.compile(r"^\s*(import|from)\s+widgets\b", re.M)


def _sources_importing_bare_widgets(texts: dict[str, str]) -> list[str]:
    return sorted(name for name, text in texts.items() if _BARE_WIDGETS.search(text))


def _code_texts() -> dict[str, str]:
    """Every Python source of gamelib/, widgets/, tests/ and benchmarks/, and every notebook's code."""
    texts = {
        str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
        for folder in ("gamelib", "widgets", "tests", "benchmarks")
        for p in (ROOT / folder).rglob("*.py")
    }
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        texts[str(nb.relative_to(ROOT))] = "\n".join(code)
    return texts


def test_the_bare_widgets_name_is_never_imported() -> None:
    """widgets/ installs as ``gamelib_widgets`` (a bare ``widgets`` belongs to other distributions,
    and with the project root on sys.path it would load the folder a second time, as another module)."""
    assert _sources_importing_bare_widgets(
        {
            "a": "from widgets import Stepper",
            "b": "import widgets.fugitive as f",
            "c": "  import widgets as w",
        }
    ) == ["a", "b", "c"]
    assert (
        _sources_importing_bare_widgets(
            {"a": "from gamelib_widgets import Stepper", "b": "import ipywidgets as W", "c": "# widgets/"}
        )
        == []
    )
    # the strategy lab's import is changed by its owner: until then it is the one known exception
    offenders = [
        n for n in _sources_importing_bare_widgets(_code_texts()) if n != "notebooks/05_strategy_lab.ipynb"
    ]
    assert offenders == []


def test_widgets_folder_installs_as_gamelib_widgets() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"gamelib_widgets": "widgets"}
    folders = {
        ".".join(p.relative_to(ROOT).parts)
        for top in ("gamelib", "widgets")
        for p in [ROOT / top, *(ROOT / top).rglob("*")]
        if p.is_dir() and ((p / "__init__.py").exists() or p.name == "data")
    }
    listed = {name.replace("gamelib_widgets", "widgets", 1) for name in setuptools["packages"]}
    assert listed == folders, f"pyproject.toml [tool.setuptools] packages: add {sorted(folders - listed)}"


def test_gamelib_widgets_is_the_installed_package() -> None:
    import gamelib_widgets
    import gamelib_widgets.stepper

    assert Path(gamelib_widgets.__file__).parent == ROOT / "widgets"
    assert gamelib_widgets.stepper.words.package == "gamelib_widgets"
    assert gamelib_widgets.stepper.words("undo") == "Undo"  # widgets/data/words.json is found
