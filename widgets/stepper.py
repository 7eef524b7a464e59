"""The generic Stepper: step through any registered game in Jupyter.

One widget for every game, built only on gamelib's public contract: the drawing from a chosen
perspective, the legal actions as buttons (or a list when there are many), a notation box, undo,
redo, reset, step and play-to-end with an agent chosen per seat, chance nodes with their
probabilities (roll, or force an outcome), the history as notation with click-to-rewind, a status
line, and save/load of a JSON record.  Games add their own views as *panels*.

Every control has a stable ``description``/``tooltip`` and a ``gamelib-*`` CSS class so a browser
test can find it; every action the buttons perform is also a method (``apply``, ``undo``...) that
returns True on success or False with the reason in :attr:`Stepper.error`.  A refused input never
changes the game: actions are applied to a clone, and only a successful clone becomes the new
position.
"""

from __future__ import annotations

import html
import io
import json
import random
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import ipywidgets as W

import gamelib
from gamelib import CHANCE, TERMINAL, Action, Game, State
from gamelib.agents import RandomAgent
from widgets.timeline import Timeline

MAX_BUTTONS = 24
"""Above this many legal actions the stepper lists them in a Select instead of buttons."""

_RENDER_CACHE_SIZE = 64


class Panel(Protocol):
    """A game-specific view shown under the stepper and refreshed after every change."""

    widget: Any

    def update(self, state: State) -> None: ...


PanelFactory = Callable[["Stepper"], Panel]


def _css(widget: Any, *classes: str) -> Any:
    for name in classes:
        widget.add_class(name)
    return widget


def _button(description: str, tooltip: str, css: str, style: str = "") -> W.Button:
    button = W.Button(description=description, tooltip=tooltip, button_style=style)
    return _css(button, css)


def _agent_label(agent: Any) -> str:
    return str(getattr(agent, "name", None) or getattr(agent, "__name__", None) or type(agent).__name__)


