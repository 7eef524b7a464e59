"""The generic Stepper: step through any registered game in Jupyter.

One widget for every game, built only on gamelib's public contract: the drawing from a chosen
perspective, the legal actions as buttons (or a list when there are many), a notation box, undo,
redo, reset, step, autoplay (play/pause with a speed slider) and play-to-end with an agent (or a
human) chosen per seat, chance nodes with their probabilities (roll, or force an outcome), the
history as notation with click-to-rewind, a status line, save/load of a JSON record, and a
hot-seat mode that passes the laptop between seats behind a cover.  Games add their own views as
*panels*.

A seat's view shows only what that seat knows: the history as it saw it
(``state.public_history(seat)``), chance as "chance (n outcomes)" with a Roll button (the
omniscient view lists the outcomes and can force one), and a notation example only from its own
legal actions.  Every label and status line comes from ``widgets/data/words.json`` (English by
default, French after ``gamelib.set_language("fr")``).

Every control has a stable ``description``/``tooltip`` and a ``gamelib-*`` CSS class so a browser
test can find it; every action the buttons perform is also a method (``apply``, ``undo``...) that
returns True on success or False with the reason in :attr:`Stepper.error`.  A refused input never
changes the game: actions are applied to a clone, and only a successful clone becomes the new
position.
"""

from __future__ import annotations

import html
import importlib
import io
import json
import random
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import ipywidgets as W

import gamelib
from gamelib import CHANCE, TERMINAL, Action, Game, State
from gamelib.agents import RandomAgent, make_agent
from gamelib.agents.registry import default_agents
from gamelib.core.i18n import Wording, language
from gamelib.core.play import agent_label, as_agent_fn, unique_names

from .timeline import Timeline

words = Wording(__package__ or "gamelib_widgets")
"""Every label, tooltip and status line of the widgets: ``widgets/data/words.json``."""

MAX_BUTTONS = 24
"""Above this many legal actions the stepper lists them in a Select instead of buttons."""

HUMAN = "human"
"""The seat value of a player who plays at the keyboard (Step and Autoplay wait for them)."""

_RENDER_CACHE_SIZE = 64

PNG_SPEED: dict[str, Any] = {"compress_level": 1}
"""PNG encoding for the live pictures: light compression (files about as small, encoded up to
twice as fast as the default level 6, which is most of a click on a busy machine)."""
_PLAY_MAX = 2**31 - 1

PANELS: dict[str, tuple[tuple[str | None, str], ...]] = {
    "fugitive": (("belief", ".fugitive:BeliefPanel"),),
    "getonboard": (("board_clicks", ".getonboard:IntersectionPanel"),),
    "delanopolis": ((None, ".delanopolis:BiddingPanel"),),
}
"""The panels each game offers, with the ``GameInfo`` capability each needs (None: none):
``panels="auto"`` shows those whose capability the game declares.  A module starting with a dot
is in this package (``gamelib_widgets``)."""

RATINGS: dict[str, str] = {"passante": "gamelib.passante.draw:rating_text"}
"""Cooperative games whose final score has a rating text, in the language in force:
``"module:function(score) -> str"``."""


class Panel(Protocol):
    """A game-specific view shown under the stepper and refreshed after every change."""

    widget: Any

    def update(self, state: State) -> None: ...


PanelFactory = Callable[["Stepper"], Panel]


def _import(target: str) -> Any:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module, __package__), attr)


def panels_for(game: Game) -> list[PanelFactory]:
    """The panels ``game`` offers whose capability it declares (see :data:`PANELS`)."""
    return [
        _import(target)
        for capability, target in PANELS.get(game.name, ())
        if capability is None or game.info.has(capability)
    ]


def _escape(text: str) -> str:
    """Text for an HTML widget: ``<``, ``>`` and ``&`` escaped, quotes kept (they read better)."""
    return html.escape(text, quote=False)


def _css(widget: Any, *classes: str) -> Any:
    for name in classes:
        widget.add_class(name)
    return widget


def _button(css: str, style: str = "") -> W.Button:
    return _css(W.Button(button_style=style), css)


