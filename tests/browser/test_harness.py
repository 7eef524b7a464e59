"""The browser harness checks itself: it must see a broken notebook, and clean up after itself.

A browser test that passes on a page showing a traceback, or that leaves a kernel running after it
stops, is worse than none.  These tests feed the harness a deliberately broken notebook and check
that both JupyterLab and the Voilà classroom page report the error, and that stopping a server ends
its kernels and nothing else.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from browser_support import (
    NOTEBOOK_TIMEOUT_S,
    BrowserPage,
    missing_requirement,
    notebook_paths,
    notebook_uses_stepper,
    skip_or_fail,
)
from lab_driver import open_notebook, run_all_cells, shutdown_kernels, wait_run_all_done
from notebook_servers import HOST, ManagedServer
from page_checks import _ERROR_TEXT, VOILA_CELL_ERROR, assert_page_healthy, scan_page
from voila_driver import CLASSROOM_DOC, CLASSROOM_OPTIONS, classroom_command, open_classroom_page, start_voila

BROKEN_MARK = "deliberately broken for the harness self-test"


def _broken_notebook(path: Path) -> Path:
    """A widget that renders, a warning, then an exception: every kind of trouble a class could see."""
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# Harness self-test"),
        nbformat.v4.new_code_cell("import ipywidgets\nipywidgets.IntSlider(value=3)"),
        nbformat.v4.new_code_cell(f"import warnings\nwarnings.warn({BROKEN_MARK!r}, UserWarning)"),
        nbformat.v4.new_code_cell(f"raise RuntimeError({BROKEN_MARK!r})"),
        nbformat.v4.new_code_cell("print('never reached')"),
    ]
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1.0)
        return sock.connect_ex((HOST, port)) == 0


# ------------------------------------------------------------------------------------ no browser needed
def test_classroom_doc_shows_the_tested_command_for_every_stepper_notebook() -> None:
    """docs/classroom.md must give, for each notebook with a Stepper, the command the tests run."""
    doc = CLASSROOM_DOC.read_text(encoding="utf-8")
    assert all(option in doc for option in CLASSROOM_OPTIONS)
    missing = [
        classroom_command(f"notebooks/{path.name}")
        for path in notebook_paths()
        if notebook_uses_stepper(path) and classroom_command(f"notebooks/{path.name}") not in doc
    ]
    assert not missing, f"docs/classroom.md lacks the classroom command for: {missing}"


@pytest.mark.parametrize(
    ("text", "is_error"),
    [
        ("Traceback (most recent call last):\n  ...\nValueError: bad", True),
        ("/tmp/x.py:9: MatplotlibDeprecationWarning: vert: bool was deprecated", True),
        ("RuntimeError: boom", True),
        ("100%|██████████| 40/40 [00:01<00:00, 30.2it/s]", False),
        ("dealing 40 games", False),
    ],
)
def test_stderr_classification(text: str, is_error: bool) -> None:
    """Tracebacks and warnings fail a page; a text progress bar on stderr does not."""
    assert bool(_ERROR_TEXT.search(text)) is is_error


# ------------------------------------------------------------------------------------ with a browser
@pytest.mark.browser
def test_jupyterlab_run_reports_a_cell_error(
    jupyterlab: ManagedServer, notebook_copy: Path, page: BrowserPage
) -> None:
    name = "zz_harness_broken.ipynb"
    _broken_notebook(notebook_copy / name)
    try:
        open_notebook(page.page, jupyterlab, name, NOTEBOOK_TIMEOUT_S)
        run_all_cells(page.page)

        def fail_on_error(p: object) -> None:
            problems = scan_page(p)
            assert not problems.error_outputs, problems.describe()

        with pytest.raises(AssertionError) as caught:
            wait_run_all_done(page.page, NOTEBOOK_TIMEOUT_S, early_failure=fail_on_error)
        assert BROKEN_MARK in str(caught.value)
        assert "RuntimeError" in str(caught.value) or "UserWarning" in str(caught.value)
        # the slider rendered: "Loading widget" is not what failed here
        assert not scan_page(page.page).widget_failures
    finally:
        shutdown_kernels(jupyterlab)
        (notebook_copy / name).unlink(missing_ok=True)


@pytest.mark.browser
def test_voila_page_reports_a_cell_error_and_stop_ends_only_its_own_processes(
    page: BrowserPage, tmp_path: Path
) -> None:
    reason = missing_requirement(need_voila=True)
    if reason:
        skip_or_fail(reason)
    notebook = _broken_notebook(tmp_path / "nb" / "broken.ipynb")
    # A process of ours that is not the server's: stopping the server must leave it alone.
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    server = start_voila(notebook, tmp_path / "scratch")
    try:
        open_classroom_page(page.page, server, NOTEBOOK_TIMEOUT_S)
        server.record_descendants()
        kernels = [p for p in server.descendants if "ipykernel" in " ".join(p.cmdline())]
        assert kernels, "Voilà started no kernel for the page?"
        problems = scan_page(page.page)
        assert problems.voila_cell_error, f"the page does not show {VOILA_CELL_ERROR!r}"
        with pytest.raises(AssertionError, match="There was an error when executing cell"):
            assert_page_healthy(page.page, grace_s=2)
    finally:
        pid, port, recorded = server.pid, server.port, list(server.descendants)
        stopped_at = time.monotonic()
        server.stop()
        stop_seconds = time.monotonic() - stopped_at
    try:
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
        survivors = [p.pid for p in recorded if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        assert not survivors, f"processes of the stopped server still run: {survivors}"
        assert not _port_open(port), f"port {port} still answers after stop()"
        assert bystander.poll() is None, "stopping the server killed a process it did not start"
        assert stop_seconds < 30, f"stop() took {stop_seconds:.1f} s"
    finally:
        bystander.kill()
        bystander.wait()


def test_server_log_names_the_failure_when_a_server_cannot_start(tmp_path: Path) -> None:
    """A server that exits at once fails fast with its own output, not after the readiness timeout."""
    from notebook_servers import ServerStartError, free_port, start_server, throwaway_environment

    started = time.monotonic()
    with pytest.raises(ServerStartError, match="no such notebook here"):
        start_server(
            "fake",
            [sys.executable, "-c", "import sys; print('no such notebook here'); sys.exit(3)"],
            cwd=tmp_path,
            env=throwaway_environment(tmp_path),
            log_path=tmp_path / "fake.log",
            port_of=free_port,
            ready_path="/",
        )
    assert time.monotonic() - started < 20
