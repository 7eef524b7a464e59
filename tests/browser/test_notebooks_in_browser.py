"""Every notebook, as a teacher meets it: in JupyterLab (Run All) and in the Voilà classroom mode.

nbval proves the kernel side; these tests prove the page: widgets rendered, no error shown, and the
Stepper answers clicks (a bad notation refused, a typed move applied, undo, play to end) with the
board picture and the history changing in the browser.  One screenshot per notebook and mode lands
in ``screenshots/`` for a human look at projector size (1280x800).
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    CLICK_LATENCY_BOUND_MS,
    CLICK_LATENCY_CLICKS,
    NOTEBOOK_TIMEOUT_S,
    STEP_TIMEOUT_S,
    VOILA_USABLE_BOUND_S,
    VOILA_USABLE_GOAL_S,
    BrowserPage,
    Timings,
    check_board_scale,
    missing_requirement,
    notebook_paths,
    notebook_uses_stepper,
    skip_or_fail,
)
from lab_driver import open_notebook, run_all_cells, shutdown_kernels, wait_kernel_idle, wait_run_all_done
from notebook_servers import ManagedServer
from page_checks import assert_page_healthy, scan_page
from stepper_driver import exercise_stepper, measure_click_latency, wait_dom_quiet
from voila_driver import start_voila, time_to_usable

pytestmark = pytest.mark.browser

NOTEBOOKS = notebook_paths()


def _screenshot(page: Any, stepper: Any | None, path: Path) -> None:
    """The viewport with the stepper's top at the top (or the page's top), as a projector would show it."""
    if stepper is not None:
        wait_dom_quiet(stepper, quiet_s=0.5)
        stepper.evaluate("(el) => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(200)
    page.screenshot(path=str(path))


_INNER_SCROLL_JS = """
() => {
  // Voilà's lab template scrolls an inner container, not the document: find how much is hidden.
  // Only page-sized containers count: a long History list scrolls inside itself on screen too.
  let hidden = 0;
  for (const el of document.querySelectorAll('body *')) {
    const overflow = getComputedStyle(el).overflowY;
    const pageSized = el.clientHeight > window.innerHeight / 2;
    if (pageSized && (overflow === 'auto' || overflow === 'scroll') && el.scrollHeight > el.clientHeight) {
      hidden = Math.max(hidden, el.scrollHeight - el.clientHeight);
      el.scrollTop = 0;
    }
  }
  return hidden;
}
"""


def _whole_page_screenshot(page: Any, path: Path, max_height: int = 16000) -> None:
    """The whole app top to bottom (the viewport is stretched: full_page misses inner scrolling)."""
    viewport = page.viewport_size
    hidden = int(page.evaluate(_INNER_SCROLL_JS))
    page.set_viewport_size(
        {"width": viewport["width"], "height": min(max_height, viewport["height"] + hidden)}
    )
    try:
        page.wait_for_timeout(300)
        page.screenshot(path=str(path), full_page=True)
    finally:
        page.set_viewport_size(viewport)


def _lab_settle(page: Any, stepper: Any) -> None:
    """JupyterLab is done with a click when the kernel is idle and the widgets stopped redrawing."""
    wait_kernel_idle(page, NOTEBOOK_TIMEOUT_S)
    wait_dom_quiet(stepper, quiet_s=0.5, timeout_s=STEP_TIMEOUT_S)


def _failure_screenshot(page: Any, path: Path) -> None:
    """What the page showed when the test failed: the first thing to look at in a CI artifact."""
    with contextlib.suppress(Exception):
        page.screenshot(path=str(path), timeout=10_000)


def _fail_on_cell_error(page: Any) -> None:
    problems = scan_page(page)
    assert not (problems.error_outputs or problems.error_widgets), problems.describe()


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_in_jupyterlab(
    notebook: Path,
    jupyterlab: ManagedServer,
    page: BrowserPage,
    screenshot_dir: Path,
    timings: Timings,
) -> None:
    browser_page = page.page
    (screenshot_dir / f"lab-{notebook.stem}-FAILED.png").unlink(missing_ok=True)
    started = time.monotonic()
    try:
        open_notebook(browser_page, jupyterlab, notebook.name, NOTEBOOK_TIMEOUT_S)
        opened = time.monotonic()
        run_all_cells(browser_page)
        cells = wait_run_all_done(browser_page, NOTEBOOK_TIMEOUT_S, early_failure=_fail_on_cell_error)
        jupyterlab.record_descendants()
        ran = time.monotonic()
        assert_page_healthy(browser_page, context=f"{notebook.name}: {cells} code cells run")

        stepper = None
        report = None
        if notebook_uses_stepper(notebook) or browser_page.locator(".gamelib-stepper").count():
            stepper = browser_page.locator(".gamelib-stepper").first
            stepper.wait_for(state="visible", timeout=NOTEBOOK_TIMEOUT_S * 1000)
            _screenshot(browser_page, stepper, screenshot_dir / f"lab-{notebook.stem}-start.png")
            report = exercise_stepper(
                stepper,
                settle=lambda: _lab_settle(browser_page, stepper),
                timeout_s=STEP_TIMEOUT_S,
            )
            assert_page_healthy(browser_page, context="after clicking the stepper")
            check_board_scale(f"JupyterLab {notebook.name}", report.board_natural_sizes, report.board_sizes)
        _screenshot(browser_page, stepper, screenshot_dir / f"lab-{notebook.stem}.png")
        assert not page.js_errors, f"uncaught JavaScript errors in the page: {page.js_errors}"
        done = time.monotonic()
        timings.add(
            "lab",
            notebook.stem,
            open=opened - started,
            run_all=ran - opened,
            stepper=done - ran,
            total=done - started,
            moves=report.moves_to_end if report else "-",
            prepared="+".join(report.prepared) if report and report.prepared else "-",
            board_px=report.board_scale if report else "-",
        )
    except BaseException:
        _failure_screenshot(browser_page, screenshot_dir / f"lab-{notebook.stem}-FAILED.png")
        raise
    finally:
        left = shutdown_kernels(jupyterlab)
    assert not left, f"kernels still running after the notebook's sessions were deleted: {left}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_in_voila_classroom_mode(
    notebook: Path,
    notebook_copy: Path,
    page: BrowserPage,
    screenshot_dir: Path,
    timings: Timings,
    tmp_path: Path,
) -> None:
    reason = missing_requirement(need_voila=True)
    if reason:
        skip_or_fail(reason)
    browser_page = page.page
    (screenshot_dir / f"voila-{notebook.stem}-FAILED.png").unlink(missing_ok=True)
    started = time.monotonic()
    server = start_voila(notebook_copy / notebook.name, tmp_path)
    try:
        served = time.monotonic()
        uses_stepper = notebook_uses_stepper(notebook)
        usable = time_to_usable(browser_page, server, NOTEBOOK_TIMEOUT_S, need_stepper=uses_stepper)
        server.record_descendants()
        loaded = time.monotonic()
        timings.add("usable", notebook.stem, seconds=usable)
        print(
            f"\nVoilà {notebook.stem}: usable {usable:.1f} s after opening (goal {VOILA_USABLE_GOAL_S:.0f} s)"
        )
        log_context = f"Voilà log:\n{server.log_tail()}"
        assert_page_healthy(browser_page, context=log_context)
        assert usable <= VOILA_USABLE_BOUND_S, (
            f"the classroom page of {notebook.name} took {usable:.1f} s to be usable "
            f"(bound {VOILA_USABLE_BOUND_S:.0f} s, goal {VOILA_USABLE_GOAL_S:.0f} s)"
        )
        code_shown = browser_page.locator(".jp-InputArea-editor, .cm-editor, .CodeMirror").count()
        assert code_shown == 0, (
            f"the classroom page shows {code_shown} code editors: code cells must be hidden"
        )

        stepper = None
        report = None
        clicked = loaded
        if uses_stepper or browser_page.locator(".gamelib-stepper").count():
            stepper = browser_page.locator(".gamelib-stepper").first
            stepper.wait_for(state="visible", timeout=NOTEBOOK_TIMEOUT_S * 1000)
            _screenshot(browser_page, stepper, screenshot_dir / f"voila-{notebook.stem}-start.png")
            latency = measure_click_latency(stepper, clicks=CLICK_LATENCY_CLICKS, timeout_s=STEP_TIMEOUT_S)
            clicked = time.monotonic()
            timings.add(
                "click",
                notebook.stem,
                game=latency.game,
                clicks=latency.clicks,
                median_ms=latency.median_ms,
                p90_ms=latency.p90_ms,
                max_ms=max(latency.board_ms, default=-1.0),
                history_ms=latency.history_median_ms,
                still_ms=latency.still_median_ms,
                same_picture=latency.unchanged_boards,
            )
            print(f"\nVoilà {notebook.stem} ({latency.game}): {latency.describe()}")
            assert latency.clicks >= min(3, CLICK_LATENCY_CLICKS), (
                f"only {latency.clicks} Step clicks could be timed (the game ended?): nothing measured"
            )
            assert latency.median_ms <= CLICK_LATENCY_BOUND_MS, (
                f"{notebook.name}: clicking Step takes {latency.median_ms:.0f} ms (median) to show the new "
                f"board (bound {CLICK_LATENCY_BOUND_MS:.0f} ms): {latency.describe()}"
            )
            report = exercise_stepper(
                stepper,
                settle=lambda: wait_dom_quiet(stepper, timeout_s=STEP_TIMEOUT_S),
                timeout_s=STEP_TIMEOUT_S,
            )
            check_board_scale(f"Voilà {notebook.name}", report.board_natural_sizes, report.board_sizes)
            assert_page_healthy(
                browser_page, context=f"after clicking the stepper\nVoilà log:\n{server.log_tail()}"
            )
        _screenshot(browser_page, stepper, screenshot_dir / f"voila-{notebook.stem}.png")
        _whole_page_screenshot(browser_page, screenshot_dir / f"voila-{notebook.stem}-full.png")
        assert not page.js_errors, f"uncaught JavaScript errors in the page: {page.js_errors}"
        done = time.monotonic()
        timings.add(
            "voila",
            notebook.stem,
            server=served - started,
            usable=usable,
            load=loaded - served,
            clicks=clicked - loaded,
            stepper=done - clicked,
            total=done - started,
            moves=report.moves_to_end if report else "-",
            prepared="+".join(report.prepared) if report and report.prepared else "-",
            board_px=report.board_scale if report else "-",
        )
    except BaseException:
        _failure_screenshot(browser_page, screenshot_dir / f"voila-{notebook.stem}-FAILED.png")
        raise
    finally:
        server.stop()
