"""Every Ringside game as a PettingZoo AEC environment, shaped like PettingZoo's classic games.

>>> from ringside.pettingzoo import env
>>> e = env("connect_four")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     observation, reward, termination, truncation, info = e.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = e.action_space(agent).sample(observation["action_mask"])
...     e.step(action)
>>> e.close()

- **Agents** are ``player_0`` (Ringside's first player, who moves first unless the rules draw
  it) and ``player_1``.
- **Observations** are a dict, as in PettingZoo's classic games: ``observation`` is the game's
  observation tensor (``State.observation_tensor``: planes × rows × columns, 0 or 1, int8:
  each player's stones and marks, the empty cells, and two planes naming the player to move;
  the same for both agents, as OpenSpiel's), and ``action_mask`` (int8, one entry an action)
  marks the legal actions of the agent to move (all zero for the others).
- **Turns follow the rules**: ``agent_selection`` is whoever moves next, so Rin's double moves
  (B, W, W, B, B, …) give the same agent two steps in a row. Nothing in PettingZoo's API
  assumes alternation.
- **Chance** (Advance's drawn first player) is drawn by the environment from its generator,
  seeded by ``reset(seed=...)``, before the first agent is selected.
- **Rewards** come at the end: +1 to the winner, -1 to the loser, 0 each for a draw. A game
  stopped by the ply cap (``ply_cap=``, a draw in Ringside) is a *truncation*; a game over by
  its rules is a *termination*. (A draw by the rules on the cap's very ply reads as a
  truncation.)
- ``env()`` wraps ``raw_env()`` as the classic games are: an illegal action ends the game with
  -1 for the agent that played it (``TerminateIllegalWrapper``), actions out of range raise,
  and the AEC order is enforced. ``raw_env`` raises ``ValueError`` on an illegal action.
- ``render_mode="ansi"`` returns the board as text, ``"human"`` prints it.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import State, load_game
from ._play import RENDER_MODES, check_render_mode, draw_chance, render, stopped_by_cap

__all__ = ["env", "raw_env"]


def env(spec: str = "havannah:size=6", **kwargs: Any) -> AECEnv:
    """The AEC environment of game ``spec`` (a Ringside spec such as ``"hex:size=5"``), with
    PettingZoo's wrappers for classic games; keyword arguments go to :class:`raw_env`."""
    inner: AECEnv = raw_env(spec, **kwargs)
    inner = wrappers.TerminateIllegalWrapper(inner, illegal_reward=-1)
    inner = wrappers.AssertOutOfBoundsWrapper(inner)
    return wrappers.OrderEnforcingWrapper(inner)


class raw_env(AECEnv):
    """A Ringside game as an AEC environment, without wrappers.

    ``spec`` is the game (``"havannah:size=6"``, ``"rin:size=8"``, ``"advance"``);
    ``ply_cap`` stops a game after that many plies (a truncation); ``render_mode`` is
    ``None``, ``"ansi"`` or ``"human"``.
    """

    metadata: Dict[str, Any] = {
        "render_modes": RENDER_MODES,
        "name": "ringside_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        spec: str = "havannah:size=6",
        ply_cap: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        super().__init__()
        check_render_mode(render_mode)
        self.game = load_game(spec, ply_cap)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"ringside_{self.game.name()}_v0"}
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        actions = self.game.num_distinct_actions()
        shape = tuple(self.game.observation_tensor_shape())
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, shape=shape, dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._state: State = self.game.new_initial_state()
        self.agent_selection: str = self.possible_agents[0]
        self.rewards: Dict[str, float] = {}
        self._cumulative_rewards: Dict[str, float] = {}
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.infos: Dict[str, Dict[str, Any]] = {}
        self._reset_bookkeeping()

    # The spaces.
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation dict's space (the same for both agents)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_distinct_actions)``: Ringside's dense move numbers."""
        return self.action_spaces[agent]

    # The game.
    @property
    def state_object(self) -> State:
        """The current Ringside state (a read-only view: clone it to explore)."""
        return self._state

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """``agent``'s observation: the game's tensor and the agent's action mask."""
        player = self.possible_agents.index(agent)
        observation = self._state.observation_tensor(player).astype(np.int8)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if not self._state.is_terminal() and self._state.current_player() == player:
            mask[self._state.legal_actions()] = 1
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """A new game; ``seed`` seeds the draws of chance (and of nothing else: the agents'
        actions are the caller's)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._state = self.game.new_initial_state()
        draw_chance(self._state, self._rng)
        self._reset_bookkeeping()

    def step(self, action: Optional[int]) -> None:
        """Plays ``action`` for ``agent_selection`` (``None`` once that agent is done): an
        integer (``TypeError`` otherwise, a ``bool`` included); an illegal one raises
        ``ValueError`` here and loses the game under ``env()``'s wrappers."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents that are done")
        # Strict, as State.apply_action: a float or a bool is a TypeError, not truncated.
        self._state.apply_action(action)
        draw_chance(self._state, self._rng)
        if self._state.is_terminal():
            returns = self._state.returns()
            capped = stopped_by_cap(self._state)
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = returns[i]
                self.terminations[a] = not capped
                self.truncations[a] = capped
            # Done agents step once more each (with None) before they leave, the mover last.
            self.agent_selection = self.possible_agents[1 - self.possible_agents.index(agent)]
        else:
            self.agent_selection = self.possible_agents[self._state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        """The board as text (``"ansi"``), or printed (``"human"``)."""
        return render(self._state, self.render_mode)

    def close(self) -> None:
        """Nothing to release: the game lives in Rust memory freed with the object."""

    def _reset_bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        player = self._state.current_player()
        self.agent_selection = self.possible_agents[max(player, 0)]
