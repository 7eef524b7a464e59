"""The address a Voilà page was asked with, read without importing Voilà into the kernel.

Why not ``voila.utils.get_query_string``: importing ``voila.utils`` brings jupyter_server,
jupyterlab_server and their templates into every kernel, about 45 MB of private memory each,
which is a third of a class-play student's kernel.  The protocol itself is small: Voilà gives a
kernel it runs on demand the page's query string in ``QUERY_STRING``; a *preheated* kernel (one
that ran the notebook before anyone asked) is told when a visitor arrives, over a websocket at
``<server>/voila/query/<kernel id>`` that sends one JSON object of the request's variables
(``QUERY_STRING`` among them).  :func:`page_query_string` reads it once, keeps it in the kernel's
environment as Voilà does, and answers from there afterwards.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import warnings

_RECEIVED = False
"""True once this kernel has been told of its visitor (a preheated kernel is told once)."""
_ONE_AT_A_TIME = threading.Lock()
"""Voilà tells a kernel once: a second caller waits for the first one's answer."""


def _query_url() -> str:
    """Where a preheated kernel hears of its visitor, from the variables Voilà started it with."""
    protocol = os.environ.get("VOILA_WS_PROTOCOL", "ws")
    host = os.environ.get("VOILA_APP_IP", "127.0.0.1")
    port = os.environ.get("VOILA_APP_PORT", "8866")
    base = os.environ.get("VOILA_WS_BASE_URL", os.environ.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{host}:{port}{base}voila/query/{os.environ.get('VOILA_KERNEL_ID', '')}"


async def _receive(url: str, open_timeout: float) -> str | None:
    import websockets  # a Voilà dependency: only a preheated Voilà kernel gets here

    try:
        async with websockets.connect(url, open_timeout=open_timeout) as socket:
            message = await socket.recv()
    except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as error:
        warnings.warn(f"no page request from Voilà at {url}: {error}", stacklevel=3)
        return None
    return message if isinstance(message, str) else message.decode()


def _wait_for_the_visitor(open_timeout: float) -> None:
    """Block until Voilà says who asked for the page, then keep the request's variables."""
    global _RECEIVED
    found: list[str | None] = []
    # The kernel's own event loop is running the cell: the socket gets a loop of its own.
    worker = threading.Thread(
        target=lambda: found.append(asyncio.run(_receive(_query_url(), open_timeout))),
        name="gamelib-page-request",
        daemon=True,
    )
    worker.start()
    worker.join()
    _RECEIVED = True
    if found and found[0] is not None:
        for name, value in json.loads(found[0]).items():
            os.environ[str(name)] = str(value)


def page_query_string(open_timeout: float = 5.0) -> str:
    """The query string of the page this kernel serves (``"lang=fr&code=K7QXP"``; empty outside Voilà).

    In a preheated kernel the first call waits until a visitor asks for the page (run it in a
    thread, or where the notebook may pause: Voilà shows the page when the cell ends).
    """
    if os.environ.get("VOILA_PREHEAT", "False") == "True" and not _RECEIVED:
        with _ONE_AT_A_TIME:
            if not _RECEIVED:
                _wait_for_the_visitor(open_timeout)
    return os.environ.get("QUERY_STRING", "")


__all__ = ["page_query_string"]
