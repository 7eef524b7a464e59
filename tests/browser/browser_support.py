"""What the browser tests share: paths, requirements, notebook discovery, timings.

Kept out of ``conftest.py`` so that test modules can import it by a unique name (two ``conftest``
modules exist in the tests tree; importing "conftest" would be ambiguous).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = Path(os.environ.get("GAMELIB_BROWSER_NOTEBOOKS") or REPO / "notebooks")
"""The notebooks under test; point GAMELIB_BROWSER_NOTEBOOKS at another folder to try a draft."""
SCREENSHOT_DIR = REPO / "screenshots"
VIEWPORT = {"width": 1280, "height": 800}
"""A common projector resolution (WXGA): what a class sees is what gets screenshotted."""
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NOTEBOOK_TIMEOUT_S = float(os.environ.get("GAMELIB_BROWSER_TIMEOUT", "300"))
"""Bound on one notebook's Run All (or Voilà page): generous for two busy cores."""
MIN_BOARD_SCALE = 0.5
"""Below this displayed/drawn width ratio the browser shows a board's 10-point labels at under 7 px: too
small for a class.  A warning by default; GAMELIB_BROWSER_STRICT_BOARD=1 makes it a failure."""
STRICT_BOARD = os.environ.get("GAMELIB_BROWSER_STRICT_BOARD", "") not in ("", "0")
STEP_TIMEOUT_S = float(os.environ.get("GAMELIB_BROWSER_STEP_TIMEOUT", "120"))
"""Bound on each stepper click taking effect (play to end included)."""
VOILA_USABLE_GOAL_S = 10.0
"""The classroom promise (docs/classroom.md): a Voilà page is usable this many seconds after it is opened
(the server already running), on a quiet 2-core machine.  Reported per notebook, not asserted: a loaded
test machine is slower than a quiet one."""
VOILA_USABLE_BOUND_S = float(os.environ.get("GAMELIB_VOILA_USABLE_BOUND", "60"))
"""The asserted bound on the same time: generous, so that only a real regression (a notebook that plays
its experiments live again, say) fails on a busy machine."""
CLICK_LATENCY_CLICKS = int(os.environ.get("GAMELIB_CLICK_LATENCY_CLICKS", "10"))
"""Mouse clicks on Step timed per Voilà page (the first Stepper of each notebook): click to new board."""
CLICK_LATENCY_BOUND_MS = float(os.environ.get("GAMELIB_CLICK_LATENCY_BOUND", "2000"))
"""The asserted bound on the median click-to-new-board time: generous (a busy two-core machine), so that
only a real regression fails, while a page that never answers a click fails for sure."""


def chromium_path() -> str | None:
    candidate = os.environ.get("GAMELIB_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return candidate if Path(candidate).is_file() and os.access(candidate, os.X_OK) else None


def missing_requirement(need_voila: bool = False) -> str | None:
    """Why the browser tests cannot run here, or None."""
    if importlib.util.find_spec("playwright") is None:
        return "playwright (Python) is not installed: .venv/bin/pip install playwright"
    if chromium_path() is None:
        return (
            "no chromium executable: run .ci/install-browser.sh (Debian package; never `playwright install`)"
        )
    if importlib.util.find_spec("jupyterlab") is None:
        return "jupyterlab is not installed"
    if need_voila and importlib.util.find_spec("voila") is None:
        return "voila is not installed: .venv/bin/pip install voila"
    return None


def skip_or_fail(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: the browser tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


def notebook_paths() -> list[Path]:
    return sorted(NOTEBOOK_DIR.glob("[0-9]*.ipynb"))


_BUILDS_STEPPER = re.compile(r"\b\w*(Stepper|_stepper)\(")
"""``Stepper(...)``, or a game's factory such as ``fugitive_stepper(...)``."""


def notebook_uses_stepper(path: Path) -> bool:
    """True if a code cell builds a Stepper: then the page must show one that works."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return any(c["cell_type"] == "code" and _BUILDS_STEPPER.search("".join(c["source"])) for c in cells)


# ---------------------------------------------------------------------------------------------- timings
@dataclass
class Timings:
    """Seconds per (mode, notebook, phase), printed at the end of the run and kept in screenshots/."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    suite_started: float | None = None
    suite_ended: float | None = None

    def add(self, mode: str, notebook: str, **phases: float | str) -> None:
        self.rows.append({"mode": mode, "notebook": notebook, **phases})


TIMINGS = Timings()
"""The session's timings (one process, one table)."""


@dataclass
class BrowserPage:
    """A fresh page (own context: no cookies or storage shared) that records the page's JS errors."""

    page: Any
    js_errors: list[str]


class BoardTooSmallWarning(UserWarning):
    """A stepper's board PNG is shrunk so much by the page that its labels cannot be read."""


def check_board_scale(
    where: str, natural: tuple[tuple[int, int], ...], shown: tuple[tuple[int, int], ...]
) -> None:
    """Warn (or fail, when strict) if the page shrinks a board picture below MIN_BOARD_SCALE."""
    import warnings

    for (natural_width, _), (shown_width, _) in zip(natural, shown, strict=True):
        scale = shown_width / natural_width if natural_width else 1.0
        if scale >= MIN_BOARD_SCALE:
            continue
        message = (
            f"{where}: the board PNG is {natural_width} px wide but shown {shown_width} px wide ({scale:.0%}): "
            f"its fonts are shrunk as much; draw it about {shown_width} px wide (figure width / dpi) instead"
        )
        if STRICT_BOARD:
            raise AssertionError(message)
        warnings.warn(message, BoardTooSmallWarning, stacklevel=2)
