"""Agents by name, for the command line, notebooks and ``tournament(game, ["mcts", "random"])``.

A name resolves, in this order, to:

1. an agent registered for that game with :func:`register_agent` (``register_agent("fugitive",
   "heuristic", "gamelib.fugitive.agents:FugitiveHeuristic")``);
2. an entry of the ``AGENTS`` mapping in the game's own ``agents`` module, found by convention
   next to its rules (``gamelib.fugitive.agents.AGENTS = {"heuristic": FugitiveHeuristic}``), so
   a game ships its heuristics without touching this package;
3. a game-independent agent: ``random``, ``first``, ``greedy``, ``mcts``, ``ismcts``.

:func:`default_agents` says which agent each seat of a game starts with (a game declares it as
``SEAT_AGENTS`` in its ``agents`` module), and :func:`as_agent_fn` is the one place that turns an
agent (an object with ``act``, or a plain function) into the function to call.

Parameters follow the name as Python keyword arguments: ``mcts(iterations=200, c=1.0)``.  The
text is parsed with :mod:`ast` and only literals are accepted (nothing is evaluated).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gamelib.core.play import as_agent_fn
from gamelib.core.resolve import companion_module, resolve

if TYPE_CHECKING:
    import random

    from gamelib.core.game import Action, Game, State

Factory = Callable[..., Any]

# (game or None, name) -> "module:Attr" or a factory.  ``None`` is the game-independent table.
_AGENTS: dict[tuple[str | None, str], str | Factory] = {
    (None, "random"): "gamelib.agents.basic:RandomAgent",
    (None, "first"): "gamelib.agents.basic:FirstLegalAgent",
    (None, "greedy"): "gamelib.agents.greedy:GreedyAgent",
    (None, "mcts"): "gamelib.agents.mcts:MCTSAgent",
    (None, "ismcts"): "gamelib.agents.ismcts:ISMCTSAgent",
}


def register_agent(game: str | None, name: str, target: str | Factory) -> None:
    """Register an agent factory under ``name`` for ``game`` (``None``: every game).

    ``target`` is an import path ``"package.module:Class"`` (imported on first use, so
    registering costs nothing) or a callable taking keyword parameters and returning an agent.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(
            f"an agent name must be an identifier (it is used in 'name(k=v)' specs), got {name!r}"
        )
    if isinstance(target, str) and ":" not in target:
        raise ValueError(f"an agent target is 'package.module:Attr', got {target!r}")
    if not isinstance(target, str) and not callable(target):
        raise TypeError(f"an agent target is an import path or a callable, got {target!r}")
    _AGENTS[(game, name)] = target


def _game_agents_module(game: str) -> Any:
    """The game's ``agents`` module (next to its rules), or None if it ships none."""
    from gamelib.core.registry import game_class

    return companion_module(game_class(game), "agents")


def _game_module_agents(game: str) -> Mapping[str, Any]:
    """The ``AGENTS`` mapping of the game's ``agents`` module, if the game ships one."""
    agents = getattr(_game_agents_module(game), "AGENTS", {})
    return agents if isinstance(agents, Mapping) else {}


def default_agents(game: Game) -> list[str]:
    """The agent each seat of ``game`` starts with: one agent name per seat.

    A game declares them as ``SEAT_AGENTS`` in its ``agents`` module: one name for every seat
    (``SEAT_AGENTS = "role"``), or one name per seat (``SEAT_AGENTS = ("heuristic", "belief")``,
    the seat's role fixed by its index).  Games that declare nothing (or that are not
    registered) get ``"random"`` everywhere.  Every name resolves with :func:`make_agent`.
    """
    from gamelib.core.registry import registered_games

    seats = game.num_players
    declared: object = None
    if game.name in registered_games():
        declared = getattr(_game_agents_module(game.name), "SEAT_AGENTS", None)
    if declared is None:
        return ["random"] * seats
    if isinstance(declared, str):
        names = [declared] * seats
    elif isinstance(declared, Sequence) and all(isinstance(n, str) for n in declared):
        if len(declared) < seats:
            raise ValueError(
                f"{game.name}: SEAT_AGENTS names {len(declared)} seat(s), the game seats {seats}"
            )
        names = list(declared[:seats])
    else:
        raise TypeError(f"{game.name}: SEAT_AGENTS is an agent name or one name per seat, got {declared!r}")
    for name in dict.fromkeys(names):
        _resolve(parse_agent_spec(name)[0], game.name)  # an unknown name fails here, not mid-lesson
    return names


