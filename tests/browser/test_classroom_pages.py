"""Every classroom page, in English and in French, as ``make classroom`` serves it (preheated kernels).

For each page and language: usable (the first Stepper button enabled) within the goal from the
navigation; no traceback; no bare Python repr in the outputs; no answer on screen before its button
is clicked, and the answer shown after the click; on a French page, no English label or status
word written by the library.  The first Stepper's Step button is then clicked and the time from
the click to the new board is recorded per game (the goal is 100 ms median; the test fails only
above ``GAMELIB_CLICK_LATENCY_BOUND``).  Screenshots: ``screenshots/class-<lang>-<notebook>*.png``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    CLICK_LATENCY_BOUND_MS,
    CLICK_LATENCY_CLICKS,
    NOTEBOOK_TIMEOUT_S,
    STEP_TIMEOUT_S,
    BrowserPage,
    Timings,
    missing_requirement,
    notebook_paths,
    notebook_uses_stepper,
    skip_or_fail,
)
from classroom_driver import (
    answers_shown,
    bare_reprs,
    copy_classroom_notebooks,
    english_on_french_page,
    open_page_usable,
    reveal_buttons,
    start_classroom,
    switch_language_on_page,
    wait_preheated,
    wait_stepper_buttons,
)
from notebook_servers import ManagedServer
from page_checks import assert_page_healthy
from stepper_driver import measure_click_latency, wait_dom_quiet

pytestmark = pytest.mark.browser

NOTEBOOKS = notebook_paths()
LANGUAGES = ("en", "fr")
USABLE_GOAL_S = 3.0
USABLE_BOUND_S = float(os.environ.get("GAMELIB_CLASSROOM_USABLE_BOUND", "10"))
"""Seconds from navigation to a usable preheated page beyond which the test fails: a page that slow is
broken (its kernel not preheated, a cell re-run on open), not merely slow.  The 3 s goal is a figure,
printed per page and kept in the timings report, not an assertion: a timed test flakes on a shared
machine (a quiet 2-core CI run on 2026-12-03 opened 04_get_on_board in 3.00 s while its own Voila
kernels started).  ``GAMELIB_CLASSROOM_USABLE_BOUND=3`` asserts the goal on an idle machine."""
PREHEAT_TIMEOUT_S = float(os.environ.get("GAMELIB_PREHEAT_TIMEOUT", "600"))
SHOW = {"en": "Show the answer", "fr": "Voir la réponse"}
_STEPPER_WORDS = json.loads(
    (Path(__file__).parents[2] / "widgets" / "data" / "words.json").read_text("utf-8")
)
STEPPER_BUTTONS = {lang: [_STEPPER_WORDS[lang][key] for key in ("step", "undo")] for lang in LANGUAGES}
"""The Stepper's Step and Undo buttons in each language (widgets/data/words.json)."""
HIDE = {"en": "Hide the answer", "fr": "Masquer la réponse"}


@pytest.fixture(scope="module")
def classroom_servers(tmp_path_factory: pytest.TempPathFactory, timings: Timings) -> Iterator[dict[str, Any]]:
    """One preheated Voilà per language, started lazily, stopped at the end of the module."""
    reason = missing_requirement(need_voila=True)
    if reason:
        skip_or_fail(reason)
    servers: dict[str, ManagedServer] = {}
    pycache = tmp_path_factory.mktemp("pycache")

    def get(language: str) -> ManagedServer:
        if language not in servers:
            for other in list(servers):  # one pool at a time: two would compete for the cores
                servers.pop(other).stop()
            scratch = tmp_path_factory.mktemp(f"classroom-{language}")
            folder = copy_classroom_notebooks(NOTEBOOKS[0].parent, scratch / "notebooks")
            started = time.monotonic()
            server = start_classroom(folder, scratch, language, pycache)
            servers[language] = server
            preheat = wait_preheated(server, len(NOTEBOOKS), PREHEAT_TIMEOUT_S)
            timings.add("classroom", f"(preheat {language})", seconds=time.monotonic() - started)
            print(f"\nclassroom server ({language}): {len(NOTEBOOKS)} notebooks preheated in {preheat:.0f} s")
        return servers[language]

    try:
        yield {"get": get}
    finally:
        for server in servers.values():
            server.stop()


