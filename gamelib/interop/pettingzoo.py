"""Every gamelib game as a PettingZoo AEC environment with action masks.

>>> from gamelib.interop.pettingzoo import env
>>> e = env("fugitive")
>>> e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["action_mask"].sum() > 0
True

Actions are indices in ``Game.action_universe()``; ``observation["action_mask"]`` marks the legal ones.
Chance nodes are resolved inside the environment from the reset seed (so the same seed gives the
same game), and the agents only ever see player decisions.  Observations are
``State.observation_tensor(player)`` when the game defines it, otherwise a one-hot of the legal
actions only (the mask) so the API stays uniform.  Rewards are the game's returns, given at the end.

``pettingzoo`` is an optional dependency (``pip install gamelib[pettingzoo]``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import gamelib
from gamelib.core import rng as grng
from gamelib.core.game import State


class GamelibEnv(AECEnv):
    """An AEC environment over one gamelib game configuration."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "rgb_array"], "is_parallelizable": False}

    def __init__(
        self,
        name: str,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = gamelib.make(name, players=players, options=options)
        self.metadata = {**self.metadata, "name": f"gamelib_{name}_v0"}  # type: ignore[misc]  # PettingZoo names each env
        self.universe = tuple(self.game.action_universe())
        self.render_mode = render_mode
        self.possible_agents = [
            f"{self.game.player_name(p)}_{p}".replace(" ", "_") for p in range(self.game.num_players)
        ]
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        probe = self.game.new_game(seed=0)
        has_tensor = self.game.info.has("observation_tensor")
        self._tensor_size = len(probe.observation_tensor(0)) if has_tensor else 0
        n = len(self.universe)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (max(1, self._tensor_size),), np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self.state_: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._seed = grng.fresh_seed() if seed is None else seed
        self.state_ = self.game.new_game(seed=self._seed)
        self._resolve_chance()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._live_state()
        if action is None or not 0 <= int(action) < len(self.universe):
            raise ValueError(f"action must be an int in [0, {len(self.universe)}), got {action!r}")
        state.apply(self.universe[int(action)])  # IllegalAction (a ValueError) if masked out
        self._cumulative_rewards[agent] = 0.0
        self._resolve_chance()
        if state.is_terminal():
            for a, r in zip(self.agents, state.returns(), strict=True):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._live_state()
        player = self._index[agent]
        mask = np.zeros(len(self.universe), np.int8)
        if state.current_player == player:
            for a in state.legal_actions():
                mask[self.game.action_id(a)] = 1
        if self._tensor_size:
            obs = np.asarray(state.observation_tensor(player), np.float32)
        else:
            obs = np.zeros(1, np.float32)
        return {"observation": obs, "action_mask": mask}

    def render(self) -> Any:
        state = self._live_state()
        if self.render_mode == "rgb_array":
            from matplotlib.backends.backend_agg import FigureCanvasAgg

            canvas = FigureCanvasAgg(state.draw())
            canvas.draw()
            return np.asarray(canvas.buffer_rgba())[..., :3].copy()
        print(state)
        return None

    def close(self) -> None:
        self.state_ = None

    # ------------------------------------------------------------------ helpers
    def _live_state(self) -> State:
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def _resolve_chance(self) -> None:
        state = self._live_state()
        while state.current_player == gamelib.CHANCE:
            state.apply(state.sample_chance())

    def _select(self) -> None:
        state = self._live_state()
        if state.is_terminal():
            # PettingZoo wants every agent to take its final (None) step
            live = [a for a in self.agents if not self.terminations[a]]
            self.agent_selection = live[0] if live else self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.current_player]


def env(name: str, **kwargs: Any) -> GamelibEnv:
    """The AEC environment of a gamelib game (``players=``, ``options=``, ``render_mode=``)."""
    return GamelibEnv(name, **kwargs)