class Stepper:
    """Step through a game turn by turn, in a notebook or from Python.

    ``game_or_state`` is a :class:`gamelib.Game`, a game name, or a :class:`gamelib.State` (a state
    with a history is replayed from its seed so that every step can be undone).  ``agents`` maps a
    name to an agent (anything with ``act(state, player, rng)``, or such a function), or gives one
    agent per seat; a random agent is always offered, and :data:`HUMAN` seats a player at the
    keyboard.  Without ``agents`` each seat starts with the agent made for its role
    (:func:`gamelib.agents.registry.default_agents`); with a mapping, a seat starts with its role's
    agent if the mapping names it, else with the first agent given.  ``perspective`` is None
    (omniscient), a player index or a player's name.  ``panels`` are callables ``panel(stepper)``
    returning objects with ``.widget`` and ``.update(state)``, or ``"auto"`` for the panels the
    game offers (:func:`panels_for`).  ``hot_seat=True`` starts in hot-seat mode (see
    :meth:`set_hot_seat`); ``speed`` is autoplay's moves per second.
    """

    max_buttons = MAX_BUTTONS
    tight_bbox = False
    """Crop drawings to their content: off by default, as it costs about 40% more per redraw."""

    def __init__(
        self,
        game_or_state: Game | State | str,
        seed: int = 0,
        agents: Mapping[str, Any] | Sequence[Any] | None = None,
        perspective: int | str | None = None,
        panels: Sequence[PanelFactory] | str = (),
        dpi: int = 100,
        hot_seat: bool = False,
        speed: float = 2.0,
    ) -> None:
        if isinstance(game_or_state, str):
            game_or_state = gamelib.make(game_or_state)
        if isinstance(game_or_state, Game):
            self._timeline = Timeline(game_or_state.new_game(seed=seed))
        elif isinstance(game_or_state, State):
            self._timeline = Timeline.replayed(game_or_state)
        else:
            raise TypeError(f"Stepper needs a gamelib Game, State or game name, got {game_or_state!r}")
        self._live: State = self._timeline.current.clone()
        self.dpi = dpi
        self.error = ""
        self._refreshing = False
        self._hot_seat = False
        self._covered = False
        self._lang = ""
        self._render_cache: OrderedDict[tuple[int, int | None], tuple[State, bytes | None, str]] = (
            OrderedDict()
        )
        self.agents, seat_defaults = self._agents_from(agents)
        self.seats: list[str] = list(seat_defaults)
        self._perspective = self._player_index(perspective)
        self._build_widgets(speed)
        if isinstance(panels, str):
            if panels != "auto":
                raise ValueError(f"panels is a list of panel factories or 'auto', got {panels!r}")
            panels = panels_for(self.game)
        self.panels: list[Panel] = [factory(self) for factory in panels]
        self.panels_box.children = tuple(p.widget for p in self.panels)
        if hot_seat:
            self.set_hot_seat(True)
        else:
            self._refresh()

    # ================================================================ reading
    @property
    def game(self) -> Game:
        return self._timeline.current.game

    @property
    def state(self) -> State:
        """The current position.  A new object after each change: read it again, do not keep it.

        Mutating it directly (``stepper.state.apply(...)``) is noticed on the next stepper call, or
        at once with :meth:`refresh`.
        """
        return self._live

    @property
    def perspective(self) -> int | None:
        """None for the omniscient view, else the index of the player whose view is shown."""
        return self._perspective

    @perspective.setter
    def perspective(self, value: int | str | None) -> None:
        self._perspective = self._player_index(value)
        self._refreshing = True
        try:
            self.perspective_dropdown.value = self._perspective_value(self._perspective)
        finally:
            self._refreshing = False
        self._refresh()

    @property
    def history(self) -> list[str]:
        """The current position's history in notation (omniscient)."""
        return [str(a) for a in self._live.history]

    @property
    def hot_seat(self) -> bool:
        """Whether the hot-seat mode is on (see :meth:`set_hot_seat`)."""
        return self._hot_seat

    @property
    def covered(self) -> bool:
        """Whether the hot-seat cover hides the game (until :meth:`reveal`)."""
        return self._covered

    def can_undo(self) -> bool:
        return self._timeline.can_undo()

    def can_redo(self) -> bool:
        return self._timeline.can_redo()

    # ================================================================ actions
    def apply(self, action_or_notation: Action | str) -> bool:
        """Play an action (or its notation) for whoever is to move, chance included.

        An illegal action or bad notation leaves the game as it was and puts the rule broken in
        :attr:`error`.
        """
        self.pause()
        return self._apply(action_or_notation)

    def _apply(self, action_or_notation: Action | str) -> bool:
        self._sync()
        if self._covered:
            return self._fail(words("err_covered", player=self._name(self._next_seat())))
        state = self._timeline.current.clone()
        try:
            state.apply(action_or_notation)
        except ValueError as exc:  # IllegalAction, with the rule broken in its text
            return self._fail(str(exc))
        self._timeline.push(state)
        self._moved()
        return True

    def undo(self) -> bool:
        """Go back one action (the undone actions stay on the redo line)."""
        self.pause()
        self._sync()
        if not self._timeline.undo():
            return self._fail(words("err_nothing_to_undo"))
        self._moved()
        return True

    def redo(self) -> bool:
        """Replay the next action of the redo line."""
        self.pause()
        self._sync()
        if not self._timeline.redo():
            return self._fail(words("err_nothing_to_redo"))
        self._moved()
        return True

    def reset(self) -> bool:
        """Back to the start of the game; the line played stays on the redo line."""
        self.pause()
        self._sync()
        self._timeline.rewind(0)
        self._moved()
        return True

    def rewind(self, ply: int) -> bool:
        """Go to the position after ``ply`` actions of the line (back or forward along it)."""
        self.pause()
        self._sync()
        first = self._timeline.start_ply
        last = first + len(self._timeline) - 1
        if isinstance(ply, bool) or not isinstance(ply, int) or not first <= ply <= last:
            return self._fail(words("err_rewind", ply=repr(ply), first=first, last=last))
        self._timeline.rewind(ply - first)
        self._moved()
        return True

    def step_agent(self) -> bool:
        """One action by the agent seated for the player to move (a sampled outcome at chance)."""
        self.pause()
        return self._step()

    def _step(self) -> bool:
        self._sync()
        state = self._timeline.current.clone()
        if state.is_terminal():
            return self._fail(words("err_game_over_step"))
        if self._covered:
            return self._fail(words("err_covered", player=self._name(self._next_seat())))
        if not self._agent_move(state):
            self._show_error()
            return False
        self._timeline.push(state)
        self._moved()
        return True

    def play_to_end(self) -> bool:
        """Let the seated agents (and chance, by ``state.sample_chance()``) finish the game.

        Every action lands on the line, so each can be undone one by one.  Stops with an error if
        an agent fails, a human seat is to move or the game's maximum length is exceeded; the
        moves made so far stay.
        """
        self.pause()
        self._sync()
        if self._covered:
            return self._fail(words("err_covered", player=self._name(self._next_seat())))
        state = self._timeline.current.clone()
        limit = self.game.max_game_length
        ok = True
        while not state.is_terminal():
            if len(state.history) >= limit:
                self.error = words("err_limit", limit=limit)
                ok = False
                break
            if not self._agent_move(state):
                ok = False
                break
            self._timeline.push(state)
        self._live = self._timeline.current.clone()
        if ok:
            self.error = ""
        self._refresh()
        return ok

    def force_chance(self, outcome: Action | str) -> bool:
        """At a chance node, make ``outcome`` happen (a die face, a card) instead of sampling."""
        self.pause()
        self._sync()
        state = self._timeline.current
        if state.current_player != CHANCE:
            return self._fail(words("err_not_chance_force"))
        try:
            action = self.game.parse_action(outcome) if isinstance(outcome, str) else outcome
        except ValueError as exc:
            return self._fail(str(exc))
        possible = [a for a, _ in state.chance_outcomes()]
        if action not in possible:
            shown = ", ".join(str(a) for a in possible[:12]) + (", ..." if len(possible) > 12 else "")
            return self._fail(words("err_not_an_outcome", action=action, possible=shown))
        return self._apply(action)

    def roll(self) -> bool:
        """At a chance node, draw the outcome with its probability (same seed, same draw)."""
        self.pause()
        self._sync()
        state = self._timeline.current
        if state.current_player != CHANCE:
            return self._fail(words("err_not_chance_roll"))
        return self._apply(state.sample_chance())

    def set_agent(self, player: int | str, name: str) -> None:
        """Seat the agent called ``name`` (a key of :attr:`agents`, or :data:`HUMAN`) for ``player``."""
        index = self._player_index(player)
        if index is None:
            raise ValueError("set_agent needs a player, not the omniscient view")
        if name not in self.agents and name != HUMAN:
            raise ValueError(f"unknown agent {name!r}; choose one of {sorted(self.agents)} or {HUMAN!r}")
        self.seats[index] = name
        self.seat_dropdowns[index].value = name

    def show_error(self, message: str) -> bool:
        """Show ``message`` in the error line, as for a refused input; returns False.

        For panels that refuse an input of their own (a click on an unreachable spot, say): the
        game is unchanged and the message appears where every other refusal does.
        """
        return self._fail(message)

    # ================================================================ autoplay
    def play(self) -> None:
        """Start autoplay: the seated agents and chance move one by one at :attr:`speed`.

        The timer is the ``Play`` widget (:attr:`autoplay`), which runs in the browser (JupyterLab
        and Voilà alike) and calls :meth:`autoplay_tick` at each beat.
        """
        self.autoplay.playing = True

    def pause(self) -> None:
        """Stop autoplay (any button a person presses pauses it too)."""
        if self.autoplay.playing:
            self.autoplay.playing = False

    @property
    def speed(self) -> float:
        """Autoplay's moves per second (the speed slider)."""
        return float(self.speed_slider.value)

    @speed.setter
    def speed(self, value: float) -> None:
        self.speed_slider.value = value

    def autoplay_tick(self) -> bool:
        """One beat of autoplay: the seated agent or chance makes one move.

        Pauses autoplay, and returns False, at the end of the game, when a human seat is to
        move, behind the hot-seat cover, or when an agent fails (the error line says why).
        """
        self._sync()
        if self._autoplay_blocked(self._timeline.current):
            self.pause()
            return False
        moved = self._step()
        if not moved or self._autoplay_blocked(self._timeline.current):
            self.pause()
        return moved

    def _autoplay_blocked(self, state: State) -> bool:
        player = state.current_player
        return state.is_terminal() or self._covered or (player >= 0 and self.seats[player] == HUMAN)

    def _on_autoplay_beat(self, change: dict[str, Any]) -> None:
        if self.autoplay.playing and not self._refreshing:
            self.autoplay_tick()

    def _on_speed(self, change: dict[str, Any]) -> None:
        self.autoplay.interval = max(20, round(1000 / max(float(change["new"]), 0.01)))

    # ================================================================ hot seat
    def set_hot_seat(self, on: bool = True, humans: Iterable[int | str] | None = None) -> None:
        """Pass the laptop: each seat sees only its own view, with a cover between seats.

        Turning it on seats a human at ``humans`` (default: every seat).  Whenever a human seat
        other than the one shown is to move, a cover ("Hand over to the detective") hides the
        board, the history, the controls and the panels until that player presses Reveal
        (:meth:`reveal`); agents and chance move under the view of the seat shown.  While it is
        on, the View menu, the Hot seat box and the record box are hidden, so nobody at the
        keyboard can get round the cover; ``set_hot_seat(False)`` (from code) goes back to the
        omniscient view.
        """
        self.pause()
        if on:
            chosen = range(self.game.num_players) if humans is None else humans
            for seat in chosen:
                index = self._player_index(seat)
                if index is not None:
                    self.set_agent(index, HUMAN)
            self._perspective = None  # nobody shown yet: the first seat is asked for
        else:
            self._perspective = None
        self._hot_seat = bool(on)
        self._refreshing = True
        try:
            self.hot_seat_box.value = self._hot_seat
            self.perspective_dropdown.value = self._perspective_value(self._perspective)
        finally:
            self._refreshing = False
        self.error = ""
        self._refresh()

    def reveal(self) -> bool:
        """Behind the hot-seat cover: show the view of the seat asked for."""
        if not self._covered:
            return False
        self._perspective = self._next_seat()
        self._refreshing = True
        try:
            self.perspective_dropdown.value = self._perspective_value(self._perspective)
        finally:
            self._refreshing = False
        self.error = ""
        self._refresh()
        return True

    def undo_behind_cover(self) -> bool:
        """Take back the last move without showing anything: the cover then asks for the seat to
        move (whoever holds the laptop may not be the player who made the move)."""
        if not self._covered:
            return self.undo()
        self._perspective = None
        return self.undo()

    def _next_seat(self) -> int:
        """The seat the hot-seat cover asks for: the human to move, else the first human seat."""
        player = self._timeline.current.current_player
        if player >= 0 and self.seats[player] == HUMAN:
            return player
        humans = [p for p, name in enumerate(self.seats) if name == HUMAN]
        if humans:
            return humans[0]
        return max(player, 0)

    def _must_cover(self, state: State) -> bool:
        if not self._hot_seat:
            return False
        if self._perspective is None:
            return True
        player = state.current_player
        return player >= 0 and self.seats[player] == HUMAN and player != self._perspective

    # ================================================================ records
    def save_record(self) -> str:
        """The current position's record as JSON text (also shown in the record box)."""
        self._sync()
        text = json.dumps(self._timeline.current.to_record(), ensure_ascii=False)
        self.record_text.value = text
        return text

    def load_record(self, record: str | Mapping[str, Any] | None = None) -> bool:
        """Load a record (JSON text or dict; default: the record box) with :func:`gamelib.from_record`.

        Every step is re-validated; a bad record shows the error naming the field or step and the
        stepper keeps its game.  The loaded game can be undone step by step.
        """
        self.pause()
        self._sync()
        if record is None:
            record = self.record_text.value
        if isinstance(record, str) and not record.strip():
            return self._fail(words("err_record_empty"))
        try:
            state = gamelib.from_record(dict(record) if isinstance(record, Mapping) else record)
        except ValueError as exc:
            return self._fail(str(exc))
        if state.game.name != self.game.name:
            return self._fail(words("err_record_game", mine=self.game.name, theirs=state.game.name))
        if state.game.num_players != self.game.num_players:
            return self._fail(
                words("err_record_players", mine=self.game.num_players, theirs=state.game.num_players)
            )
        self._timeline = Timeline.replayed(state)
        self._render_cache.clear()
        self._moved()
        return True

    # ================================================================ display
    def refresh(self) -> None:
        """Redraw everything (after the state was changed directly, or the language switched)."""
        self._sync()
        self._refresh()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<Stepper {self.game.name}: {len(self._live.history)} actions, {self._to_move_text()}>"

    # ================================================================ internals: moves
    def _agent_move(self, state: State) -> bool:
        """Apply one agent or chance action to ``state`` (a scratch clone); False with error set."""
        player = state.current_player
        if player == CHANCE:
            state.apply(state.sample_chance())
            return True
        name = self.seats[player]
        if name == HUMAN:
            self.error = words("err_human", player=self._name(player))
            return False
        act = as_agent_fn(self.agents[name], name)
        # A generator per (seed, player, move): stepping again after an undo replays the same move.
        rng = random.Random(f"gamelib-stepper/{state.seed}/{player}/{len(state.history)}")
        who = words("err_agent_who", name=name, player=self._name(player))
        try:
            choice = act(state.clone(), player, rng)
        except Exception as exc:  # user code: report it, keep the stepper usable
            self.error = words("err_agent_failed", who=who, error=f"{type(exc).__name__}: {exc}")
            return False
        try:
            state.apply(choice)
        except ValueError as exc:
            self.error = words("err_agent_illegal", who=who, error=exc)
            return False
        return True

    def _moved(self) -> None:
        self._live = self._timeline.current.clone()
        self.error = ""
        self._refresh()

    def _fail(self, message: str) -> bool:
        self.error = message
        self._show_error()
        return False

    def _sync(self) -> None:
        """Adopt actions applied to :attr:`state` directly, so the line and the view follow them."""
        live, current = self._live, self._timeline.current
        done = len(current.history)
        if len(live.history) == done:
            return
        if len(live.history) > done and [str(a) for a in live.history[:done]] == [
            str(a) for a in current.history
        ]:
            walker = current.clone()
            try:
                for action in live.history[done:]:
                    walker.apply(action)
                    self._timeline.push(walker)
            except ValueError:
                pass
            else:
                if walker == live:
                    self._refresh()
                    return
        self._live = self._timeline.current.clone()
        self.error = words("err_outside")
        self._refresh()

    # ================================================================ internals: players and agents
    def _agents_from(
        self, agents: Mapping[str, Any] | Sequence[Any] | None
    ) -> tuple[dict[str, Any], list[str]]:
        game = self.game
        players = game.num_players
        table: dict[str, Any] = {}
        seats: list[str] = []
        roles = default_agents(game)
        if agents is None:
            for name in dict.fromkeys(roles):
                table[name] = make_agent(name, game.name) if name != "random" else RandomAgent()
            seats = list(roles)
        elif isinstance(agents, Mapping):
            for name, agent in agents.items():
                self._check_agent(name, agent)
                table[str(name)] = agent
            first = next(iter(table), "random")
            declared = roles != ["random"] * players  # the game names an agent per role
            seats = [role if declared and role in table else first for role in roles]
        elif isinstance(agents, Sequence) and not isinstance(agents, str):
            if len(agents) != players:
                raise ValueError(f"{game.name} seats {players} players; got {len(agents)} agents")
            # One entry per distinct agent (an agent given for two seats is one entry), named as
            # tournaments name them: ``random``, ``random#2``...
            distinct = list({id(agent): agent for agent in agents}.values())
            names = dict(
                zip(map(id, distinct), unique_names([agent_label(a) for a in distinct]), strict=True)
            )
            for agent in agents:
                name = names[id(agent)]
                self._check_agent(name, agent)
                table[name] = agent
                seats.append(name)
        else:
            raise TypeError(f"agents must be a dict name -> agent or one agent per seat, got {agents!r}")
        if HUMAN in table:
            raise ValueError(f"{HUMAN!r} is the keyboard seat; give the agent another name")
        table.setdefault("random", RandomAgent())
        return table, seats

    @staticmethod
    def _check_agent(name: object, agent: Any) -> None:
        as_agent_fn(agent, name)

    def _player_index(self, player: int | str | None) -> int | None:
        if player is None or player == "omniscient":
            return None
        game = self.game
        names = [game.player_name(p) for p in range(game.num_players)]
        if isinstance(player, str):
            if player not in names:
                raise ValueError(f"unknown player {player!r}; players: {names} (or 'omniscient')")
            return names.index(player)
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.num_players:
            raise ValueError(f"player must be None (omniscient) or 0..{game.num_players - 1}, got {player!r}")
        return player

    def _name(self, player: int) -> str:
        return self.game.player_name(player)

    @staticmethod
    def _perspective_value(perspective: int | None) -> int:
        return 0 if perspective is None else perspective + 1

    # ================================================================ internals: widgets
    def _build_widgets(self, speed: float) -> None:
        game = self.game
        self.title = W.HTML(f"<b style='font-size:1.3em'>{_escape(game.info.title)}</b>")
        self.status = _css(W.HTML(), "gamelib-status")
        self.error_html = _css(W.HTML(), "gamelib-error")

        self.board_image = W.Image(format="png", layout=W.Layout(max_width="100%", height="auto"))
        self.board_text = W.HTML()
        self.board = _css(W.Box(layout=W.Layout(flex="1 1 560px", min_width="320px")), "gamelib-board")

        self.perspective_dropdown = _css(W.Dropdown(options=[("", 0)], value=0), "gamelib-perspective")
        self.perspective_dropdown.observe(self._on_perspective, "value")
        self.hot_seat_box = _css(W.Checkbox(value=False, indent=False), "gamelib-hot-seat")
        self.hot_seat_box.observe(self._on_hot_seat, "value")

        # legal actions: a pool of buttons reused from move to move, or a list when there are many
        self._button_pool: list[W.Button] = []
        self._shown_actions: list[Action] = []
        self.actions_box = _css(W.Box(layout=W.Layout(flex_flow="row wrap")), "gamelib-actions")
        self.action_select = _css(W.Select(rows=10), "gamelib-action-list")
        self.play_selected_button = _button("gamelib-play-selected", "primary")
        self.play_selected_button.on_click(lambda _: self._play_selected())
        self.action_list = W.VBox([self.action_select, self.play_selected_button])
        self.waiting = _css(W.HTML(), "gamelib-waiting")

        self.notation = _css(W.Text(layout=W.Layout(width="260px")), "gamelib-notation")
        self.apply_button = _button("gamelib-apply", "primary")
        self.apply_button.on_click(lambda _: self._apply_typed())

        self.undo_button = _button("gamelib-undo")
        self.redo_button = _button("gamelib-redo")
        self.reset_button = _button("gamelib-reset")
        self.step_button = _button("gamelib-step")
        self.play_button = _button("gamelib-play-to-end", "success")
        self.undo_button.on_click(lambda _: self.undo())
        self.redo_button.on_click(lambda _: self.redo())
        self.reset_button.on_click(lambda _: self.reset())
        self.step_button.on_click(lambda _: self.step_agent())
        self.play_button.on_click(lambda _: self.play_to_end())

        # autoplay: the Play widget's timer runs in the browser and moves ``value`` at each beat
        self.autoplay = _css(
            W.Play(value=0, min=0, max=_PLAY_MAX, step=1, interval=500, show_repeat=False),
            "gamelib-autoplay",
        )
        self.autoplay.observe(self._on_autoplay_beat, "value")
        self.speed_slider = _css(
            W.FloatSlider(value=speed, min=0.5, max=20.0, step=0.5, readout_format=".1f"),
            "gamelib-speed",
        )
        self.speed_slider.observe(self._on_speed, "value")
        self._on_speed({"new": speed})

        self.chance_html = W.HTML()
        self.force_dropdown = _css(W.Dropdown(), "gamelib-force-choice")
        self.force_button = _button("gamelib-force", "warning")
        self.roll_button = _button("gamelib-roll", "info")
        self.force_button.on_click(lambda _: self._force_selected())
        self.roll_button.on_click(lambda _: self.roll())
        self.chance_box = _css(
            W.VBox([self.chance_html, W.HBox([self.roll_button, self.force_dropdown, self.force_button])]),
            "gamelib-chance",
        )

        self.seat_dropdowns: list[W.Dropdown] = []
        for player in range(game.num_players):
            dropdown = _css(
                W.Dropdown(options=self._seat_options(), value=self.seats[player]), "gamelib-seat"
            )
            dropdown.observe(self._on_seat(player), "value")
            self.seat_dropdowns.append(dropdown)

        self.history_select = _css(W.Select(rows=12), "gamelib-history")
        self.history_select.observe(self._on_history, "value")

        self.record_text = _css(W.Textarea(layout=W.Layout(width="100%", height="6em")), "gamelib-record")
        self.save_button = _button("gamelib-save")
        self.load_button = _button("gamelib-load")
        self.save_button.on_click(lambda _: self.save_record())
        self.load_button.on_click(lambda _: self.load_record())

        self.panels_box = _css(W.VBox(), "gamelib-panels")

        self.cover_html = W.HTML()
        self.reveal_button = _button("gamelib-reveal", "primary")
        self.reveal_button.on_click(lambda _: self.reveal())
        # a misclick before the hand-over can be taken back, behind the cover still
        self.cover_undo_button = _button("gamelib-cover-undo")
        self.cover_undo_button.on_click(lambda _: self.undo_behind_cover())
        self.cover = _css(
            W.VBox(
                [self.cover_html, W.HBox([self.reveal_button, self.cover_undo_button])],
                layout=W.Layout(min_height="420px", padding="2em", border="2px solid #888"),
            ),
            "gamelib-cover",
        )

        controls = W.VBox(
            [
                W.HBox([self.perspective_dropdown, self.hot_seat_box]),
                self.chance_box,
                self.actions_box,
                self.action_list,
                self.waiting,
                W.HBox([self.notation, self.apply_button]),
                W.HBox([self.undo_button, self.redo_button, self.reset_button]),
                W.HBox([self.step_button, self.play_button]),
                W.HBox([self.autoplay, self.speed_slider]),
                W.VBox(self.seat_dropdowns),
                self.history_select,
            ],
            layout=W.Layout(flex="0 1 420px"),
        )
        self._header = W.HBox([self.title, self.status])
        self._main = W.HBox([self.board, controls], layout=W.Layout(flex_flow="row wrap"))
        self._record_box = W.VBox([self.record_text, W.HBox([self.save_button, self.load_button])])
        self._body = (self._main, self.panels_box, self._record_box)
        self.widget = _css(
            W.VBox([self._header, self.error_html, *self._body]),
            "gamelib-stepper",
        )

    def _seat_options(self) -> list[tuple[str, str]]:
        return [(n, n) for n in self.agents] + [(words("human"), HUMAN)]

    def _relabel(self) -> None:
        """Every label and tooltip in the language in force (only when it changed)."""
        lang = language()
        if lang == self._lang:
            return
        self._lang = lang
        game = self.game
        names = [game.player_name(p) for p in range(game.num_players)]
        labelled: list[tuple[Any, str]] = [
            (self.apply_button, "apply"),
            (self.undo_button, "undo"),
            (self.redo_button, "redo"),
            (self.reset_button, "reset"),
            (self.step_button, "step"),
            (self.play_button, "play_to_end"),
            (self.play_selected_button, "play_selected"),
            (self.force_button, "force"),
            (self.roll_button, "roll"),
            (self.save_button, "save"),
            (self.load_button, "load"),
            (self.perspective_dropdown, "view"),
            (self.hot_seat_box, "hot_seat"),
            (self.autoplay, "autoplay"),
            (self.speed_slider, "speed"),
            (self.force_dropdown, "outcome"),
            (self.action_select, "actions"),
            (self.history_select, "history"),
        ]
        for widget, key in labelled:
            widget.description = words(key)
            widget.tooltip = words(key + "_tip")
        self.notation.description = words("notation")
        self.record_text.description = words("record")
        self.record_text.placeholder = words("record_placeholder")
        self._refreshing = True
        try:
            self.perspective_dropdown.options = [(words("omniscient"), 0)] + [
                (n, i + 1) for i, n in enumerate(names)
            ]
            # the View menu shows the perspective in force (Stepper(..., perspective=0) included)
            self.perspective_dropdown.value = self._perspective_value(self._perspective)
            for player, dropdown in enumerate(self.seat_dropdowns):
                dropdown.options = self._seat_options()
                dropdown.value = self.seats[player]
                dropdown.description = names[player]
                dropdown.tooltip = words("seat_tip", player=names[player])
        finally:
            self._refreshing = False

    # ---------------------------------------------------------------- widget callbacks
    def _apply_typed(self) -> None:
        text = self.notation.value.strip()
        if not text:
            self._fail(words("err_type_first"))
            return
        if self.apply(text):
            self.notation.value = ""

    def _play_index(self, index: int) -> None:
        if index < len(self._shown_actions):
            self.apply(self._shown_actions[index])

    def _play_selected(self) -> None:
        index = self.action_select.value
        if index is None:
            self._fail(words("err_pick_first"))
            return
        self._play_index(index)

    def _force_selected(self) -> None:
        state = self._timeline.current
        outcomes = state.chance_outcomes() if self._perspective is None else []
        index = self.force_dropdown.value
        if index is None or index >= len(outcomes):
            self._fail(words("err_no_outcome"))
            return
        self.force_chance(outcomes[index][0])

    def _on_perspective(self, change: dict[str, Any]) -> None:
        if self._refreshing:
            return
        value = change["new"]
        self._perspective = None if value == 0 else value - 1
        self._refresh()

    def _on_hot_seat(self, change: dict[str, Any]) -> None:
        if not self._refreshing:
            self.set_hot_seat(bool(change["new"]))

    def _on_seat(self, player: int) -> Callable[[dict[str, Any]], None]:
        def observer(change: dict[str, Any]) -> None:
            if self._refreshing:
                return
            self.seats[player] = change["new"]
            if self._hot_seat:
                self._refresh()

        return observer

    def _on_history(self, change: dict[str, Any]) -> None:
        if self._refreshing or change["new"] is None:
            return
        if change["new"] != len(self._live.history):
            self.rewind(change["new"])

    # ---------------------------------------------------------------- refreshing the view
    def _refresh(self) -> None:
        self._relabel()
        state = self._timeline.current
        covered = self._must_cover(state)
        self._covered = covered
        self._refreshing = True
        try:
            self.status.value = self._status_html(state)
            if covered:
                self._show_cover()
            else:
                if self.widget.children[2] is not self._main:
                    self.widget.children = (self._header, self.error_html, *self._body)
                self._show_board(state)
                self._show_controls(state)
                self._show_history()
            # no way round the cover from the keyboard: the teacher turns hot seat off from code
            self.perspective_dropdown.layout.display = "none" if self._hot_seat else None
            self.hot_seat_box.layout.display = "none" if self._hot_seat else None
            self._record_box.layout.display = "none" if self._hot_seat else None
            self.undo_button.disabled = not self._timeline.can_undo()
            self.redo_button.disabled = not self._timeline.can_redo()
            self.reset_button.disabled = not self._timeline.can_undo()
            over = state.is_terminal()
            self.step_button.disabled = over
            self.play_button.disabled = over
            self.autoplay.disabled = over
        finally:
            self._refreshing = False
        if not covered:
            for panel in self.panels:
                try:
                    panel.update(self._live)
                except Exception as exc:  # a broken panel must not take the stepper down with it
                    self.error = words(
                        "err_panel", panel=type(panel).__name__, error=f"{type(exc).__name__}: {exc}"
                    )
        self._show_error()

    def _show_cover(self) -> None:
        """Hide everything a seat could see; ask for the next seat."""
        seat = self._name(self._next_seat())
        self.error = ""  # a refusal may name the previous seat's cards
        self.cover_html.value = (
            f"<h2>{_escape(words('cover_title', player=seat))}</h2>"
            f"<p style='font-size:1.2em'>{_escape(words('cover_text', player=seat))}</p>"
        )
        self.reveal_button.description = words("reveal")
        self.reveal_button.tooltip = words("reveal_tip", player=seat)
        self.cover_undo_button.description = words("undo")
        self.cover_undo_button.tooltip = words("cover_undo_tip")
        self.cover_undo_button.disabled = not self._timeline.can_undo()
        self.widget.children = (self._header, self.error_html, self.cover)
        # the hidden widgets keep nothing of the seat that was shown
        self.board_image.value = b""
        self.board_text.value = ""
        self.history_select.options = []
        self.actions_box.children = ()
        self.action_select.options = []
        self.force_dropdown.options = []
        self.chance_html.value = ""
        self.waiting.value = ""
        self.notation.value = ""
        self.notation.placeholder = ""

    def _show_error(self) -> None:
        if self.error:
            self.error_html.value = (
                f"<span style='color:#b00020;font-weight:bold;font-size:1.1em'>✗ {_escape(self.error)}</span>"
            )
        else:
            self.error_html.value = ""

    def _show_board(self, state: State) -> None:
        png, text = self._render(state, self._perspective)
        if png is not None:
            self.board_image.value = png
            self.board.children = (self.board_image,)
        else:
            self.board_text.value = f"<pre style='font-size:1.1em'>{_escape(text)}</pre>"
            self.board.children = (self.board_text,)

    def _render(self, state: State, perspective: int | None) -> tuple[bytes | None, str]:
        """PNG of ``state`` from ``perspective``, cached per snapshot (undo/redo redraw nothing).

        Games without a drawing (or whose drawing module is missing or fails) are shown as text,
        with the reason: the state's ``str`` when omniscient, the player's observation otherwise.
        """
        key = (id(state), perspective)
        hit = self._render_cache.get(key)
        if hit is not None and hit[0] is state and hit[2].startswith(f"{language()}:"):
            self._render_cache.move_to_end(key)
            return hit[1], hit[2].partition(":")[2]
        png: bytes | None = None
        text = ""
        try:
            figure = state.draw(perspective=perspective)
        except (NotImplementedError, ImportError) as exc:
            text = self._text_view(state, perspective) + "\n\n(" + words("err_no_drawing", error=exc) + ")"
        except Exception as exc:  # a drawing bug must not take the stepper (and the lesson) down
            error = f"{type(exc).__name__}: {exc}"
            text = (
                self._text_view(state, perspective) + "\n\n(" + words("err_drawing_failed", error=error) + ")"
            )
        else:
            buffer = io.BytesIO()
            figure.savefig(
                buffer,
                format="png",
                dpi=self.dpi,
                bbox_inches="tight" if self.tight_bbox else None,
                pil_kwargs=PNG_SPEED,
            )
            png = buffer.getvalue()
        self._render_cache[key] = (state, png, f"{language()}:{text}")
        while len(self._render_cache) > _RENDER_CACHE_SIZE:
            self._render_cache.popitem(last=False)
        return png, text

    @staticmethod
    def _text_view(state: State, perspective: int | None) -> str:
        if perspective is None:
            return str(state)
        return (
            words("sees", player=state.game.player_name(perspective))
            + f"\n{state.observation(perspective)!r}"
        )

    def _show_controls(self, state: State) -> None:
        player = state.current_player
        perspective = self._perspective
        sees_moves = perspective is None or perspective == player
        human = player >= 0 and self.seats[player] == HUMAN
        acting = player >= 0 and sees_moves
        actions = state.legal_actions() if acting else []
        self._shown_actions = actions

        # chance: the outcomes are listed (and can be forced) only in the omniscient view; from a
        # seat they would tell which cards are left, hence what the others hold
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            self.chance_box.layout.display = None
            if perspective is None:
                self.chance_html.value = words("chance_omniscient", n=len(outcomes))
                self.force_dropdown.options = [(f"{a}  ·  {p:.1%}", i) for i, (a, p) in enumerate(outcomes)]
                self.force_dropdown.value = 0
                self.force_dropdown.layout.display = None
                self.force_button.layout.display = None
            else:
                self.chance_html.value = words("chance_seat", n=len(outcomes))
                self.force_dropdown.options = []
                self.force_dropdown.layout.display = "none"
                self.force_button.layout.display = "none"
        else:
            self.chance_box.layout.display = "none"
            self.force_dropdown.options = []

        many = len(actions) > self.max_buttons
        if acting and not many:
            while len(self._button_pool) < len(actions):
                self._button_pool.append(self._make_action_button(len(self._button_pool)))
            for button, action in zip(self._button_pool, actions, strict=False):
                button.description = str(action)
                button.tooltip = words("play_action_tip", action=action)
            self.actions_box.children = tuple(self._button_pool[: len(actions)])
            self.actions_box.layout.display = None
        else:
            self.actions_box.children = ()
            self.actions_box.layout.display = "none"
        if acting and many:
            self.action_select.options = [(str(a), i) for i, a in enumerate(actions)]
            self.action_select.value = None
            self.action_list.layout.display = None
        else:
            self.action_select.options = []
            self.action_list.layout.display = "none"

        if player >= 0 and not sees_moves:
            key = "waiting_human" if human else "waiting"
            self.waiting.value = words(key, player=_escape(self._name(player)))
            self.waiting.layout.display = None
        else:
            self.waiting.value = ""
            self.waiting.layout.display = "none"
        # typing moves for a player whose cards this view hides would leak them through errors
        blocked = perspective is not None and perspective != player
        self.notation.disabled = blocked
        self.apply_button.disabled = blocked
        self.notation.placeholder = self._placeholder(state, actions)

    def _placeholder(self, state: State, actions: list[Action]) -> str:
        """An example from the viewer's own legal actions (or, omniscient, a chance outcome)."""
        if actions:
            return words("notation_example", example=actions[0])
        if self._perspective is None and state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            if outcomes:
                return words("outcome_example", example=outcomes[0][0])
        return ""

    def _make_action_button(self, index: int) -> W.Button:
        button = _css(W.Button(), "gamelib-action")
        button.on_click(lambda _: self._play_index(index))
        return button

    def _show_history(self) -> None:
        timeline = self._timeline
        notations = timeline.end.public_history(self._perspective)
        start = timeline.start_ply
        first = words("history_start") if start == 0 else words("history_start_after", n=start)
        chance = words("history_chance")
        undone = words("history_undone")
        options: list[tuple[str, int]] = [(first, start)]
        for index in range(1, len(timeline)):
            ply = start + index
            mover = timeline.at(index - 1).current_player
            who = chance if mover == CHANCE else self._name(mover)
            label = f"{ply:>3}. {who}: {notations[ply - 1]}"
            if index > timeline.cursor:
                label += "   " + undone
            options.append((label, ply))
        self.history_select.options = options
        self.history_select.value = start + timeline.cursor

    def _to_move_text(self) -> str:
        player = self._timeline.current.current_player
        if player == TERMINAL:
            return words("status_over")
        if player == CHANCE:
            return words("status_chance")
        return words("status_to_move", player=self._name(player))

    def _verdict(self, state: State) -> str:
        """The end of the game in words: the score (and its rating) of a cooperative game, else
        who won, with every player's return."""
        game = self.game
        returns = state.returns()
        if game.info.utility == "identical":
            score = f"{returns[0]:g}"
            target = RATINGS.get(game.name)
            if target is not None:
                rating = _import(target)(round(returns[0]))
                return words(
                    "status_game_over", verdict=words("verdict_score_rated", score=score, rating=rating)
                )
            return words("status_game_over", verdict=words("verdict_score", score=score))
        best = max(returns)
        winners = [p for p, r in enumerate(returns) if r == best]
        if len(winners) == len(returns):
            verdict = words("verdict_draw")
        elif len(winners) == 1:
            verdict = words("verdict_wins", player=self._name(winners[0]))
        else:
            verdict = words(
                "verdict_share", players=words("verdict_and").join(self._name(p) for p in winners)
            )
        scores = ", ".join(f"{self._name(p)} {r:+g}" for p, r in enumerate(returns))
        return words("status_game_over", verdict=verdict) + " " + words("status_returns", scores=scores)

    def _status_html(self, state: State) -> str:
        parts = [_escape(words("status_move", n=len(state.history)))]
        if state.is_terminal():
            parts.append(f"<b>{_escape(self._verdict(state))}</b>")
        else:
            parts.append(f"<b>{_escape(self._to_move_text())}</b>")
        if self._hot_seat:
            parts.append(_escape(words("status_hot_seat")))
        if not self._covered:
            view = words("omniscient") if self._perspective is None else self._name(self._perspective)
            parts.append(_escape(words("status_view", view=view)))
        if self._perspective is None and not self._hot_seat:
            # the seed and the move number give every sampled draw: only the omniscient view shows it
            parts.append(_escape(words("status_seed", seed=state.seed)))
        return "&nbsp;&nbsp;·&nbsp;&nbsp;" + " · ".join(parts)
