"""The classroom server as ``make classroom`` runs it: Voilà with preheated kernels, in one language.

``make classroom`` serves the notebooks with a pool of kernels that have already run the notebook
before anyone connects (``--preheat_kernel=True``), so a page is usable in a few seconds instead
of the time its cells take.  The page's language is chosen when the server starts
(``GAMELIB_LANGUAGE=fr``, read by each notebook's first cell): a preheated kernel has run the
notebook before the browser's request (and its URL) arrives.

This module starts that server on a copy of the notebooks, waits until the pool has finished
running them (the kernels' CPU goes quiet), and reads what a class sees on a page: the answers
behind their buttons, bare Python reprs, English words on a French page.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

import psutil
from notebook_servers import HOST, ManagedServer, python_command, start_server, throwaway_environment
from voila_driver import CLASSROOM_OPTIONS, READY_PATH

REPO = Path(__file__).resolve().parents[2]

PREHEAT_OPTIONS = ("--preheat_kernel=True", "--pool_size=1")
"""One kernel per notebook that has run it before the page is asked for (the Makefile's default pool is
larger; one is all a test that opens each page once needs)."""

NO_REFILL = "--VoilaKernelManager.fill_delay=86400"
"""In the test only: do not run a notebook again to refill the pool while the next page is measured."""

_LANGUAGE_WORDS = [
    REPO / "widgets" / "data" / "words.json",
    REPO / "gamelib" / "core" / "data" / "words.json",
]

ENGLISH_FRAGMENTS = re.compile(
    r"\b(player \d|Player \d|to move|plays\b|waiting for|Hand over|move \d+|turn \d+|Show the answer|"
    r"Hide the answer|game over)",
)
"""Status words a French page must not show (on top of the widgets' own English labels)."""

BARE_REPR = re.compile(r"gamelib\.make\(|\('|\['|\{'|<[\w.]+ object at 0x|<Figure size")
"""What a Python value looks like when a cell shows it raw: a tuple, list or dict of strings, a game's
repr, an object's default repr."""


def english_labels() -> list[str]:
    """Short English labels (three words at most) that French words.json translates differently."""
    labels: set[str] = set()
    for path in _LANGUAGE_WORDS:
        if not path.exists():
            continue
        table = json.loads(path.read_text(encoding="utf-8"))
        for key, english in table["en"].items():
            french = table.get("fr", {}).get(key)
            plain = re.sub(r"<[^>]+>|\{[^}]*\}", "", english).strip(" :·")
            if french and french != english and len(plain) >= 3 and len(plain.split()) <= 3:
                labels.add(plain)
    return sorted(labels, key=len, reverse=True)


def copy_classroom_notebooks(source: Path, target: Path) -> Path:
    """The game notebooks (not other pages) and the data they read, for a server to work on."""
    target.mkdir(parents=True, exist_ok=True)
    for notebook in sorted(source.glob("[0-9]*.ipynb")):
        shutil.copy2(notebook, target / notebook.name)
    if (source / "data").is_dir():
        shutil.copytree(source / "data", target / "data", dirs_exist_ok=True)
    return target


def start_classroom(folder: Path, scratch: Path, language: str, pycache: Path) -> ManagedServer:
    """Serve every notebook of ``folder`` the classroom way, preheated, in ``language``."""
    env = throwaway_environment(scratch)
    env["GAMELIB_LANGUAGE"] = language
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    argv = python_command(
        "voila",
        ".",
        *CLASSROOM_OPTIONS,
        *PREHEAT_OPTIONS,
        NO_REFILL,
        "--no-browser",
        "--port={port}",
        f"--Voila.ip={HOST}",
        "--Voila.port_retries=0",
    )
    return start_server(
        f"voila-classroom-{language}",
        argv,
        cwd=folder,
        env=env,
        log_path=scratch / f"voila-classroom-{language}.log",
        port_of=_free_port,
        ready_path=READY_PATH,
    )


def _free_port() -> int:
    from notebook_servers import free_port

    return free_port()


def _cpu_seconds(server: ManagedServer) -> float:
    total = 0.0
    try:
        root = psutil.Process(server.pid)
        for process in [root, *root.children(recursive=True)]:
            try:
                times = process.cpu_times()
                total += times.user + times.system
            except psutil.Error:
                continue
    except psutil.Error:
        pass
    return total


def wait_preheated(server: ManagedServer, notebooks: int, timeout_s: float) -> float:
    """Wait until every pooled kernel has run its notebook; return the seconds it took.

    Voilà logs "Kernel pool of X is filled" once a kernel has started, while the notebook still runs:
    the pool is ready when, after that, the server and its kernels stop using the CPU.
    """
    started = time.monotonic()
    deadline = started + timeout_s
    while time.monotonic() < deadline:
        server.record_descendants()
        if server.log_tail(400).count("is filled with") >= notebooks:
            break
        time.sleep(0.5)
    quiet = 0
    previous = _cpu_seconds(server)
    while time.monotonic() < deadline and quiet < 3:
        time.sleep(1.0)
        server.record_descendants()
        now = _cpu_seconds(server)
        quiet = quiet + 1 if now - previous < 0.15 else 0
        previous = now
    assert time.monotonic() < deadline, f"the kernel pool was still busy after {timeout_s:.0f} s:\n" + (
        server.log_tail()
    )
    return time.monotonic() - started


_USABLE_JS = """
([needStepper]) => {
  // usable: the cells are shown, every widget drawn, and the first Stepper's first button enabled;
  // a page showing an error stops the wait at once (the test then fails on the error, not on a timeout)
  if (document.body === null) return false;  // between documents (Voilà's loading page is replaced)
  if (document.body.innerText.includes('There was an error when executing cell')) return true;
  if (document.querySelector('.jp-OutputArea-output.jp-mod-error')) return true;
  const cells = document.getElementById('rendered_cells');
  if (document.getElementById('loading') || cells === null || cells.style.display === 'none') return false;
  if (document.body.innerText.includes('Loading widget')) return false;
  const views = document.querySelectorAll('[data-mime-type="application/vnd.jupyter.widget-view+json"]');
  for (const view of views) {
    if (view.getBoundingClientRect().height === 0) return false;
  }
  if (needStepper) {
    const stepper = document.querySelector('.gamelib-stepper');
    if (stepper === null || stepper.getBoundingClientRect().height === 0) return false;
    const enabled = Array.from(stepper.querySelectorAll('button')).filter((b) => !b.disabled && b.offsetParent);
    if (enabled.length === 0) return false;
  }
  return true;
}
"""


def open_page_usable(
    page: Any, server: ManagedServer, notebook: str, timeout_s: float, need_stepper: bool
) -> float:
    """Navigate to one notebook's page; seconds from navigation to usable."""
    started = time.monotonic()
    page.goto(f"{server.base_url}/voila/render/{notebook}", wait_until="commit", timeout=timeout_s * 1000)
    page.wait_for_function(_USABLE_JS, arg=[need_stepper], timeout=timeout_s * 1000, polling=50)
    return time.monotonic() - started


_OUTPUT_TEXTS_JS = """
() => Array.from(document.querySelectorAll('.jp-OutputArea-output'))
    .filter((el) => !el.closest('.jupyter-widgets'))
    .map((el) => el.innerText.trim()).filter((t) => t.length > 0)
"""


def bare_reprs(page: Any) -> list[str]:
    """Cell outputs (widgets aside) that show a Python value raw."""
    found = []
    for text in page.evaluate(_OUTPUT_TEXTS_JS):
        for line in text.splitlines():
            if BARE_REPR.search(line):
                found.append(line.strip()[:160])
    return found


_WIDGET_WORDS_JS = """
() => {
  // what the library writes on a page: widget buttons (not the actions, which are notation), labels,
  // status lines, the options of the menus; the answers' Markdown is prose and is left out
  const texts = [];
  const shown = (el) => el.offsetParent !== null;
  for (const el of document.querySelectorAll('.jupyter-widgets button')) {
    if (el.closest('.gamelib-language')) continue;
    if (!el.classList.contains('gamelib-action') && shown(el)) texts.push(el.innerText.trim());
  }
  for (const el of document.querySelectorAll(
      '.jupyter-widgets .widget-label, .gamelib-status, .gamelib-waiting, .gamelib-error, ' +
      '.gamelib-getonboard-status, .gamelib-bidding, .gamelib-cover, .jupyter-widgets option')) {
    // the history, the action list and the chance outcomes are notation (« guess 34 » stays as it is);
    // the language switch names each language in its own words (« English » on a French page is intended)
    if (el.closest('.gamelib-history, .gamelib-action-list, .gamelib-force-choice, .gamelib-language')) continue;
    if (el.tagName === 'OPTION' || shown(el)) texts.push((el.innerText || el.textContent).trim());
  }
  return texts.filter((t) => t.length > 0);
}
"""


def english_on_french_page(page: Any) -> list[str]:
    """Texts the library wrote in English on a page that should speak French."""
    labels = english_labels()
    found = []
    for text in page.evaluate(_WIDGET_WORDS_JS):
        hits = [label for label in labels if re.search(rf"(?<![\w']){re.escape(label)}(?![\w'])", text)]
        fragment = ENGLISH_FRAGMENTS.search(text)
        if hits or fragment:
            why = ", ".join(hits) if hits else fragment.group(0) if fragment else ""
            found.append(f"{text[:100]!r} ({why})")
    return sorted(set(found))


_REVEALS_JS = """
([labels]) => {
  // a Reveal: a box whose first child is the answer button, whose second is the (empty) answer
  const boxes = [];
  for (const button of document.querySelectorAll('.jupyter-widgets button')) {
    if (!labels.includes(button.innerText.trim())) continue;
    const box = button.parentElement;
    const answer = box ? box.children[1] : null;
    boxes.push(answer ? answer.innerText.trim() : null);
  }
  return boxes;
}
"""


def reveal_buttons(page: Any, show_label: str) -> Any:
    """The page's answer buttons, as a Playwright locator."""
    return page.locator(".jupyter-widgets button", has_text=show_label)


def answers_shown(page: Any, labels: list[str]) -> list[str | None]:
    """The text under each answer button (None when the page does not have the answer area)."""
    result: list[str | None] = page.evaluate(_REVEALS_JS, [labels])
    return result


def switch_language_on_page(page: Any, label: str, timeout_s: float) -> None:
    """Click the page's language switch (``gamelib_widgets.LanguageToggle``) on ``label``."""
    page.locator(".gamelib-language button", has_text=label).first.click(timeout=timeout_s * 1000)


def wait_stepper_buttons(stepper: Any, expected: list[str], timeout_s: float) -> list[str]:
    """Wait until the Stepper shows a button for each of ``expected``; the labels of its buttons."""
    stepper.page.wait_for_function(
        "([el, expected]) => { const labels = Array.from(el.querySelectorAll('button'))"
        ".map((b) => b.innerText.trim()); return expected.every((t) => labels.includes(t)); }",
        arg=[stepper.element_handle(), expected],
        timeout=timeout_s * 1000,
    )
    labels: list[str] = stepper.evaluate(
        "(el) => Array.from(el.querySelectorAll('button:not(.gamelib-action)')).map((b) => b.innerText.trim())"
    )
    return labels
