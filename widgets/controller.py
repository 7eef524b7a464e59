"""The Stepper's controller: the game line, undo/redo, agents per seat, the view and the hot seat.

Nothing here draws or builds a widget: :class:`StepperController` holds the position (a
:class:`~gamelib_widgets.timeline.Timeline` with a cursor), the agent seated for each player,
whose view is shown, and the hot-seat hand-over; :class:`~gamelib_widgets.stepper.Stepper` adds
the views and redraws them in :meth:`StepperController._refresh`.  Every move method returns True
on success or False with the reason in :attr:`StepperController.error`; a refused input never
changes the game (actions are applied to a clone, and only a successful clone becomes the
position).

The hot seat follows one rule: **a seat's view is shown only to that seat, after its own
hand-over**.  A hand-over happens when play goes forward to a human seat other than the one
holding the laptop (the cover asks for it; Reveal shows its view).  Going back (undo, rewind,
reset) never hands over: it stops at a position the holder may see (its own turn, chance, an
agent's turn) or is refused, and nothing is accepted behind the cover but Reveal, since whoever
is at the keyboard then is not known.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import gamelib
from gamelib import CHANCE, TERMINAL, Action, Game, State
from gamelib.agents import RandomAgent, make_agent
from gamelib.agents.registry import default_agents
from gamelib.core.play import agent_label, as_agent_fn, unique_names

from .naming import HUMAN, agent_title, player_label, seat_words, words
from .timeline import Timeline

PREFETCH_AGENT_LIMIT = 0.15
"""Seconds of CPU above which an agent's next move is not computed ahead (see :meth:`prefetch_step`)."""


Playable = Game | State | str
"""What a stepper steps through: a game (from its start), a game's name, or a state (replayed)."""
Agents = Mapping[str, Any] | Sequence[Any] | None
"""The agents offered: by name, one per seat, or None (the agent made for each seat's role)."""
Seat = int | str | None
"""A view: a player's index or name, or None (omniscient)."""


