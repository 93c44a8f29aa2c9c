"""Ringside's games as OpenSpiel Python games, for OpenSpiel's own algorithms.

>>> import pyspiel
>>> from ringside import openspiel
>>> openspiel.register()                     # doctest: +ELLIPSIS
[...]
>>> game = pyspiel.load_game("ringside_havannah(size=6)")
>>> state = game.new_initial_state()

Each registry game ``G`` is registered as ``ringside_G``, with its options as OpenSpiel
parameters (the ones that have a default: ``size``, ``swap``, ``side``, ``first``, ...) and
``ply_cap`` (the game's length cap, ``ringside.DEFAULT_PLY_CAP`` unless given). Actions are
Ringside's move numbers; action strings are OpenSpiel's (``Game::action_string``:
Ringside's notation but for the mover's mark in Tic-tac-toe and Connect Four). A game whose rules draw
something before the first move (Advance's first player) starts at a chance node with equally
likely outcomes, so OpenSpiel's MCTS and its other algorithms sample it as they sample chance.
The rules run in Rust; the states are OpenSpiel Python states, so an algorithm pays OpenSpiel's
Python-game overhead per call (for raw speed, use ``ringside.VecEnv`` or ``ringside.Agent``).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pyspiel

import ringside

PREFIX = "ringside_"

_registered: Dict[str, pyspiel.GameType] = {}


def parameters(name: str) -> Dict[str, object]:
    """The OpenSpiel parameters of registry game ``name``, read from its options as data:
    each option with a default (an int for whole numbers: ``size: 8``), then ``ply_cap``."""
    params: Dict[str, object] = {}
    for option in ringside.game_options(name):
        default = option["default"]
        if default is None:
            continue
        params[option["name"]] = int(default) if option["type"] == "int" else default
    params["ply_cap"] = ringside.DEFAULT_PLY_CAP
    return params


def spec_of(name: str, params: Dict[str, object]) -> str:
    """The Ringside spec of game ``name`` with OpenSpiel parameters ``params``."""
    options = ",".join(f"{k}={v}" for k, v in sorted(params.items()) if k != "ply_cap")
    return f"{name}:{options}" if options else name


def _game_type(name: str, about: str) -> pyspiel.GameType:
    stochastic = ringside.load_game(name).max_chance_outcomes() > 1
    chance = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if stochastic
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"Ringside {name}: {about}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(name),
    )


class RingsideGame(pyspiel.Game):
    """A Ringside game behind OpenSpiel's Game interface."""

    #: The registry name; each registered subclass sets it.
    NAME = ""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        name = self.NAME
        params = dict(params or {})
        # Taken as ringside takes it: an integer of at least 1 (pyspiel's parameter is an int).
        ply_cap = params.get("ply_cap", ringside.DEFAULT_PLY_CAP)
        self.ringside = ringside.load_game(spec_of(name, params), ply_cap=ply_cap)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.ringside.num_distinct_actions(),
            max_chance_outcomes=self.ringside.max_chance_outcomes()
            if self.ringside.max_chance_outcomes() > 1
            else 0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.ringside.max_game_length(),
        )
        super().__init__(_registered[name], info, params)

    def new_initial_state(self) -> "RingsideState":
        """The start, as OpenSpiel's state."""
        return RingsideState(self, self.ringside.new_initial_state())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Optional[Dict[str, Any]] = None
    ) -> "BoardObserver":
        """The observer of Ringside's observation planes."""
        return BoardObserver(self.ringside.observation_tensor_shape(), params)


class RingsideState(pyspiel.State):
    """A Ringside state behind OpenSpiel's State interface."""

    def __init__(self, game: RingsideGame, inner: "ringside.State"):
        super().__init__(game)
        self.inner = inner

    def current_player(self) -> int:
        """As ``ringside.State.current_player``."""
        return self.inner.current_player()

    def _legal_actions(self, player: int) -> List[int]:
        return self.inner.legal_actions()

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """(action, probability) pairs at a chance node."""
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(player, action)

    def is_terminal(self) -> bool:
        """Over by the rules or the ply cap."""
        return self.inner.is_terminal()

    def returns(self) -> List[float]:
        """Each player's return."""
        return self.inner.returns()

    def __str__(self) -> str:
        return str(self.inner)


class BoardObserver:
    """OpenSpiel's PyObserver over Ringside's observation planes (the same for both
    players: the games have perfect information)."""

    def __init__(self, shape: Sequence[int], params: Optional[Dict[str, Any]] = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: RingsideState, player: int) -> None:
        self.tensor[:] = state.inner.observation_tensor().ravel()

    def string_from(self, state: RingsideState, player: int) -> str:
        return str(state.inner)


def register() -> List[str]:
    """Registers every Ringside game with OpenSpiel (once; later calls do nothing) and
    returns their OpenSpiel names."""
    for name, _, about in ringside.games():
        if name in _registered:
            continue
        _registered[name] = _game_type(name, about)

        # OpenSpiel keeps what it registers until the process ends: a class, as its own
        # Python games register (a closure here makes the interpreter abort at exit).
        pyspiel.register_game(_registered[name], type(f"Ringside_{name}", (RingsideGame,), {"NAME": name}))
    return [PREFIX + name for name in _registered]
