"""Fixtures for the browser tests: headless Chromium, a JupyterLab server, Voilà servers, timings.

Everything heavy is started once per session (Chromium, JupyterLab) or once per test (Voilà: its
documented command serves one notebook), always on a copy of ``notebooks/`` in a temporary folder:
JupyterLab autosaves, and a test must never rewrite the stored outputs nbval compares.

Missing tools skip with the reason (``make test`` on a laptop without Chromium still passes); with
``CI=true`` they fail instead, because a CI that silently skips its browser tests proves nothing.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_support import (
    CHROMIUM_FLAGS,
    CLICK_LATENCY_BOUND_MS,
    NOTEBOOK_DIR,
    SCREENSHOT_DIR,
    TIMINGS,
    VIEWPORT,
    VOILA_USABLE_BOUND_S,
    VOILA_USABLE_GOAL_S,
    BrowserPage,
    Timings,
    chromium_path,
    missing_requirement,
    skip_or_fail,
)
from notebook_servers import ManagedServer, install_cleanup_handlers


@pytest.fixture(scope="session")
def timings() -> Timings:
    return TIMINGS


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("browser") is not None and TIMINGS.suite_started is None:
        TIMINGS.suite_started = time.monotonic()


def pytest_runtest_teardown(item: pytest.Item) -> None:
    if item.get_closest_marker("browser") is not None:
        TIMINGS.suite_ended = time.monotonic()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not TIMINGS.rows:
        return
    write = terminalreporter.write_line
    terminalreporter.section("browser timings (seconds)")
    for row in TIMINGS.rows:
        if row["mode"] in ("usable", "click"):
            continue
        phases = ", ".join(
            f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}"
            for k, v in row.items()
            if k not in ("mode", "notebook")
        )
        write(f"{row['mode']:<6} {row['notebook']:<24} {phases}")
    if TIMINGS.suite_started is not None and TIMINGS.suite_ended is not None:
        write(
            f"whole browser suite (servers and browser included): {TIMINGS.suite_ended - TIMINGS.suite_started:.1f}"
        )
    usable = [row for row in TIMINGS.rows if row["mode"] == "usable"]
    if usable:
        terminalreporter.section(
            f"Voilà classroom pages: seconds from opening to usable (goal {VOILA_USABLE_GOAL_S:.0f} s, "
            f"asserted bound {VOILA_USABLE_BOUND_S:.0f} s)"
        )
        for row in usable:
            verdict = "within the goal" if row["seconds"] <= VOILA_USABLE_GOAL_S else "OVER the goal"
            write(f"{row['notebook']:<24} {row['seconds']:5.1f} s  {verdict}")
        write("(a machine busy with other work is slower: compare with a quiet run before concluding)")
    clicks = [row for row in TIMINGS.rows if row["mode"] == "click"]
    if clicks:
        terminalreporter.section(
            "Voilà Steppers: milliseconds from a mouse click on Step to the new board shown "
            f"(asserted bound on the median {CLICK_LATENCY_BOUND_MS:.0f} ms)"
        )
        write(
            f"{'notebook':<24} {'game':<26} {'clicks':>6} {'median':>7} {'p90':>7} {'max':>7} {'history':>8} {'still':>7}"
        )
        for row in clicks:
            write(
                f"{row['notebook']:<24} {row['game']:<26} {row['clicks']:>6} {row['median_ms']:>7.0f} "
                f"{row['p90_ms']:>7.0f} {row['max_ms']:>7.0f} {row['history_ms']:>8.0f} {row['still_ms']:>7.0f}"
            )
        write(
            "(new board: the picture replaced, decoded and painted; history: the move listed; still: the "
            "stepper's panels done redrawing.  Kernel-side apply + redraw alone: benchmarks/widget_latency.py)"
        )
    SCREENSHOT_DIR.mkdir(exist_ok=True)
    (SCREENSHOT_DIR / "timings.json").write_text(json.dumps(TIMINGS.rows, indent=1), encoding="utf-8")


# ---------------------------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Debian Chromium for the whole session (never a Playwright browser download)."""
    reason = missing_requirement()
    if reason:
        skip_or_fail(reason)
    install_cleanup_handlers()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[BrowserPage]:
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
    context.set_default_timeout(60_000)
    new_page = context.new_page()
    errors: list[str] = []
    new_page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield BrowserPage(new_page, errors)
    finally:
        context.close()


@pytest.fixture(scope="session")
def notebook_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of notebooks/ (and whatever files they read next to them) for the servers to work on."""
    target = tmp_path_factory.mktemp("notebooks") / "notebooks"
    shutil.copytree(NOTEBOOK_DIR, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    return target


@pytest.fixture(scope="session")
def jupyterlab(
    browser: Any, notebook_copy: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ManagedServer]:
    """One JupyterLab for the session; stopped (kernels included) even if the run is interrupted."""
    from lab_driver import start_jupyterlab

    started = time.monotonic()
    server = start_jupyterlab(notebook_copy, tmp_path_factory.mktemp("jupyterlab"))
    TIMINGS.add("lab", "(server start)", seconds=time.monotonic() - started)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def screenshot_dir() -> Path:
    SCREENSHOT_DIR.mkdir(exist_ok=True)
    return SCREENSHOT_DIR
