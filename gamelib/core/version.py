"""The library's version, in core so records can write and check it without importing the
``gamelib`` package above core (``gamelib.__version__`` is this same string)."""

from __future__ import annotations

__version__ = "0.1.0"
