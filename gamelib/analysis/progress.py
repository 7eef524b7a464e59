"""Progress bars for long runs (tournaments, solvers), shown only if tqdm is installed.

``tqdm.auto`` picks a widget in Jupyter and a text bar in a terminal; without tqdm (it is an
optional dependency of the ``analysis`` and ``notebook`` extras) long runs simply stay silent.
"""

from __future__ import annotations

from typing import Any


def progress_bar(enabled: bool, total: int, desc: str, unit: str = "game") -> Any:
    """A tqdm bar of ``total`` steps, or None when disabled or when tqdm is missing."""
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, unit=unit, leave=False)