class Stepper:
    """Step through a game turn by turn, in a notebook or from Python.

    ``game_or_state`` is a :class:`gamelib.Game`, a game name, or a :class:`gamelib.State` (a state
    with a history is replayed from its seed so that every step can be undone).  ``agents`` maps a
    name to an agent (anything with ``act(state, player, rng)``, or such a function); a random agent
    is always offered.  Seats start with the first agent given; change them in the dropdowns or with
    :meth:`set_agent`.  ``perspective`` is None (omniscient), a player index or a player's name.
    ``panels`` are callables ``panel(stepper)`` returning objects with ``.widget`` and
    ``.update(state)``.
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
        panels: Sequence[PanelFactory] = (),
        dpi: int = 100,
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
        self._render_cache: OrderedDict[tuple[int, int | None], tuple[State, bytes | None, str]] = (
            OrderedDict()
        )
        self.agents, seat_defaults = self._agents_from(agents)
        self.seats: list[str] = list(seat_defaults)
        self._perspective = self._player_index(perspective)
        self._build_widgets()
        self.panels: list[Panel] = [factory(self) for factory in panels]
        self.panels_box.children = tuple(p.widget for p in self.panels)
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
        self._sync()
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
        self._sync()
        if not self._timeline.undo():
            return self._fail("nothing to undo: this is the start of the game")
        self._moved()
        return True

    def redo(self) -> bool:
        """Replay the next action of the redo line."""
        self._sync()
        if not self._timeline.redo():
            return self._fail("nothing to redo")
        self._moved()
        return True

    def reset(self) -> bool:
        """Back to the start of the game; the line played stays on the redo line."""
        self._sync()
        self._timeline.rewind(0)
        self._moved()
        return True

    def rewind(self, ply: int) -> bool:
        """Go to the position after ``ply`` actions of the line (back or forward along it)."""
        self._sync()
        first = self._timeline.start_ply
        last = first + len(self._timeline) - 1
        if isinstance(ply, bool) or not isinstance(ply, int) or not first <= ply <= last:
            return self._fail(f"cannot rewind to move {ply!r}: the line holds moves {first} to {last}")
        self._timeline.rewind(ply - first)
        self._moved()
        return True

    def step_agent(self) -> bool:
        """One action by the agent seated for the player to move (a sampled outcome at chance)."""
        self._sync()
        state = self._timeline.current.clone()
        if state.is_terminal():
            return self._fail("the game is over: nothing to step")
        if not self._agent_move(state):
            self._show_error()
            return False
        self._timeline.push(state)
        self._moved()
        return True

    def play_to_end(self) -> bool:
        """Let the seated agents (and chance, by ``state.sample_chance()``) finish the game.

        Every action lands on the line, so each can be undone one by one.  Stops with an error if
        an agent fails or the game's maximum length is exceeded; the moves made so far stay.
        """
        self._sync()
        state = self._timeline.current.clone()
        limit = self.game.max_game_length
        ok = True
        while not state.is_terminal():
            if len(state.history) >= limit:
                self.error = f"stopped: {limit} actions played (the game's maximum) without an end"
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
        self._sync()
        state = self._timeline.current
        if state.current_player != CHANCE:
            return self._fail("[not-chance] this is not a chance node: nothing to force")
        try:
            action = self.game.parse_action(outcome) if isinstance(outcome, str) else outcome
        except ValueError as exc:
            return self._fail(str(exc))
        possible = [a for a, _ in state.chance_outcomes()]
        if action not in possible:
            shown = ", ".join(str(a) for a in possible[:12]) + (", ..." if len(possible) > 12 else "")
            return self._fail(f"[not-an-outcome] {action} cannot happen here; possible: {shown}")
        return self.apply(action)

    def roll(self) -> bool:
        """At a chance node, draw the outcome with its probability (same seed, same draw)."""
        self._sync()
        state = self._timeline.current
        if state.current_player != CHANCE:
            return self._fail("[not-chance] this is not a chance node: nothing to roll")
        return self.apply(state.sample_chance())

    def set_agent(self, player: int | str, name: str) -> None:
        """Seat the agent called ``name`` (a key of :attr:`agents`) for ``player``."""
        index = self._player_index(player)
        if index is None:
            raise ValueError("set_agent needs a player, not the omniscient view")
        if name not in self.agents:
            raise ValueError(f"unknown agent {name!r}; choose one of {sorted(self.agents)}")
        self.seats[index] = name
        self.seat_dropdowns[index].value = name

    def show_error(self, message: str) -> bool:
        """Show ``message`` in the error line, as for a refused input; returns False.

        For panels that refuse an input of their own (a click on an unreachable spot, say): the
        game is unchanged and the message appears where every other refusal does.
        """
        return self._fail(message)

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
        self._sync()
        if record is None:
            record = self.record_text.value
        if isinstance(record, str) and not record.strip():
            return self._fail("bad record: the record box is empty; paste a record or press Save first")
        try:
            state = gamelib.from_record(dict(record) if isinstance(record, Mapping) else record)
        except ValueError as exc:
            return self._fail(str(exc))
        if state.game.name != self.game.name:
            return self._fail(
                f"bad record (field 'game'): this stepper plays {self.game.name!r}, "
                f"the record is a {state.game.name!r} game"
            )
        if state.game.num_players != self.game.num_players:
            return self._fail(
                f"bad record (field 'players'): this stepper seats {self.game.num_players} players, "
                f"the record has {state.game.num_players}"
            )
        self._timeline = Timeline.replayed(state)
        self._render_cache.clear()
        self._moved()
        return True

    # ================================================================ display
    def refresh(self) -> None:
        """Redraw everything (after the state was changed directly, say)."""
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
        agent = self.agents[name]
        act = agent.act if hasattr(agent, "act") else agent
        # A generator per (seed, player, move): stepping again after an undo replays the same move.
        rng = random.Random(f"gamelib-stepper/{state.seed}/{player}/{len(state.history)}")
        who = f"agent {name!r} ({self.game.player_name(player)})"
        try:
            choice = act(state.clone(), player, rng)
        except Exception as exc:  # user code: report it, keep the stepper usable
            self.error = f"{who} failed: {type(exc).__name__}: {exc}"
            return False
        try:
            state.apply(choice)
        except ValueError as exc:
            self.error = f"{who} chose an illegal action: {exc}"
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
        self.error = "the state was changed outside the stepper in a way it cannot follow; restored"
        self._refresh()

    # ================================================================ internals: players and agents
    def _agents_from(
        self, agents: Mapping[str, Any] | Sequence[Any] | None
    ) -> tuple[dict[str, Any], list[str]]:
        players = self.game.num_players
        table: dict[str, Any] = {}
        seats: list[str] = []
        if agents is None:
            agents = {}
        if isinstance(agents, Mapping):
            for name, agent in agents.items():
                self._check_agent(name, agent)
                table[str(name)] = agent
            first = next(iter(table), "random")
            seats = [first] * players
        elif isinstance(agents, Sequence) and not isinstance(agents, str):
            if len(agents) != players:
                raise ValueError(f"{self.game.name} seats {players} players; got {len(agents)} agents")
            for agent in agents:
                name = _agent_label(agent)
                self._check_agent(name, agent)
                if name in table and table[name] is not agent:
                    name = f"{name} #{sum(n.startswith(name) for n in table) + 1}"
                table[name] = agent
                seats.append(name)
        else:
            raise TypeError(f"agents must be a dict name -> agent or one agent per seat, got {agents!r}")
        table.setdefault("random", RandomAgent())
        return table, seats

    @staticmethod
    def _check_agent(name: object, agent: Any) -> None:
        if not (hasattr(agent, "act") or callable(agent)):
            raise TypeError(f"agent {name!r} needs an act(state, player, rng) method, got {agent!r}")

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

    @staticmethod
    def _perspective_value(perspective: int | None) -> int:
        return 0 if perspective is None else perspective + 1

    # ================================================================ internals: widgets
    def _build_widgets(self) -> None:
        game = self.game
        info = game.info
        names = [game.player_name(p) for p in range(game.num_players)]

        self.title = W.HTML(f"<b style='font-size:1.3em'>{html.escape(info.title)}</b>")
        self.status = _css(W.HTML(), "gamelib-status")
        self.error_html = _css(W.HTML(), "gamelib-error")

        self.board_image = W.Image(format="png", layout=W.Layout(max_width="100%", height="auto"))
        self.board_text = W.HTML()
        self.board = _css(W.Box(layout=W.Layout(flex="1 1 560px", min_width="320px")), "gamelib-board")

        self.perspective_dropdown = _css(
            W.Dropdown(
                options=[("omniscient", 0)] + [(n, i + 1) for i, n in enumerate(names)],
                value=self._perspective_value(self._perspective),
                description="View",
                tooltip="whose view to show: omniscient, or one player's (hidden cards stay hidden)",
            ),
            "gamelib-perspective",
        )
        self.perspective_dropdown.observe(self._on_perspective, "value")

        # legal actions: a pool of buttons reused from move to move, or a list when there are many
        self._button_pool: list[W.Button] = []
        self._shown_actions: list[Action] = []
        self.actions_box = _css(W.Box(layout=W.Layout(flex_flow="row wrap")), "gamelib-actions")
        self.action_select = _css(
            W.Select(description="Actions", rows=10, tooltip="legal actions; pick one, then Play selected"),
            "gamelib-action-list",
        )
        self.play_selected_button = _button(
            "Play selected", "play the action selected in the list", "gamelib-play-selected", "primary"
        )
        self.play_selected_button.on_click(lambda _: self._play_selected())
        self.action_list = W.VBox([self.action_select, self.play_selected_button])
        self.waiting = _css(W.HTML(), "gamelib-waiting")

        self.notation = _css(
            W.Text(
                description="Notation",
                placeholder="an action, e.g. " + self._example_notation(),
                layout=W.Layout(width="260px"),
            ),
            "gamelib-notation",
        )
        self.apply_button = _button(
            "Apply", "apply the notation typed in the box", "gamelib-apply", "primary"
        )
        self.apply_button.on_click(lambda _: self._apply_typed())

        self.undo_button = _button("Undo", "take back the last action", "gamelib-undo")
        self.redo_button = _button("Redo", "replay the next undone action", "gamelib-redo")
        self.reset_button = _button("Reset", "back to the start (redo replays the line)", "gamelib-reset")
        self.step_button = _button("Step", "one action by the seated agent (or chance)", "gamelib-step")
        self.play_button = _button(
            "Play to end", "the seated agents and chance finish the game", "gamelib-play-to-end", "success"
        )
        self.undo_button.on_click(lambda _: self.undo())
        self.redo_button.on_click(lambda _: self.redo())
        self.reset_button.on_click(lambda _: self.reset())
        self.step_button.on_click(lambda _: self.step_agent())
        self.play_button.on_click(lambda _: self.play_to_end())

        self.chance_html = W.HTML()
        self.force_dropdown = _css(
            W.Dropdown(description="Outcome", tooltip="the chance outcome to force"), "gamelib-force-choice"
        )
        self.force_button = _button("Force", "make the chosen outcome happen", "gamelib-force", "warning")
        self.roll_button = _button("Roll", "draw the outcome with its probability", "gamelib-roll", "info")
        self.force_button.on_click(lambda _: self._force_selected())
        self.roll_button.on_click(lambda _: self.roll())
        self.chance_box = _css(
            W.VBox([self.chance_html, W.HBox([self.roll_button, self.force_dropdown, self.force_button])]),
            "gamelib-chance",
        )

        self.seat_dropdowns: list[W.Dropdown] = []
        for player, name in enumerate(names):
            dropdown = _css(
                W.Dropdown(
                    options=list(self.agents),
                    value=self.seats[player],
                    description=name,
                    tooltip=f"the agent that plays the {name} on Step and Play to end",
                ),
                "gamelib-seat",
            )
            dropdown.observe(self._on_seat(player), "value")
            self.seat_dropdowns.append(dropdown)

        self.history_select = _css(
            W.Select(description="History", rows=12, tooltip="click a move to rewind to it"),
            "gamelib-history",
        )
        self.history_select.observe(self._on_history, "value")

        self.record_text = _css(
            W.Textarea(
                description="Record",
                placeholder="Save writes the game's JSON record here; paste one and press Load",
                layout=W.Layout(width="100%", height="6em"),
            ),
            "gamelib-record",
        )
        self.save_button = _button("Save record", "write this game's JSON record in the box", "gamelib-save")
        self.load_button = _button(
            "Load record", "replay the record in the box (checked step by step)", "gamelib-load"
        )
        self.save_button.on_click(lambda _: self.save_record())
        self.load_button.on_click(lambda _: self.load_record())

        self.panels_box = _css(W.VBox(), "gamelib-panels")

        controls = W.VBox(
            [
                self.perspective_dropdown,
                self.chance_box,
                self.actions_box,
                self.action_list,
                self.waiting,
                W.HBox([self.notation, self.apply_button]),
                W.HBox([self.undo_button, self.redo_button, self.reset_button]),
                W.HBox([self.step_button, self.play_button]),
                W.VBox(self.seat_dropdowns),
                self.history_select,
            ],
            layout=W.Layout(flex="0 1 420px"),
        )
        self.widget = _css(
            W.VBox(
                [
                    W.HBox([self.title, self.status]),
                    self.error_html,
                    W.HBox([self.board, controls], layout=W.Layout(flex_flow="row wrap")),
                    self.panels_box,
                    W.VBox([self.record_text, W.HBox([self.save_button, self.load_button])]),
                ]
            ),
            "gamelib-stepper",
        )

    def _example_notation(self) -> str:
        state = self._timeline.current
        actions = state.legal_actions()
        return str(actions[0]) if actions else "..."

    # ---------------------------------------------------------------- widget callbacks
    def _apply_typed(self) -> None:
        text = self.notation.value.strip()
        if not text:
            self._fail("[notation] type an action in the notation box first")
            return
        if self.apply(text):
            self.notation.value = ""

    def _play_index(self, index: int) -> None:
        if index < len(self._shown_actions):
            self.apply(self._shown_actions[index])

    def _play_selected(self) -> None:
        index = self.action_select.value
        if index is None:
            self._fail("pick an action in the list first")
            return
        self._play_index(index)

    def _force_selected(self) -> None:
        state = self._timeline.current
        outcomes = state.chance_outcomes()
        index = self.force_dropdown.value
        if index is None or index >= len(outcomes):
            self._fail("[not-chance] no chance outcome to force here")
            return
        self.force_chance(outcomes[index][0])

    def _on_perspective(self, change: dict[str, Any]) -> None:
        if self._refreshing:
            return
        value = change["new"]
        self._perspective = None if value == 0 else value - 1
        self._refresh()

    def _on_seat(self, player: int) -> Callable[[dict[str, Any]], None]:
        def observer(change: dict[str, Any]) -> None:
            self.seats[player] = change["new"]

        return observer

    def _on_history(self, change: dict[str, Any]) -> None:
        if self._refreshing or change["new"] is None:
            return
        if change["new"] != len(self._live.history):
            self.rewind(change["new"])

    # ---------------------------------------------------------------- refreshing the view
    def _refresh(self) -> None:
        self._refreshing = True
        try:
            state = self._timeline.current
            self._show_board(state)
            self._show_controls(state)
            self._show_history()
            self.status.value = self._status_html(state)
            self.undo_button.disabled = not self._timeline.can_undo()
            self.redo_button.disabled = not self._timeline.can_redo()
            self.reset_button.disabled = not self._timeline.can_undo()
            over = state.is_terminal()
            self.step_button.disabled = over
            self.play_button.disabled = over
        finally:
            self._refreshing = False
        for panel in self.panels:
            try:
                panel.update(self._live)
            except Exception as exc:  # a broken panel must not take the stepper down with it
                self.error = f"panel {type(panel).__name__} failed: {type(exc).__name__}: {exc}"
        self._show_error()

    def _show_error(self) -> None:
        if self.error:
            self.error_html.value = (
                "<span style='color:#b00020;font-weight:bold;font-size:1.1em'>✗ "
                f"{html.escape(self.error)}</span>"
            )
        else:
            self.error_html.value = ""

    def _show_board(self, state: State) -> None:
        png, text = self._render(state, self._perspective)
        if png is not None:
            self.board_image.value = png
            self.board.children = (self.board_image,)
        else:
            self.board_text.value = f"<pre style='font-size:1.1em'>{html.escape(text)}</pre>"
            self.board.children = (self.board_text,)

    def _render(self, state: State, perspective: int | None) -> tuple[bytes | None, str]:
        """PNG of ``state`` from ``perspective``, cached per snapshot (undo/redo redraw nothing).

        Games without a drawing (or whose drawing module is missing or fails) are shown as text,
        with the reason: the state's ``str`` when omniscient, the player's observation otherwise.
        """
        key = (id(state), perspective)
        hit = self._render_cache.get(key)
        if hit is not None and hit[0] is state:
            self._render_cache.move_to_end(key)
            return hit[1], hit[2]
        png: bytes | None = None
        text = ""
        try:
            figure = state.draw(perspective=perspective)
        except (NotImplementedError, ImportError) as exc:
            text = self._text_view(state, perspective) + f"\n\n(no drawing: {exc})"
        except Exception as exc:  # a drawing bug must not take the stepper (and the lesson) down
            text = self._text_view(state, perspective) + f"\n\n(drawing failed: {type(exc).__name__}: {exc})"
        else:
            buffer = io.BytesIO()
            figure.savefig(
                buffer, format="png", dpi=self.dpi, bbox_inches="tight" if self.tight_bbox else None
            )
            png = buffer.getvalue()
        self._render_cache[key] = (state, png, text)
        while len(self._render_cache) > _RENDER_CACHE_SIZE:
            self._render_cache.popitem(last=False)
        return png, text

    @staticmethod
    def _text_view(state: State, perspective: int | None) -> str:
        if perspective is None:
            return str(state)
        return f"{state.game.player_name(perspective)} sees:\n{state.observation(perspective)!r}"

    def _show_controls(self, state: State) -> None:
        player = state.current_player
        perspective = self._perspective
        sees_moves = perspective is None or perspective == player
        acting = player >= 0 and sees_moves
        actions = state.legal_actions() if acting else []
        self._shown_actions = actions

        # chance: outcomes and probabilities are public only in the omniscient view
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            self.chance_box.layout.display = None
            if perspective is None:
                self.chance_html.value = f"<b>Chance</b>: {len(outcomes)} possible outcome(s)"
                self.force_dropdown.options = [(f"{a}  ·  {p:.1%}", i) for i, (a, p) in enumerate(outcomes)]
                self.force_dropdown.value = 0
                self.force_dropdown.layout.display = None
                self.force_button.layout.display = None
            else:
                self.chance_html.value = "<b>Chance</b> to move: press Roll"
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
                button.tooltip = f"play {action}"
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
            who = html.escape(self.game.player_name(player))
            self.waiting.value = f"waiting for the <b>{who}</b>: press Step to let the seated agent move"
            self.waiting.layout.display = None
        else:
            self.waiting.value = ""
            self.waiting.layout.display = "none"
        # typing moves for a player whose cards this view hides would leak them through errors
        blocked = perspective is not None and perspective != player
        self.notation.disabled = blocked
        self.apply_button.disabled = blocked

    def _make_action_button(self, index: int) -> W.Button:
        button = _css(W.Button(), "gamelib-action")
        button.on_click(lambda _: self._play_index(index))
        return button

    def _show_history(self) -> None:
        timeline = self._timeline
        end = timeline.end
        notations = self._public_history(end)
        start = timeline.start_ply
        options: list[tuple[str, int]] = [("start" if start == 0 else f"start (after move {start})", start)]
        for index in range(1, len(timeline)):
            ply = start + index
            mover = timeline.at(index - 1).current_player
            who = "chance" if mover == CHANCE else self.game.player_name(mover)
            label = f"{ply:>3}. {who}: {notations[ply - 1]}"
            if index > timeline.cursor:
                label += "   (undone)"
            options.append((label, ply))
        self.history_select.options = options
        self.history_select.value = start + timeline.cursor

    def _public_history(self, state: State) -> list[str]:
        """The history in notation as the viewer may see it.

        From a player's view, an observation that carries its own ``history`` of notations (with
        secrets masked, e.g. Fugitive's ``hide ?``) is used; otherwise the plain notation.
        """
        plain = [str(a) for a in state.history]
        if self._perspective is None:
            return plain
        public = getattr(state.observation(self._perspective), "history", None)
        if (
            isinstance(public, (list, tuple))
            and len(public) == len(plain)
            and all(isinstance(x, str) for x in public)
        ):
            return list(public)
        return plain

    def _to_move_text(self) -> str:
        state = self._timeline.current
        player = state.current_player
        if player == TERMINAL:
            return "game over"
        if player == CHANCE:
            return "chance to move"
        return f"to move: {self.game.player_name(player)}"

    def _status_html(self, state: State) -> str:
        game = self.game
        parts = [f"move {len(state.history)}"]
        if state.is_terminal():
            returns = state.returns()
            best = max(returns)
            winners = [p for p, r in enumerate(returns) if r == best]
            if len(winners) == len(returns):
                verdict = "draw"
            elif len(winners) == 1:
                verdict = f"{game.player_name(winners[0])} wins"
            else:
                verdict = " and ".join(game.player_name(p) for p in winners) + " share the win"
            scores = ", ".join(f"{game.player_name(p)} {r:+g}" for p, r in enumerate(returns))
            parts.append(f"<b>game over: {html.escape(verdict)}</b> (returns: {html.escape(scores)})")
        else:
            parts.append(f"<b>{html.escape(self._to_move_text())}</b>")
        view = "omniscient" if self._perspective is None else game.player_name(self._perspective)
        parts.append(f"view: {html.escape(view)}")
        parts.append(f"seed {state.seed}")
        return "&nbsp;&nbsp;·&nbsp;&nbsp;" + " · ".join(parts)
