"""pyproject.toml and environment.yml must list the same dependencies (conda and pip users alike)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

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
    pattern = re.compile(r"^\s*(import|from)\s+(ipywidgets|IPython|widgets|ipykernel|jupyter\w*)\b", re.M)
    offenders = [
        str(p.relative_to(ROOT)) for p in (ROOT / "gamelib").rglob("*.py") if pattern.search(p.read_text())
    ]
    assert offenders == []


def test_games_never_import_each_other() -> None:
    games = ["fugitive", "passante", "delanopolis", "getonboard"]
    for game in games:
        folder = ROOT / "gamelib" / game
        if not folder.exists():
            continue
        others = "|".join(g for g in games if g != game)
        pattern = re.compile(rf"gamelib\.({others})\b")
        offenders = [str(p.relative_to(ROOT)) for p in folder.rglob("*.py") if pattern.search(p.read_text())]
        assert offenders == [], f"{game} imports another game: {offenders}"
