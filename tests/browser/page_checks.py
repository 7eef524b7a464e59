"""What counts as a broken page, in JupyterLab and in Voilà alike.

A teacher's page is broken if a widget never rendered ("Loading widget..." left behind, or the
ipywidgets error box), if a cell shows a traceback, or if a warning leaks into the output (a class
reads it as an error).  Plain stderr that is neither (a text progress bar) is tolerated.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

WIDGET_FAILURE_PHRASES = (
    "Loading widget",
    "Error displaying widget",
    "Failed to load model class",
    "Failed to load view class",
    "Failed to create view",
)
VOILA_CELL_ERROR = "There was an error when executing cell"
"""What Voilà shows instead of a traceback when tracebacks are off (the classroom default)."""

_ERROR_TEXT = re.compile(r"Traceback|^\s*\w*(Error|Exception)\b|\w+Warning\b", re.MULTILINE)

_SCAN_JS = """
([phrases, voilaError]) => {
  // innerText: what is shown; plus the outputs' textContent, in case a container hides them.
  const outputs = Array.from(document.querySelectorAll('.jp-OutputArea-output')).map((el) => el.textContent);
  const text = [document.body.innerText, ...outputs].join('\\n');
  const widgetFailures = phrases.filter((p) => text.includes(p));
  const errorWidgets = Array.from(document.querySelectorAll('.jupyter-widgets-error-widget'))
      .map((el) => el.innerText.trim().slice(0, 500));
  const stderr = Array.from(document.querySelectorAll(
      '[data-mime-type="application/vnd.jupyter.stderr"], .jp-OutputArea-output.jp-mod-error'))
      .map((el) => el.innerText.trim());
  return {widgetFailures, errorWidgets, stderr, voilaError: text.includes(voilaError)};
}
"""


@dataclass
class PageProblems:
    widget_failures: list[str]
    error_widgets: list[str]
    error_outputs: list[str]
    tolerated_stderr: list[str]
    voila_cell_error: bool

    @property
    def broken(self) -> bool:
        return bool(self.widget_failures or self.error_widgets or self.error_outputs or self.voila_cell_error)

    def describe(self) -> str:
        lines = []
        lines += [f"widget not rendered: page still shows {p!r}" for p in self.widget_failures]
        lines += [f"ipywidgets error box: {t}" for t in self.error_widgets]
        lines += [f"error output:\n{t[:2000]}" for t in self.error_outputs]
        if self.voila_cell_error:
            lines.append(f"Voilà shows {VOILA_CELL_ERROR!r} (see the server log below)")
        return "\n".join(lines)


def scan_page(page: Any) -> PageProblems:
    raw = page.evaluate(_SCAN_JS, [list(WIDGET_FAILURE_PHRASES), VOILA_CELL_ERROR])
    errors = [t for t in raw["stderr"] if _ERROR_TEXT.search(t)]
    tolerated = [t for t in raw["stderr"] if not _ERROR_TEXT.search(t)]
    return PageProblems(
        widget_failures=list(raw["widgetFailures"]),
        error_widgets=list(raw["errorWidgets"]),
        error_outputs=errors,
        tolerated_stderr=tolerated,
        voila_cell_error=bool(raw["voilaError"]),
    )


def assert_page_healthy(page: Any, grace_s: float = 20.0, context: str = "") -> PageProblems:
    """Fail if the page shows a broken widget or an error output.

    Widgets render asynchronously after their output arrives, so "Loading widget" is given
    ``grace_s`` to disappear; errors are final and fail at once.
    """
    deadline = time.monotonic() + grace_s
    problems = scan_page(page)
    while problems.widget_failures and not (problems.error_outputs or problems.error_widgets):
        if time.monotonic() > deadline:
            break
        time.sleep(0.3)
        problems = scan_page(page)
    assert not problems.broken, problems.describe() + (f"\n{context}" if context else "")
    return problems
