"""The game configurations the generic tests run over: every game, every player count, and the
rule options that change what is being checked (a test's own ``variants``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import gamelib


def configurations(
    games: Iterable[str], variants: Mapping[str, Sequence[dict[str, Any]]] | None = None
) -> list[tuple[str, int, dict[str, Any]]]:
    """``(game, players, options)`` for each game of ``games``, each player count it allows, and
    its default options followed by each of its ``variants``."""
    configs = []
    for name in games:
        info = gamelib.core.game_class(name).info
        for players in range(info.min_players, info.max_players + 1):
            for options in [{}, *(variants or {}).get(name, [])]:
                configs.append((name, players, options))
    return configs