class StepperController:
    """The model of a Stepper (see the module docstring); the views call its methods."""

    def __init__(
        self, game_or_state: Playable, seed: int = 0, agents: Agents = None, perspective: Seat = None
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
        self.error = ""
        self._hot_seat = False
        self._covered = False
        self.agents, seat_defaults = self._agents_from(agents)
        self.seats: list[str] = list(seat_defaults)
        self._perspective = self._player_index(perspective)
        self._agent_cost: dict[str, float] = {}
        self._prefetched: tuple[tuple[Any, ...], State] | None = None

    # ------------------------------------------------------------------ hooks for the views
    def _refresh(self) -> None:
        """Redraw the views (the Stepper's); the controller alone only keeps :attr:`covered` right."""
        self._covered = self._must_cover(self._timeline.current)

    def _show_error(self) -> None:
        """Show :attr:`error` (the Stepper's error line)."""

    def pause(self) -> None:
        """Stop autoplay (the Stepper's Play widget)."""

    def _seat_changed(self, player: int) -> None:
        """``seats[player]`` changed from code: the Stepper's seat menu follows."""

    def _perspective_changed(self) -> None:
        """The view changed from code: the Stepper's View menu follows."""

    # ------------------------------------------------------------------ reading
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
        self._perspective_changed()
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

    def name(self, player: int) -> str:
        """``player`` as the screen names them (numbered from 1, in the language in force)."""
        return player_label(self.game, player)

    # ------------------------------------------------------------------ moves
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
            return self._refuse_covered()
        state = self._timeline.current.clone()
        try:
            state.apply(action_or_notation)
        except ValueError as exc:  # IllegalAction, with the rule broken in its text
            return self._fail(str(exc))
        self._timeline.push(state)
        self._moved()
        return True

    def undo(self) -> bool:
        """Go back one action (the undone actions stay on the redo line).

        In hot seat, back to the last position the seat shown may see: over the other human
        seats' turns to its own previous turn (see the module docstring).
        """
        if self._blocked():
            return False
        if not self._timeline.can_undo():
            return self._fail(words("err_nothing_to_undo"))
        target = self._timeline.cursor - 1
        while self._hot_seat and target >= 0 and not self._holder_may_see(self._timeline.at(target)):
            target -= 1
        if target < 0:
            return self._fail(words("err_hot_seat_undo", **seat_words(self.name(self._holder_seat()))))
        return self._rewind_to(target)

    def redo(self) -> bool:
        """Replay the next action of the redo line."""
        if self._blocked():
            return False
        if not self._timeline.redo():
            return self._fail(words("err_nothing_to_redo"))
        self._moved()
        return True

    def reset(self) -> bool:
        """Back to the start of the game; the line played stays on the redo line."""
        self.pause()
        self._sync()
        return self._rewind_to(0)

    def rewind(self, ply: int) -> bool:
        """Go to the position after ``ply`` actions of the line (back or forward along it)."""
        self.pause()
        self._sync()
        first = self._timeline.start_ply
        last = first + len(self._timeline) - 1
        if isinstance(ply, bool) or not isinstance(ply, int) or not first <= ply <= last:
            return self._fail(words("err_rewind", ply=repr(ply), first=first, last=last))
        return self._rewind_to(ply - first)

    def _rewind_to(self, index: int) -> bool:
        if self._covered:
            return self._refuse_covered()
        backward = index < self._timeline.cursor
        if self._hot_seat and backward and not self._holder_may_see(self._timeline.at(index)):
            return self._fail(words("err_hot_seat_rewind", **seat_words(self.name(self._holder_seat()))))
        self._timeline.rewind(index)
        self._moved()
        return True

    def step_agent(self) -> bool:
        """One action by the agent seated for the player to move (a sampled outcome at chance)."""
        self.pause()
        return self._step()

    def _step(self) -> bool:
        self._sync()
        current = self._timeline.current
        if current.is_terminal():
            return self._fail(words("err_game_over_step"))
        if self._covered:
            return self._refuse_covered()
        ahead, self._prefetched = self._prefetched, None
        if ahead is not None and ahead[0] == self._step_key(current):
            state = ahead[1]  # computed while the page was idle: the very move Step would make
        else:
            state = current.clone()
            if not self._agent_move(state):
                self._show_error()
                return False
        self._timeline.push(state)
        self._moved()
        return True

    def prefetch_step(self) -> State | None:
        """Compute now the position the next Step (or autoplay beat) will reach, and keep it.

        The move is the one Step would make: an agent's generator is seeded by the seed, the
        player and the move number, and chance samples from the state's own seed, so computing it
        early changes nothing but when the work is done.  The Stepper calls this when the page is
        idle after a change, so a Step click finds its position (and its picture) ready.  Nothing
        is computed for a human seat, behind the cover, at the end, or for an agent whose last
        move took more than :data:`PREFETCH_AGENT_LIMIT` seconds (the kernel would be busy when
        the next click comes).  Returns the position, or None.
        """
        current = self._timeline.current
        if self._covered or current.is_terminal():
            return None
        player = current.current_player
        if player >= 0:
            name = self.seats[player]
            if name == HUMAN or self._agent_cost.get(name, 0.0) > PREFETCH_AGENT_LIMIT:
                return None
        key = self._step_key(current)
        if self._prefetched is not None and self._prefetched[0] == key:
            return self._prefetched[1]
        state = current.clone()
        error = self.error
        moved = self._agent_move(state)
        self.error = error  # a failure is reported when Step is pressed, not before
        self._prefetched = (key, state) if moved else None
        return state if moved else None

    def _step_key(self, current: State) -> tuple[Any, ...]:
        """What a Step's result depends on: the position and the agent seated for the mover."""
        player = current.current_player
        name = self.seats[player] if player >= 0 else None
        agent = self.agents.get(name) if name is not None else None
        return (tuple(str(a) for a in current.history), current.seed, player, name, id(agent))

    def play_to_end(self) -> bool:
        """Let the seated agents (and chance, by ``state.sample_chance()``) finish the game.

        Every action lands on the line, so each can be undone one by one.  Stops with an error if
        an agent fails, a human seat is to move or the game's maximum length is exceeded; the
        moves made so far stay.
        """
        if self._blocked():
            return False
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
        self._seat_changed(index)

    def show_error(self, message: str) -> bool:
        """Show ``message`` in the error line, as for a refused input; returns False.

        For panels that refuse an input of their own (a click on an unreachable spot, say): the
        game is unchanged and the message appears where every other refusal does.
        """
        return self._fail(message)

    def refresh(self) -> None:
        """Redraw everything (after the state was changed directly, or the language switched)."""
        self._sync()
        self._refresh()

    # ------------------------------------------------------------------ autoplay
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

    # ------------------------------------------------------------------ hot seat
    def set_hot_seat(self, on: bool = True, humans: Iterable[int | str] | None = None) -> None:
        """Pass the laptop: each seat sees only its own view, with a cover between seats.

        Turning it on seats a human at ``humans`` (default: every seat).  Whenever a human seat
        other than the one shown is to move after a move, a cover ("Hand over to the detective")
        hides the board, the history, the controls and the panels until that player presses
        Reveal (:meth:`reveal`); agents and chance move under the view of the seat shown.  Going
        back never reveals another seat (see the module docstring).  While it is on, the View
        menu, the Hot seat box and the record box are hidden, so nobody at the keyboard can get
        round the cover; ``set_hot_seat(False)`` (from code) goes back to the omniscient view.
        """
        self.pause()
        if on:
            chosen = range(self.game.num_players) if humans is None else humans
            for seat in chosen:
                index = self._player_index(seat)
                if index is not None:
                    self.set_agent(index, HUMAN)
        self._perspective = None  # on: nobody shown yet, the first seat is asked for
        self._hot_seat = bool(on)
        self._perspective_changed()
        self.error = ""
        self._refresh()

    def reveal(self) -> bool:
        """Behind the hot-seat cover: show the view of the seat the cover asks for."""
        if not self._covered:
            return False
        self._perspective = self.next_seat()
        self._perspective_changed()
        self.error = ""
        self._refresh()
        return True

    def next_seat(self) -> int:
        """The seat the hot-seat cover asks for: the human to move, else the first human seat."""
        player = self._timeline.current.current_player
        if player >= 0 and self.seats[player] == HUMAN:
            return player
        humans = [p for p, name in enumerate(self.seats) if name == HUMAN]
        if humans:
            return humans[0]
        return max(player, 0)

    def _holder_seat(self) -> int:
        return self._perspective if self._perspective is not None else self.next_seat()

    def _holder_may_see(self, state: State) -> bool:
        """Whether the seat shown may see ``state`` without a hand-over (no other human to move)."""
        player = state.current_player
        return not (player >= 0 and self.seats[player] == HUMAN and player != self._perspective)

    def _must_cover(self, state: State) -> bool:
        if not self._hot_seat:
            return False
        if self._perspective is None:
            return True
        return not self._holder_may_see(state)

    def _refuse_covered(self) -> bool:
        return self._fail(words("err_covered", **seat_words(self.name(self.next_seat()))))

    def _blocked(self) -> bool:
        """What a move asked by a click does first: pause autoplay, adopt the actions applied to
        :attr:`state` directly, and refuse behind the hot-seat cover (True: refused, the reason
        in :attr:`error`)."""
        self.pause()
        self._sync()
        if self._covered:
            self._refuse_covered()
            return True
        return False

    # ------------------------------------------------------------------ records
    def save_record(self) -> str:
        """The current position's record as JSON text."""
        self._sync()
        return json.dumps(self._timeline.current.to_record(), ensure_ascii=False)

    def load_record(self, record: str | Mapping[str, Any]) -> bool:
        """Load a record (JSON text or dict) with :func:`gamelib.from_record`.

        Every step is re-validated; a bad record shows the error naming the field or step and the
        stepper keeps its game.  The loaded game can be undone step by step.
        """
        if self._blocked():
            return False
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
        self._moved()
        return True

    # ------------------------------------------------------------------ internals: moves
    def _agent_move(self, state: State) -> bool:
        """Apply one agent or chance action to ``state`` (a scratch clone); False with error set."""
        player = state.current_player
        if player == CHANCE:
            state.apply(state.sample_chance())
            return True
        name = self.seats[player]
        if name == HUMAN:
            self.error = words("err_human", **seat_words(self.name(player)))
            return False
        act = as_agent_fn(self.agents[name], name)
        # A generator per (seed, player, move): stepping again after an undo replays the same move.
        rng = random.Random(f"gamelib-stepper/{state.seed}/{player}/{len(state.history)}")
        who = words("err_agent_who", name=agent_title(name), player=self.name(player))
        started = time.process_time()
        try:
            choice = act(state.clone(), player, rng)
        except Exception as exc:  # user code: report it, keep the stepper usable
            self.error = words("err_agent_failed", who=who, error=f"{type(exc).__name__}: {exc}")
            return False
        finally:
            self._agent_cost[name] = time.process_time() - started
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

    # ------------------------------------------------------------------ internals: players and agents
    def _agents_from(self, agents: Agents) -> tuple[dict[str, Any], list[str]]:
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
                as_agent_fn(agent, name)
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
                as_agent_fn(agent, name)
                table[name] = agent
                seats.append(name)
        else:
            raise TypeError(f"agents must be a dict name -> agent or one agent per seat, got {agents!r}")
        if HUMAN in table:
            raise ValueError(f"{HUMAN!r} is the keyboard seat; give the agent another name")
        table.setdefault("random", RandomAgent())
        return table, seats

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

    def to_move_text(self) -> str:
        """Who is to move, in words (the status line and ``repr``)."""
        player = self._timeline.current.current_player
        if player == TERMINAL:
            return words("status_over")
        if player == CHANCE:
            return words("status_chance")
        return words("status_to_move", player=self.name(player))

    def __repr__(self) -> str:
        return f"<Stepper {self.game.name}: {len(self._live.history)} actions, {self.to_move_text()}>"
