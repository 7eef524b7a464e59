"""Start and stop JupyterLab and Voilà servers for the browser tests, and only those.

Why a module of its own: a browser test that leaves a Jupyter server (and its kernels) running after a
failure or a Ctrl-C eats the two shared CPU cores of the machine for everybody.  Every server is started
in a new session (so it leads its own process group), registered in a module-level table, and stopped by
whichever comes first: the pytest fixture finalizer, ``atexit``, or a SIGTERM/SIGHUP handler.  Stopping
is layered from polite to forceful and never touches a process this module did not start:

1. JupyterLab only: ``POST /api/shutdown``, which shuts its kernels down cleanly;
2. ``SIGTERM`` to the server's own process group;
3. ``SIGKILL`` to that group and to every descendant recorded while it ran (kernels live in their own
   sessions, so killing the group alone would orphan them).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import psutil

HOST = "127.0.0.1"
REPO = Path(__file__).resolve().parents[2]
READY_TIMEOUT_S = 90.0
"""Generous: a cold JupyterLab on two busy cores has been seen to need 20 s before answering."""
STOP_GRACE_S = 10.0

_live: dict[int, ManagedServer] = {}
_live_lock = threading.Lock()


def free_port() -> int:
    """A TCP port nobody listens on right now (the server gets ``--port-retries=0`` and we retry)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def http_status(url: str, timeout: float = 5.0) -> int | None:
    """The HTTP status of a GET, or None while nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except (OSError, TimeoutError):
        return None


def throwaway_environment(root: Path) -> dict[str, str]:
    """Environment variables isolating a server from the user's Jupyter/IPython/matplotlib settings.

    ``MPLBACKEND`` is removed on purpose: the unit-test conftest sets it to Agg, and a kernel that
    inherits it shows no figures at all (NOTEBOOK-CI.md).
    """
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)
    # Kernels run in a copy of notebooks/, outside the repository: put the working tree first on the path
    # so the code under test is this checkout's, whatever state the editable install is in.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    env.pop("JUPYTER_TOKEN", None)
    dirs = {
        "HOME": root / "home",
        "JUPYTER_CONFIG_DIR": root / "config",
        "JUPYTER_RUNTIME_DIR": root / "runtime",
        "JUPYTERLAB_SETTINGS_DIR": root / "lab-settings",
        "JUPYTERLAB_WORKSPACES_DIR": root / "lab-workspaces",
        "IPYTHONDIR": root / "ipython",
        "MPLCONFIGDIR": root / "matplotlib",
    }
    for name, path in dirs.items():
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    # Data files (kernelspecs, lab extensions) must still come from the venv: leave JUPYTER_DATA_DIR alone,
    # but make sure the user's own data dir is not consulted.
    env["JUPYTER_PREFER_ENV_PATH"] = "1"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def write_lab_settings(settings_dir: Path) -> None:
    """User settings that make JupyterLab deterministic for a robot.

    * no news/update pop-up (it covers the notebook's bottom-right corner);
    * no notebook windowing: with windowing, cells scrolled out of view are detached from the DOM, so a
      "Loading widget" or a traceback there would go unseen.
    """
    files = {
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
            "fetchNews": "false",
            "checkForUpdates": False,
        },
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
        "@jupyterlab/apputils-extension/themes.jupyterlab-settings": {"theme": "JupyterLab Light"},
    }
    for relative, content in files.items():
        path = settings_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content), encoding="utf-8")


@dataclass
class ManagedServer:
    """One server process we started, with what is needed to stop it and everything it spawned."""

    name: str
    argv: Sequence[str]
    cwd: Path
    env: dict[str, str]
    log_path: Path
    port: int
    ready_path: str
    shutdown_path: str | None = None
    process: subprocess.Popen[bytes] | None = None
    descendants: set[psutil.Process] = field(default_factory=set)
    started_at: float = 0.0

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None, "server not started"
        return self.process.pid

    def start(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                list(self.argv),
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.started_at = time.monotonic()
        with _live_lock:
            _live[self.process.pid] = self

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def wait_ready(self, timeout: float = READY_TIMEOUT_S) -> None:
        """Poll the readiness URL until it answers 200; fail with the server log if it dies or hangs."""
        deadline = time.monotonic() + timeout
        url = self.base_url + self.ready_path
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise ServerStartError(
                    f"{self.name} exited with code {self.process.returncode} before answering {url}:\n"
                    + self.log_tail()
                )
            if http_status(url, timeout=3.0) == 200:
                return
            self.record_descendants()
            time.sleep(0.25)
        raise ServerStartError(
            f"{self.name} did not answer {url} within {timeout:.0f} s:\n" + self.log_tail()
        )

    def record_descendants(self) -> None:
        """Remember every process the server spawned (kernels), so they can be stopped even if orphaned."""
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(psutil.Error):
            self.descendants.update(psutil.Process(self.process.pid).children(recursive=True))

    def stop(self) -> None:
        """Stop the server and its kernels; idempotent and safe to call from a signal handler."""
        process = self.process
        if process is None:
            return
        self.record_descendants()
        try:
            if process.poll() is None and self.shutdown_path is not None:
                with contextlib.suppress(OSError, TimeoutError, urllib.error.URLError):
                    request = urllib.request.Request(self.base_url + self.shutdown_path, method="POST")
                    urllib.request.urlopen(request, timeout=5.0).close()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=STOP_GRACE_S)
            if process.poll() is None:
                _signal_group(process.pid, signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=STOP_GRACE_S)
            if process.poll() is None:
                _signal_group(process.pid, signal.SIGKILL)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=STOP_GRACE_S)
            # The group is gone; kernels in their own sessions may remain: end exactly those we recorded.
            survivors = [p for p in self.descendants if _still_ours(p)]
            for child in survivors:
                with contextlib.suppress(psutil.Error):
                    child.terminate()
            _, still_alive = psutil.wait_procs(survivors, timeout=STOP_GRACE_S)
            for child in still_alive:
                with contextlib.suppress(psutil.Error):
                    child.kill()
        finally:
            with _live_lock:
                _live.pop(process.pid, None)
            self.process = None if process.poll() is not None else process


class ServerStartError(RuntimeError):
    """A server did not come up; the message carries the tail of its log."""


def _signal_group(pgid: int, signum: int) -> None:
    # The server was started with start_new_session=True, so its pgid is its pid: this only ever reaches
    # the server and the children that stayed in its group.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


def _still_ours(process: psutil.Process) -> bool:
    """True if the recorded process still runs and is the same one (PIDs get reused)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def start_server(
    name: str,
    argv: Sequence[str],
    cwd: Path,
    env: dict[str, str],
    log_path: Path,
    port_of: Callable[[], int],
    ready_path: str,
    shutdown_path: str | None = None,
    attempts: int = 3,
) -> ManagedServer:
    """Start a server and wait until it answers, retrying on a new port if the one picked got taken.

    ``argv`` may contain the placeholder ``{port}``, replaced by the port chosen for each attempt.
    """
    last_error: ServerStartError | None = None
    for _ in range(attempts):
        port = port_of()
        server = ManagedServer(
            name=name,
            argv=[arg.replace("{port}", str(port)) for arg in argv],
            cwd=cwd,
            env=env,
            log_path=log_path,
            port=port,
            ready_path=ready_path,
            shutdown_path=shutdown_path,
        )
        server.start()
        try:
            server.wait_ready()
            return server
        except ServerStartError as error:
            server.stop()
            last_error = error
            if "already in use" not in str(error) and "Address already" not in str(error):
                break
        except BaseException:
            server.stop()
            raise
    assert last_error is not None
    raise last_error


def stop_all() -> None:
    """Stop every server still registered (atexit / signal path)."""
    with _live_lock:
        servers = list(_live.values())
    for server in servers:
        with contextlib.suppress(Exception):
            server.stop()


def _handle_termination(signum: int, frame: FrameType | None) -> None:
    stop_all()
    previous = _previous_handlers.get(signum)
    if callable(previous):
        previous(signum, frame)
    elif previous == signal.SIG_DFL:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


_previous_handlers: dict[int, Any] = {}


def install_cleanup_handlers() -> None:
    """Make sure servers die with the test process: at exit, and on SIGTERM/SIGHUP (CI cancellation).

    SIGINT (Ctrl-C) needs nothing extra: pytest turns it into KeyboardInterrupt and runs the fixture
    finalizers; ``atexit`` is the backstop.  Only installed from the main thread (a signal requirement).
    """
    if _previous_handlers or threading.current_thread() is not threading.main_thread():
        return
    atexit.register(stop_all)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        _previous_handlers[signum] = signal.getsignal(signum)
        signal.signal(signum, _handle_termination)


def python_command(*args: str) -> list[str]:
    """Run a Jupyter entry point with the interpreter running the tests (the venv), not whatever is on PATH."""
    return [sys.executable, "-m", *args]
