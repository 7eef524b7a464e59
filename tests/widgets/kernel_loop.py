"""A coroutine run as a kernel runs it, for the widget tests that await page events."""

from __future__ import annotations

import asyncio
import threading
from typing import Any


def run_on_a_loop_of_its_own(make: Any) -> Any:
    """``asyncio.run(make())`` in a thread of its own: the main thread may already run a loop (a
    browser test's Playwright left in the same pytest process), as a kernel's does."""
    result: list[Any] = []
    worker = threading.Thread(target=lambda: result.append(asyncio.run(make())))
    worker.start()
    worker.join(60)
    assert result, "the coroutine did not finish"
    return result[0]