def rollout_agent_for(game: Game) -> Any:
    """The agent search rollouts follow in ``game`` by default, or None (uniform random moves).

    A game declares it as ``ROLLOUT_AGENT`` (an agent name) in its ``agents`` module when uniform
    random play does not end its games the way players do (Fugitive: ``"random_single_guess"``).
    """
    from gamelib.core.registry import registered_games

    if game.name not in registered_games():
        return None
    declared = getattr(_game_agents_module(game.name), "ROLLOUT_AGENT", None)
    if declared is None:
        return None
    if not isinstance(declared, str):
        raise TypeError(f"{game.name}: ROLLOUT_AGENT is an agent name, got {declared!r}")
    return make_agent(declared, game.name)


AgentFn = Callable[["State", int, "random.Random"], "Action | str"]
# as_agent_fn lives in gamelib.core.play (the one place that says what an agent is); re-exported here.


def registered_agents(game: str | None = None) -> list[str]:
    """The agent names usable for ``game`` (game-specific first), or the generic ones."""
    names: list[str] = []
    if game is not None:
        names += [n for (g, n) in _AGENTS if g == game]
        names += [n for n in _game_module_agents(game) if n not in names]
    names += [n for (g, n) in _AGENTS if g is None and n not in names]
    return names


def _resolve(name: str, game: str | None) -> Factory:
    target: str | Factory | None = None
    if game is not None:
        target = _AGENTS.get((game, name))
        if target is None:
            target = _game_module_agents(game).get(name)
    if target is None:
        target = _AGENTS.get((None, name))
    if target is None:
        known = ", ".join(registered_agents(game))
        where = f" for {game}" if game else ""
        raise ValueError(f"unknown agent {name!r}{where}; known agents: {known}")
    if isinstance(target, str):
        target = resolve(target)
    assert callable(target)
    return target


def agent_title(name: str, game: str | None = None, lang: str | None = None) -> str:
    """What a student reads for the agent ``name`` (a menu entry, a chart label), in the language
    in force (English, or French after ``gamelib.set_language("fr")``).

    The wording is data (``gamelib/agents/data/words.json``): ``"<game>.<name>"`` for a game's own
    agents, ``"<name>"`` for the generic ones.  A spec with parameters keeps them
    (``"mcts(iterations=50)"`` -> ``"MCTS (tree search) (iterations=50)"``); a name with no
    wording (an agent registered by a user) is shown as it is.

    >>> agent_title("belief", "fugitive")
    'belief detective'
    >>> agent_title("belief", "fugitive", lang="fr")
    'détective par croyance'
    """
    from gamelib.core.i18n import Wording

    words = Wording(__package__ or "gamelib.agents")
    text = name.strip()
    base, _, rest = text.partition("(")
    known = words.keys()
    for key in ([f"{game}.{base}"] if game else []) + [base]:
        if key in known:
            title = words(key, lang)
            return f"{title} ({rest}" if rest else title
    return text


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts(iterations=200, c=1.0)"`` -> ``("mcts", {"iterations": 200, "c": 1.0})``."""
    text = spec.strip()
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        raise ValueError(f"cannot read agent spec {spec!r}; expected name or name(key=value, ...)") from None
    if isinstance(node, ast.Name):
        return node.id, {}
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        raise ValueError(f"cannot read agent spec {spec!r}; expected name or name(key=value, ...)")
    if node.args:
        raise ValueError(f"agent spec {spec!r}: parameters must be named, e.g. mcts(iterations=200)")
    params: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg is None:
            raise ValueError(f"agent spec {spec!r}: '**' is not allowed")
        try:
            params[kw.arg] = ast.literal_eval(kw.value)
        except ValueError:
            raise ValueError(
                f"agent spec {spec!r}: parameter {kw.arg!r} must be a literal (number, string, True/False)"
            ) from None
    return node.func.id, params


def split_agent_specs(text: str) -> list[str]:
    """Split ``"mcts(iterations=50,c=1),random"`` on the commas outside parentheses."""
    specs, depth, current = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            specs.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        specs.append(current.strip())
    if depth != 0 or any(not s for s in specs):
        raise ValueError(f"cannot split agent list {text!r}; expected e.g. 'mcts(iterations=50),random'")
    return specs


def make_agent(spec: str, game: str | None = None, **params: Any) -> Any:
    """An agent from its name or spec, e.g. ``make_agent("mcts(iterations=200)", "fugitive")``.

    >>> make_agent("random")
    RandomAgent()
    """
    name, spec_params = parse_agent_spec(spec)
    factory = _resolve(name, game)
    spec_params.update(params)
    try:
        agent = factory(**spec_params)
    except TypeError as exc:
        raise ValueError(f"agent {name!r}: {exc}") from None
    try:
        as_agent_fn(agent)
    except TypeError:
        raise TypeError(
            f"agent {name!r} built {agent!r}, which has no act(state, player, rng) method"
        ) from None
    return agent
