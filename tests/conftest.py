"""Shared fixtures: every registered game with each of its player counts."""

from __future__ import annotations

import os

import matplotlib

os.environ.setdefault("MPLBACKEND", "Agg")
matplotlib.use("Agg")