def _check_answers(page: Any, language: str, notebook: str) -> int:
    """No answer on screen before its click, the answer on screen after it; the number of answers."""
    before = answers_shown(page, [SHOW[language]])
    assert all(text == "" for text in before), (
        f"{notebook} ({language}): an answer is on screen before its click"
    )
    buttons = reveal_buttons(page, SHOW[language])
    count = buttons.count()
    for index in range(count):
        buttons.first.click()  # the clicked button turns into "hide", so the first is always the next
        page.wait_for_function(
            "([labels, index]) => { const b = Array.from(document.querySelectorAll('.jupyter-widgets button'))"
            ".filter((el) => labels.includes(el.innerText.trim()));"
            " const box = b[index] && b[index].parentElement;"
            " return box && box.children[1] && box.children[1].innerText.trim().length > 40; }",
            arg=[[HIDE[language]], index],
            timeout=30_000,
        )
    after = answers_shown(page, [HIDE[language]])
    assert len(after) == count and all(text and len(text) > 40 for text in after), (
        f"{notebook} ({language}): an answer did not show after its click: {after}"
    )
    return count


def _switch_to_french(page: Any, stepper: Any) -> list[str]:
    """On an English page, click the page's "Français": the Stepper's buttons turn French."""
    assert STEPPER_BUTTONS["en"] != STEPPER_BUTTONS["fr"]
    switch_language_on_page(page, "Français", STEP_TIMEOUT_S)
    labels = wait_stepper_buttons(stepper, STEPPER_BUTTONS["fr"], STEP_TIMEOUT_S)
    english = [label for label in labels if label in STEPPER_BUTTONS["en"]]
    return [f"English Stepper buttons after clicking Français: {english}"] if english else []


# every page in English, then every page in French: one kernel pool per language
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
@pytest.mark.parametrize("language", LANGUAGES)
def test_classroom_page(
    notebook: Path,
    language: str,
    classroom_servers: dict[str, Any],
    page: BrowserPage,
    screenshot_dir: Path,
    timings: Timings,
) -> None:
    server = classroom_servers["get"](language)
    browser_page = page.page
    name = f"class-{language}-{notebook.stem}"
    (screenshot_dir / f"{name}-FAILED.png").unlink(missing_ok=True)
    try:
        uses_stepper = notebook_uses_stepper(notebook)
        usable = open_page_usable(browser_page, server, notebook.name, NOTEBOOK_TIMEOUT_S, uses_stepper)
        print(f"\nclassroom {language} {notebook.stem}: usable {usable:.2f} s (goal {USABLE_GOAL_S:.0f} s)")
        timings.add("classroom", f"{notebook.stem} {language}", usable=usable)
        assert_page_healthy(browser_page, context=f"Voilà log:\n{server.log_tail()}")
        browser_page.screenshot(path=str(screenshot_dir / f"{name}-top.png"))
        problems: list[str] = []
        if usable > USABLE_BOUND_S:
            problems.append(f"usable after {usable:.2f} s (bound {USABLE_BOUND_S:.1f} s)")
        reprs = bare_reprs(browser_page)
        if reprs:
            problems.append("bare Python reprs on the page:\n  " + "\n  ".join(reprs))
        if language == "fr":
            english = english_on_french_page(browser_page)
            if english:
                problems.append("English words on the French page:\n  " + "\n  ".join(english))
        answers = _check_answers(browser_page, language, notebook.name)
        if "Questions for the class" in notebook.read_text(encoding="utf-8") and answers == 0:
            problems.append("questions for the class but no answer button (gamelib_widgets.Reveal)")
        if uses_stepper:
            stepper = browser_page.locator(".gamelib-stepper").first
            latency = measure_click_latency(stepper, clicks=CLICK_LATENCY_CLICKS, timeout_s=STEP_TIMEOUT_S)
            wait_dom_quiet(stepper, quiet_s=0.3, timeout_s=STEP_TIMEOUT_S)
            timings.add(
                "classroom-click",
                f"{notebook.stem} {language}",
                game=latency.game,
                clicks=latency.clicks,
                median_ms=latency.median_ms,
                p90_ms=latency.p90_ms,
            )
            print(f"classroom {language} {notebook.stem} ({latency.game}): {latency.describe()}")
            if latency.median_ms > CLICK_LATENCY_BOUND_MS:
                problems.append(f"click to new board {latency.median_ms:.0f} ms median")
            stepper.evaluate("(el) => el.scrollIntoView({block: 'start'})")
            browser_page.screenshot(path=str(screenshot_dir / f"{name}-stepper.png"))
            if language == "en":
                problems += _switch_to_french(browser_page, stepper)
                browser_page.screenshot(path=str(screenshot_dir / f"{name}-switched-fr.png"))
        assert_page_healthy(browser_page, context=f"after the clicks\nVoilà log:\n{server.log_tail()}")
        print(f"classroom {language} {notebook.stem}: {answers} answers behind their buttons")
        assert not problems, f"{notebook.name} ({language}):\n" + "\n".join(problems)
        assert not page.js_errors, f"uncaught JavaScript errors in the page: {page.js_errors}"
    except BaseException:
        browser_page.screenshot(path=str(screenshot_dir / f"{name}-FAILED.png"))
        raise
