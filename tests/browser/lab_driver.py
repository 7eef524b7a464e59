"""JupyterLab, driven through its own UI: open a notebook, Run All Cells, wait until it is truly done.

The pitfalls these functions exist for (NOTEBOOK-CI.md): the notebook toolbar says "idle" while the
kernel is still starting (Run All then opens a "Select Kernel" dialog), so readiness is read from the
status bar's ``Python 3 (ipykernel) | Idle``; and "idle" alone flickers between two cells, so the end of
Run All is "idle, and every non-empty code cell has an execution count", seen twice in a row.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
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
from notebook_servers import write_lab_settings as _write_lab_settings

KERNEL_STATUS = ".jp-StatusBar-TextItem[title^='Change kernel']"
RUN_ALL_COMMAND = "runmenu:run-all"


def start_jupyterlab(root_dir: Path, scratch: Path) -> ManagedServer:
    """JupyterLab on 127.0.0.1, a free port, no token, a throwaway config, serving ``root_dir``."""
    env = throwaway_environment(scratch)
    _write_lab_settings(Path(env["JUPYTERLAB_SETTINGS_DIR"]))
    argv = python_command(
        "jupyter",
        "lab",
        "--no-browser",
        f"--ServerApp.ip={HOST}",
        "--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        f"--ServerApp.root_dir={root_dir}",
        "--ServerApp.allow_root=True",
        # No token means no XSRF cookie for urllib: without this, DELETE /api/sessions is refused (403)
        # and every notebook's kernel would stay alive until the end of the session.
        "--ServerApp.disable_check_xsrf=True",
        "--LabApp.news_url=",
        "--ServerApp.shutdown_no_activity_timeout=1800",
        "--MappingKernelManager.cull_idle_timeout=0",
    )
    return start_server(
        "jupyterlab",
        argv,
        cwd=root_dir,
        env=env,
        log_path=scratch / "jupyterlab.log",
        port_of=free_port,
        ready_path="/api/status",
        shutdown_path="/api/shutdown",
    )


def kernel_status(page: Any) -> str:
    items = page.locator(KERNEL_STATUS)
    return items.first.inner_text().strip() if items.count() else ""


def wait_kernel_idle(page: Any, timeout_s: float) -> None:
    """Wait for the status bar to read ``<kernel name> | Idle`` (not "No Kernel", not "Connecting")."""
    deadline = time.monotonic() + timeout_s
    status = ""
    while time.monotonic() < deadline:
        status = kernel_status(page)
        if status.endswith("| Idle") and not status.startswith("No Kernel"):
            return
        fail_on_dialog(page)
        time.sleep(0.25)
    raise AssertionError(f"the kernel is not idle after {timeout_s:.0f} s; the status bar reads {status!r}")


def fail_on_dialog(page: Any) -> None:
    """An unexpected modal (kernel chooser, "file changed on disk"...) blocks every click: fail clearly."""
    dialog = page.locator(".jp-Dialog")
    if dialog.count() and dialog.first.is_visible():
        raise AssertionError("JupyterLab opened a dialog: " + dialog.first.inner_text().strip()[:500])


def open_notebook(page: Any, server: ManagedServer, relative_path: str, timeout_s: float) -> None:
    """Open the notebook in a reset workspace, hide the file browser, wait for its kernel."""
    url = f"{server.base_url}/lab/tree/{urllib.parse.quote(relative_path)}?reset"
    page.goto(url, wait_until="domcontentloaded", timeout=timeout_s * 1000)
    page.locator(".jp-NotebookPanel .jp-Notebook").first.wait_for(state="visible", timeout=timeout_s * 1000)
    wait_kernel_idle(page, timeout_s)
    # Projector view: the file browser takes a quarter of the screen for nothing.
    if page.locator("#jp-left-stack").is_visible():
        page.locator(".jp-NotebookPanel .jp-Notebook").first.click(position={"x": 5, "y": 5})
        page.keyboard.press("Control+b")


def run_all_cells(page: Any) -> None:
    page.locator(".lm-MenuBar-item", has_text="Run").first.click()
    page.locator(f'.lm-Menu-item[data-command="{RUN_ALL_COMMAND}"]').click()


_PROMPTS_JS = """
() => Array.from(document.querySelectorAll('.jp-NotebookPanel .jp-CodeCell')).map((cell) => {
  const prompt = cell.querySelector('.jp-InputPrompt');
  const source = cell.querySelector('.jp-InputArea-editor .cm-content');
  return {prompt: prompt ? prompt.innerText.trim() : '', empty: !source || !source.innerText.trim()};
})
"""


def wait_run_all_done(page: Any, timeout_s: float, early_failure: Any = None) -> int:
    """Wait until the kernel is idle and every non-empty code cell has run; return the cell count.

    ``early_failure(page)`` is called while waiting so that a cell error (which stops Run All and
    leaves later cells unnumbered) fails at once instead of after the whole timeout.
    """
    deadline = time.monotonic() + timeout_s
    stable = 0
    cells: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        fail_on_dialog(page)
        cells = page.evaluate(_PROMPTS_JS)
        status = kernel_status(page)
        pending = [c for c in cells if not c["empty"] and not _is_count(c["prompt"])]
        if status.endswith("| Idle") and not pending and cells:
            stable += 1
            if stable >= 2:
                return len(cells)
        else:
            stable = 0
            if status.endswith("| Idle") and early_failure is not None:
                early_failure(page)
        time.sleep(0.4)
    prompts = [c["prompt"] for c in cells]
    raise AssertionError(
        f"Run All did not finish within {timeout_s:.0f} s: status {kernel_status(page)!r}, prompts {prompts}"
    )


def _is_count(prompt: str) -> bool:
    inner = prompt.strip().removesuffix(":").strip("[]")
    return inner.isdigit()


def shutdown_kernels(server: ManagedServer) -> list[str]:
    """Delete every session (and so kernel) of this server: the next notebook starts on free cores.

    Returns the ids of kernels still running afterwards (expected: none).
    """
    server.record_descendants()
    try:
        sessions = _get_json(server, "/api/sessions")
        for session in sessions:
            request = urllib.request.Request(
                f"{server.base_url}/api/sessions/{session['id']}", method="DELETE"
            )
            urllib.request.urlopen(request, timeout=60).close()
        return [kernel["id"] for kernel in _get_json(server, "/api/kernels")]
    except urllib.error.HTTPError:
        raise  # the server refused: a real problem (kernels would pile up), not a shutdown race
    except OSError:
        return []  # the server is already gone; its finalizer stops whatever is left


def _get_json(server: ManagedServer, path: str) -> Any:
    with urllib.request.urlopen(f"{server.base_url}{path}", timeout=30) as response:
        return json.load(response)
