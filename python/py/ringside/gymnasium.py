"""Every Ringside game as a single-agent Gymnasium environment: one seat against an agent spec
played in Rust.

>>> import ringside.gymnasium
>>> env = ringside.gymnasium.make("connect_four", opponent="mcts:iters=200")
>>> observation, info = env.reset(seed=1)
>>> legal = info["action_mask"].nonzero()[0]
>>> observation, reward, terminated, truncated, info = env.step(int(legal[0]))

- **Observations** are the game's observation tensor (``State.observation_tensor``:
  planes × rows × columns, 0 or 1, int8: each player's stones and marks, the empty cells, and
  two planes naming the player to move); the learner knows its seat from ``info["seat"]``.
- **Actions** are Ringside's dense move numbers, ``Discrete(num_distinct_actions)``; the legal
  ones are ``info["action_mask"]`` (bool) and ``env.action_masks()`` (as sb3-contrib's
  ``MaskablePPO`` reads them).
- **The opponent** is any agent spec the arena takes (``"random"``, ``"mcts:iters=200"``,
  ``"alphabeta:depth=2,eval=tuned"``); its moves are searched in Rust, seeded from the
  environment's generator, so ``reset(seed=...)`` fixes a whole episode given the learner's
  actions. It plays every turn that is not the learner's (Rin's double moves included).
- **The seat** is ``0`` (the first player), ``1``, or ``"random"`` (drawn at each reset);
  ``info["seat"]`` says which. Chance (Advance's first player) is drawn from the generator.
- **Rewards** come at the end: +1 a win, -1 a loss, 0 a draw. A game stopped by the ply cap
  is *truncated*.
- **An illegal action** (an integer that is not a legal move, out of range included) loses:
  the episode terminates at once with ``illegal_reward`` (-1) and
  ``info["illegal_action"] = True``, in the single and the vector environment alike. That is
  what PettingZoo's classic games with action masks do (``TerminateIllegalWrapper``: the mover
  loses, ``illegal_reward``) and what the arena does (an illegal move loses the game); Gymnasium
  has no general rule, but its checker steps with unmasked samples of the action space, so an
  environment with masks must take an illegal action rather than raise. (The raw layers raise:
  ``State.apply_action``, ``VecEnv.step`` without ``illegal_reward``, PettingZoo's ``raw_env``.)
- **An action that is not an integer** (``"3"``, ``1.9``, ``True``) raises ``TypeError`` and
  plays nothing: that is a bug in the caller, not a move.

``make`` goes through ``gymnasium.make("ringside/Game-v0", ...)``, so Gymnasium's checks and
wrappers apply; ``RingsideEnv`` is the class itself.

**Vectorised**: ``make_vec(spec, num_envs, opponent=..., seat=0)`` is a
``gymnasium.vector.VectorEnv`` backed by :class:`ringside.VecEnv`: every game steps in Rust,
the opponent's moves are searched there too (all games at once), and finished games restart
in the same step (``autoreset_mode`` ``SAME_STEP``: the finished game's observation is in
``info["final_obs"]``, marked by ``info["_final_obs"]``). Masks are ``info["action_mask"]``
(``num_envs`` × actions) and ``action_masks()``; an illegal action ends its game as in the
single environment (``illegal_reward``, terminated, ``info["illegal_action"]`` and
``info["_illegal_action"]`` mark it, the position it was played in is its ``final_obs``), and the
game restarts in the same step. The actions are a 1-D integer array of shape (``num_envs``,)
(or a list of ints): another shape is a ``ValueError``, floats a ``TypeError``.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from . import CHANCE_PLAYER_ID, Agent, State, VecEnv, _integer, _real, load_game
from ._play import RENDER_MODES, check_render_mode, draw_chance, render, stopped_by_cap

__all__ = ["ENV_ID", "RingsideEnv", "RingsideVectorEnv", "make", "make_vec"]

#: The id the environment is registered under.
ENV_ID = "ringside/Game-v0"


def make(spec: str = "connect_four", **kwargs: Any) -> gymnasium.Env:
    """``gymnasium.make(ENV_ID, spec=spec, **kwargs)``: game ``spec`` against
    ``opponent=`` (default ``"random"``); the other keyword arguments are
    :class:`RingsideEnv`'s."""
    return gymnasium.make(ENV_ID, spec=spec, **kwargs)


