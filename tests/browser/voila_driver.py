"""The classroom mode: a game notebook served by Voilà as a code-free app.

``CLASSROOM_OPTIONS`` is the single source of the options: ``docs/classroom.md`` shows them in the
command a teacher types, and a test checks that the documentation and this module agree, so the
command tested is the command documented.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from notebook_servers import (
    HOST,
    ManagedServer,
    free_port,
    python_command,
    start_server,
    throwaway_environment,
)

CLASSROOM_OPTIONS = ("--strip_sources=True", "--theme=light")
"""Hide every code cell (Voilà's default, stated so nobody turns it off by accident) on a light theme
(dark themes wash out on projectors)."""

CLASSROOM_DOC = Path(__file__).resolve().parents[2] / "docs" / "classroom.md"
READY_PATH = "/voila/static/voila.js"
"""A static file: answering it means the server is up, and fetching it starts no kernel."""


def classroom_command(notebook: str) -> str:
    """The command a teacher types, from the repository root (as written in docs/classroom.md)."""
    return " ".join([".venv/bin/voila", notebook, *CLASSROOM_OPTIONS])


def start_voila(notebook: Path, scratch: Path) -> ManagedServer:
    """Serve one notebook the classroom way, headless, on 127.0.0.1 and a free port."""
    env = throwaway_environment(scratch)
    argv = python_command(
        "voila",
        notebook.name,
        *CLASSROOM_OPTIONS,
        "--no-browser",
        "--port={port}",
        f"--Voila.ip={HOST}",
        "--Voila.port_retries=0",
    )
    return start_server(
        "voila",
        argv,
        cwd=notebook.parent,
        env=env,
        log_path=scratch / f"voila-{notebook.stem}.log",
        port_of=free_port,
        ready_path=READY_PATH,
    )


_RENDERED_JS = """
() => {
  const cells = document.getElementById('rendered_cells');
  return !document.getElementById('loading') && cells !== null && cells.style.display !== 'none';
}
"""


_USABLE_JS = """
([needStepper]) => {
  // usable: the cells are shown, no widget is still loading, every widget view has drawn itself,
  // and the notebook's Stepper (if it has one) shows its buttons
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
    if (stepper.querySelectorAll('button').length === 0) return false;
  }
  return true;
}
"""


def time_to_usable(page: Any, server: ManagedServer, timeout_s: float, need_stepper: bool) -> float:
    """Open the classroom page and return the seconds until it is usable.

    The clock starts when the browser asks for the page (the server already running, as when a
    teacher reloads it: each load starts a fresh kernel that runs every cell) and stops when the
    rendered cells are shown, every widget has drawn itself and the Stepper (if any) shows its buttons.
    """
    started = time.monotonic()
    open_classroom_page(page, server, timeout_s)
    page.wait_for_function(_USABLE_JS, arg=[need_stepper], timeout=timeout_s * 1000, polling=100)
    return time.monotonic() - started


def open_classroom_page(page: Any, server: ManagedServer, timeout_s: float) -> None:
    """Load the app and wait until Voilà shows it.

    The ``load`` event is not enough: Voilà streams the page while the kernel runs the cells and keeps
    the outputs hidden behind its "Executing N of M" screen until ``voila_finish()`` swaps them in.
    """
    page.goto(server.base_url + "/", wait_until="load", timeout=timeout_s * 1000)
    page.wait_for_function(_RENDERED_JS, timeout=timeout_s * 1000, polling=200)