def _seat(seat: object, random: bool) -> Union[int, str]:
    """A seat argument: 0, 1 or (where ``random``) ``"random"``; ``ValueError`` for another
    value, ``TypeError`` for a seat that is neither an integer nor a string (``1.0``,
    ``True``)."""
    choices = "0, 1 or 'random'" if random else "0 or 1"
    if isinstance(seat, str):
        if seat == "random" and random:
            return seat
        raise ValueError(f"seat {seat!r}: expected {choices}")
    number = _integer(seat, "seat")
    if number not in (0, 1):
        raise ValueError(f"seat {seat!r}: expected {choices}")
    return number


class RingsideEnv(gymnasium.Env[npt.NDArray[Any], np.int64]):
    """One seat of game ``spec`` against ``opponent`` (an agent spec).

    ``seat`` is 0, 1 or ``"random"``; ``ply_cap`` truncates long games; ``illegal_reward``
    is the reward of an illegal action, which ends the episode (the learner loses, as in
    PettingZoo's classic games: see the module's notes); ``render_mode`` is ``None``,
    ``"ansi"`` or ``"human"``.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(
        self,
        spec: str = "connect_four",
        opponent: str = "random",
        seat: Union[int, str] = 0,
        ply_cap: Optional[int] = None,
        illegal_reward: float = -1.0,
        render_mode: Optional[str] = None,
    ):
        seat = _seat(seat, random=True)
        check_render_mode(render_mode)
        self.game = load_game(spec, ply_cap)
        # Fails here, with the arena's message, on a bad spec.
        self.opponent_spec = opponent
        self._opponent = Agent(opponent, seed=0)
        self.seat_choice = seat
        self.seat = seat if isinstance(seat, int) else 0
        self.illegal_reward = _real(illegal_reward, "illegal_reward")
        self.render_mode = render_mode
        actions = self.game.num_distinct_actions()
        shape = tuple(self.game.observation_tensor_shape())
        self.observation_space = spaces.Box(0, 1, shape=shape, dtype=np.int8)
        self.action_space = spaces.Discrete(actions)
        self._state: State = self.game.new_initial_state()
        self._over = False

    @property
    def state_object(self) -> State:
        """The current Ringside state (a read-only view: clone it to explore)."""
        return self._state

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as a bool array (all False when the
        episode is over)."""
        mask = np.zeros(self.game.num_distinct_actions(), dtype=bool)
        if not self._over and not self._state.is_terminal():
            mask[self._state.legal_actions()] = True
        return mask

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """A new game: the seat (if random), chance and the opponent's seed drawn from the
        generator, and the opponent's moves played up to the learner's first turn."""
        super().reset(seed=seed)
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(2))
        self._opponent = Agent(self.opponent_spec, seed=int(self.np_random.integers(2**62)))
        self._state = self.game.new_initial_state()
        self._over = False
        self._advance()
        return self._observation(), self._info()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Plays the learner's ``action``, then the opponent's moves up to the learner's next
        turn or the end.

        ``action`` must be an integer (an ``int`` or a NumPy integer): anything else, a
        ``bool`` included, raises ``TypeError`` and plays nothing. An integer that is not a
        legal move here (out of range included) loses: the episode terminates with
        ``illegal_reward`` and ``info["illegal_action"]``, as PettingZoo's classic games and
        the vector environment treat it (Gymnasium's checker steps with unmasked actions, so
        raising is not an option for a masked environment)."""
        if self._over or self._state.is_terminal():
            raise RuntimeError("step after the episode ended: call reset()")
        action = _integer(action, "action")
        if not (0 <= action < self.game.num_distinct_actions()) or action not in set(
            self._state.legal_actions()
        ):
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        self._state.apply_action(action)
        self._advance()
        reward, terminated, truncated = 0.0, False, False
        if self._state.is_terminal():
            self._over = True
            reward = float(self._state.returns()[self.seat])
            truncated = stopped_by_cap(self._state)
            terminated = not truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> Optional[str]:
        """The board as text (``"ansi"``), or printed (``"human"``)."""
        return render(self._state, self.render_mode)

    def _advance(self) -> None:
        """Chance's draws and the opponent's moves, until the learner is to move or the game
        is over."""
        while not self._state.is_terminal():
            player = self._state.current_player()
            if player == CHANCE_PLAYER_ID:
                draw_chance(self._state, self.np_random)
            elif player == self.seat:
                return
            else:
                self._state.apply_action(self._opponent.choose(self._state))

    def _observation(self) -> np.ndarray:
        return self._state.observation_tensor(self.seat).astype(np.int8)

    def _info(self) -> Dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}


def make_vec(
    spec: str = "connect_four", num_envs: int = 16, **kwargs: Any
) -> "RingsideVectorEnv":
    """``num_envs`` games of ``spec`` stepped together in Rust, one seat of each against
    ``opponent=``; the other keyword arguments are :class:`RingsideVectorEnv`'s."""
    return RingsideVectorEnv(spec, num_envs, **kwargs)


class RingsideVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``spec``, seat ``seat`` (0 or 1) of each against ``opponent``,
    stepped together in Rust (:class:`ringside.VecEnv`). ``reset(seed=...)`` starts every game
    afresh from that seed (chance and the opponents' seeds with it). An illegal action ends
    its game with ``illegal_reward``, as in :class:`RingsideEnv`."""

    metadata = {
        "autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        spec: str = "connect_four",
        num_envs: int = 16,
        opponent: str = "random",
        seat: int = 0,
        ply_cap: Optional[int] = None,
        seed: int = 0,
        illegal_reward: float = -1.0,
    ):
        chosen = _seat(seat, random=False)
        assert isinstance(chosen, int)
        self.seat = chosen
        self.illegal_reward = _real(illegal_reward, "illegal_reward")
        self.game = load_game(spec, ply_cap)
        self.opponent_spec = opponent
        self._seed = seed
        self._env = VecEnv(self.game, num_envs, seed=seed, opponent=opponent, seat=self.seat)
        self.num_envs = self._env.n
        shape = tuple(self.game.observation_tensor_shape())
        actions = self.game.num_distinct_actions()
        self.single_observation_space = spaces.Box(0, 1, shape=shape, dtype=np.int8)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, self.num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(
            self.single_action_space, self.num_envs
        )
        self._mask = np.zeros((self.num_envs, actions), dtype=bool)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game (``num_envs`` × actions, bool)."""
        return self._mask.copy()

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts every game; with ``seed`` the batch is rebuilt from it, so the same seed
        gives the same games."""
        if seed is not None:
            self._seed = seed
            self._env = VecEnv(
                self.game, self.num_envs, seed=seed, opponent=self.opponent_spec, seat=self.seat
            )
        obs, mask, _ = self._env.reset()
        self._mask = np.array(mask)
        return obs.astype(np.int8), {"action_mask": self._mask.copy()}

    def step(
        self, actions: Any
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """One action in every game, the opponents' answers, and finished games restarted.

        ``actions`` is an integer array of shape (``num_envs``,) or a list of ints
        (``ValueError`` for another shape, ``TypeError`` for floats or bools). An illegal
        action ends its game as :meth:`RingsideEnv.step` ends the episode: terminated, with
        ``illegal_reward``, flagged in ``info["illegal_action"]`` (and
        ``info["_illegal_action"]``), its last position in ``info["final_obs"]``; the game
        restarts in the same step."""
        obs, mask, reward, done, _ = self._env.step(actions, illegal_reward=self.illegal_reward)
        self._mask = np.array(mask)
        truncated = np.array(self._env.truncated)
        terminated = np.array(done) & ~truncated
        info: Dict[str, Any] = {"action_mask": self._mask.copy()}
        if done.any():
            final = np.empty(self.num_envs, dtype=object)
            finished = self._env.final_observations.astype(np.int8)
            for i in np.flatnonzero(done):
                final[i] = finished[i]
            info["final_obs"] = final
            info["_final_obs"] = np.array(done)
        if self._env.illegal.any():
            info["illegal_action"] = np.array(self._env.illegal)
            info["_illegal_action"] = np.array(self._env.illegal)
        rewards = np.array(reward[:, self.seat], dtype=np.float64)
        return obs.astype(np.int8), rewards, terminated, truncated, info


gymnasium.register(id=ENV_ID, entry_point="ringside.gymnasium:RingsideEnv")
