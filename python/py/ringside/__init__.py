"""Ringside's games, agents and arena from Python, shaped like OpenSpiel's ``pyspiel``.

>>> import ringside
>>> game = ringside.load_game("havannah:size=4")
>>> state = game.new_initial_state()
>>> state.apply_action(state.string_to_action("d4"))
>>> state.current_player()
1

Everything that plays runs in Rust with the interpreter's lock released: a search
(``Agent.choose``), a batch step (``VecEnv.step``) and a whole match (``match``). Errors in
what you pass (a game spec, an agent spec, an illegal action, a games file that does not
replay) raise ``ValueError`` with the arena's one-line message.

Whole numbers are taken strictly: an action, a player, a seed, a count or a ply cap is a Python
``int`` or a NumPy integer (what ``operator.index`` takes). Anything else raises ``TypeError``:
a float, even ``2.0``, a string, and a ``bool`` (``True`` is an ``int`` only by an accident of
Python's history, and passed as action 1 it is a bug). A whole number out of range (a player
the game does not have, a negative seed, ``ply_cap=0``) raises ``ValueError``.
"""

from __future__ import annotations

import csv
import io
import operator
import os
import re
import tempfile
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _core

__all__ = [
    "Agent",
    "Game",
    "State",
    "VecEnv",
    "games",
    "game_options",
    "load_game",
    "match",
    "Policy",
    "read_games",
    "summary",
    "DEFAULT_PLY_CAP",
]

#: The ply cap of a game loaded without one; a game that reaches it is a draw.
DEFAULT_PLY_CAP: int = _core.DEFAULT_PLY_CAP

#: OpenSpiel's player ids for chance and for a finished game.
CHANCE_PLAYER_ID = -1
TERMINAL_PLAYER_ID = -4


def _integer(value: object, what: str) -> int:
    """``value`` as an ``int``, read as ``operator.index`` reads one (an ``int``, a NumPy
    integer): ``TypeError`` for anything else, a ``bool`` included (Python's or NumPy's: ``bool``
    is a subclass of ``int`` only by an accident of history, and ``True`` is not action 1)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} must be an integer, not a bool ({value!r})")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            f"{what} must be an integer (an int or a NumPy integer), "
            f"not {type(value).__name__} {value!r}"
        ) from None


def _player(player: object, chance: bool = False) -> int:
    """A player argument: 0 or 1 (or ``CHANCE_PLAYER_ID`` where ``chance``), else
    ``ValueError``; ``TypeError`` when it is not an integer."""
    p = _integer(player, "player")
    allowed = (0, 1, CHANCE_PLAYER_ID) if chance else (0, 1)
    if p not in allowed:
        expected = "0, 1 or -1 (chance)" if chance else "0 or 1"
        raise ValueError(f"player {p}: expected {expected}")
    return p


class State:
    """A position: OpenSpiel's ``State`` (``current_player``, ``legal_actions``,
    ``apply_action``, ``returns``, ``observation_tensor``, ...).

    Actions are Ringside's dense move numbers (``Game::move_index``); a game whose rules draw
    something before the first move (Advance's first player) starts at a chance node.
    """

    __slots__ = ("_s", "_game")

    def __init__(self, inner: "_core.State", game: "Game"):
        self._s = inner
        self._game = game

    # Whose turn, and what can be played.
    def current_player(self) -> int:
        """0 or 1, ``CHANCE_PLAYER_ID`` (-1) or ``TERMINAL_PLAYER_ID`` (-4)."""
        return self._s.current_player()

    def is_chance_node(self) -> bool:
        """Whether chance draws next (Advance's first player at the start)."""
        return self._s.is_chance_node()

    def is_terminal(self) -> bool:
        """Over by the rules, or at the ply cap (a draw)."""
        return self._s.is_terminal()

    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """The legal actions, ascending (chance's outcomes at a chance node); with ``player``
        (0, 1 or ``CHANCE_PLAYER_ID``), that player's: none unless it is to move. Any other
        player is a ``ValueError``."""
        if player is not None and _player(player, chance=True) != self.current_player():
            return []
        return self._s.legal_actions()

    def legal_actions_mask(self, player: Optional[int] = None) -> npt.NDArray[np.int32]:
        """A 0/1 array over every action number; with ``player`` (0, 1 or
        ``CHANCE_PLAYER_ID``), all zeros unless it is to move. Any other player is a
        ``ValueError``."""
        mask = np.frombuffer(self._s.legal_actions_mask(), dtype=np.uint8).astype(np.int32)
        if player is not None and _player(player, chance=True) != self.current_player():
            mask[:] = 0
        return mask

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """(action, probability) pairs at a chance node, else empty."""
        return self._s.chance_outcomes()

    def apply_action(self, action: int) -> None:
        """Plays ``action``, an ``int`` or a NumPy integer: ``ValueError`` when it is not legal
        here, ``TypeError`` when it is not an integer (a float is not truncated, and a
        ``bool`` is refused although Python makes ``bool`` a subclass of ``int``: ``True`` is
        not action 1)."""
        self._s.apply_action(action)

    def returns(self) -> List[float]:
        """1 for the winner, -1 for the loser, 0 for a draw or a game going on."""
        return self._s.returns()

    def rewards(self) -> List[float]:
        """The returns once the game is over, zeros before (rewards come at the end)."""
        return self.returns() if self.is_terminal() else [0.0, 0.0]

    def player_return(self, player: int) -> float:
        """``player``'s return (0 or 1; any other player is a ``ValueError``)."""
        return float(self.returns()[_player(player)])

    # Notation.
    def action_to_string(self, *args: int) -> str:
        """``action_to_string(action)``: Ringside's notation; OpenSpiel's
        ``action_to_string(player, action)``: OpenSpiel's action string (the mover's mark in
        Tic-tac-toe and Connect Four, Ringside's notation elsewhere; chance's player,
        ``CHANCE_PLAYER_ID``, gets Ringside's). A player other than 0, 1 and chance is a
        ``ValueError``; an action or player that is not an integer a ``TypeError``."""
        if len(args) == 2:
            return self._s.action_to_string(args[1], args[0])
        if len(args) == 1:
            return self._s.action_to_string(args[0])
        raise TypeError(f"action_to_string takes (action) or (player, action), not {len(args)} arguments")

    def string_to_action(self, *args: Union[int, str]) -> int:
        """``string_to_action(text)`` or ``string_to_action(player, text)``: ``text`` must be a
        string (``TypeError``) and ``player`` 0, 1 or ``CHANCE_PLAYER_ID`` (``ValueError``)."""
        if len(args) not in (1, 2):
            raise TypeError(
                f"string_to_action takes (text) or (player, text), not {len(args)} arguments"
            )
        text = args[-1]
        if not isinstance(text, str):
            raise TypeError(f"a move's text must be a string, not {type(text).__name__} {text!r}")
        player = _player(args[0], chance=True) if len(args) == 2 else None
        return self._s.string_to_action(text, player)

    # What a learner sees.
    def observation_tensor(self, player: Optional[int] = None) -> npt.NDArray[np.float32]:
        """channels × rows × columns, float32: stones of player 0 and 1, their marks, empty
        cells, and two planes naming the player to move (the same whoever asks: ``player``, 0
        or 1, may be given as in OpenSpiel; any other is a ``ValueError``)."""
        if player is not None:
            _player(player)
        shape = self._s.observation_tensor_shape()
        raw = np.frombuffer(self._s.observation_bytes(), dtype=np.uint8)
        return raw.reshape(shape).astype(np.float32)

    def observation_string(self, player: Optional[int] = None) -> str:
        """The board as text (``str(state)``, the same for ``player`` 0 and 1; any other
        player is a ``ValueError``)."""
        if player is not None:
            _player(player)
        return str(self)

    # The rest of OpenSpiel's surface.
    def history(self) -> List[int]:
        """The actions played, chance's draw first when there is one."""
        return self._s.history()

    def move_number(self) -> int:
        """Moves played (chance's draw not counted)."""
        return self._s.move_number()

    def num_players(self) -> int:
        """Always 2."""
        return 2

    def num_distinct_actions(self) -> int:
        """The number of action numbers (the width of a mask)."""
        return self._s.num_distinct_actions()

    def get_game(self) -> "Game":
        """The game this state is of."""
        return self._game

    def spec(self) -> str:
        """The game's spec, naming what chance drew."""
        return self._s.spec()

    def clone(self) -> "State":
        """An independent copy."""
        return State(self._s.clone(), self._game)

    __copy__ = clone

    def __deepcopy__(self, memo: Dict[int, Any]) -> "State":
        return self.clone()

    def __reduce__(self) -> Tuple[Any, Tuple["Game", List[int]]]:
        return (_restore_state, (self._game, self.history()))

    def __str__(self) -> str:
        return str(self._s)

    def __repr__(self) -> str:
        return repr(self._s)


def _restore_state(game: "Game", history: Sequence[int]) -> State:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


class Game:
    """A game of the registry with its options: OpenSpiel's ``Game``."""

    __slots__ = ("_g",)

    def __init__(self, spec: str, ply_cap: Optional[int] = None):
        self._g = _core.Game(spec, ply_cap)

    def new_initial_state(self) -> State:
        """The start (at chance's node when the rules draw something first)."""
        return State(self._g.new_initial_state(), self)

    def num_distinct_actions(self) -> int:
        """The number of action numbers (the width of a mask)."""
        return self._g.num_distinct_actions()

    def observation_tensor_shape(self) -> List[int]:
        """[channels, rows, columns] of an observation."""
        return list(self._g.observation_tensor_shape())

    def observation_tensor_size(self) -> int:
        """channels × rows × columns."""
        return int(np.prod(self.observation_tensor_shape()))

    def max_game_length(self) -> int:
        """The ply cap (``ply_cap=``, else ``DEFAULT_PLY_CAP``): no game lasts longer."""
        return self._g.max_game_length()

    def max_chance_outcomes(self) -> int:
        """The most outcomes a chance node has (0 without chance)."""
        return self._g.max_chance_outcomes()

    def num_players(self) -> int:
        """Always 2."""
        return 2

    def player_names(self) -> List[str]:
        """The colours of players 0 and 1 (``['white', 'black']`` in Havannah)."""
        return list(self._g.player_names())

    def min_utility(self) -> float:
        """A loss: -1."""
        return -1.0

    def max_utility(self) -> float:
        """A win: 1."""
        return 1.0

    def utility_sum(self) -> float:
        """Zero-sum: 0."""
        return 0.0

    def spec(self) -> str:
        """The canonical spec, for example ``havannah:size=6``."""
        return self._g.spec()

    def name(self) -> str:
        """The game's name in the registry (``havannah``)."""
        return self._g.name()

    def __reduce__(self) -> Tuple[Any, Tuple[str, int]]:
        return (Game, (self.spec(), self.max_game_length()))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and self.spec() == other.spec()
            and self.max_game_length() == other.max_game_length()
        )

    def __hash__(self) -> int:
        return hash((self.spec(), self.max_game_length()))

    def __repr__(self) -> str:
        return repr(self._g)


def load_game(spec: str, ply_cap: Optional[int] = None) -> Game:
    """A game by its Ringside spec, ``name[:key=value,...]`` (``havannah:size=6``,
    ``rin:size=8``, ``advance:first=x``); ``ply_cap`` caps a game's length (a draw)."""
    return Game(spec, ply_cap)


def games() -> List[Tuple[str, str, str]]:
    """The registry: (name, options, about) of every game."""
    return _core.games()


def game_options(name: str) -> List[Dict[str, Any]]:
    """The options of game ``name`` as data, in the order specs write them: one dict an
    option with ``name``, ``type`` (``int``, ``choice`` or ``cell``), ``default`` (a string,
    or None), ``min`` and ``max`` or ``choices``, and ``help``."""
    return _core.game_options(name)


class Agent:
    """Any agent spec the arena takes (``random``, ``alphabeta:depth=3,eval=tuned``,
    ``mcts:preset=strong,iters=2000``), seeded. The search runs with the lock released, so
    several agents can search at once from several Python threads."""

    __slots__ = ("_a", "spec", "seed", "last")

    def __init__(self, spec: str, seed: int = 1):
        self._a = _core.Agent(spec, seed)
        #: The agent spec as given.
        self.spec = spec
        #: The seed its choices are drawn from.
        self.seed = seed
        #: What the last decision cost: iterations, nodes, depth, seconds, value.
        self.last: Dict[str, Any] = {}

    def choose(self, state: State) -> int:
        """The action this agent plays in ``state``."""
        action, iterations, nodes, depth, seconds, value = self._a.think(state._s)
        self.last = dict(
            iterations=iterations, nodes=nodes, depth=depth, seconds=seconds, value=value
        )
        return action

    step = choose

    def __reduce__(self) -> Tuple[Any, Tuple[str, int]]:
        return (Agent, (self.spec, self.seed))

    def __repr__(self) -> str:
        return repr(self._a)


#: ``VecEnv.reset``'s and ``current``'s arrays: observations, legal masks, players to move.
Start = Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]]

#: ``VecEnv.step``'s arrays: observations, legal masks, rewards (n × 2), dones, players.
Step = Tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.int64],
]


class VecEnv:
    """``n`` games of one game stepped together in Rust: actions in; observations, legal
    masks, rewards, done flags and players out as NumPy arrays. A game that ends is started
    again at once (``done`` and ``rewards`` report the finished one; the observation is of
    the new one, the finished one's is in ``final_observations``, and ``truncated`` says
    whether the ply cap stopped it). Chance's draws at a start come from ``seed``. With
    ``observations=False`` no observation is made (the arrays have no columns): for random
    play and learners that read only the masks.

    With ``opponent=`` (any agent spec), each game is seat ``seat`` against that agent: its
    moves are searched in Rust, in every game at once, after each step and at each start, so
    the learner is to move whenever a call returns. Each game's opponent is seeded from
    ``seed`` and the game's index.

    >>> env = VecEnv(load_game("rin:size=6"), 4, seed=1)
    >>> obs, mask, player = env.reset()
    >>> obs.shape[0], mask.shape[0]
    (4, 4)
    """

    def __init__(
        self,
        game: Union[Game, str],
        n: int,
        seed: int = 1,
        observations: bool = True,
        opponent: Optional[str] = None,
        seat: int = 0,
    ):
        self.game = game if isinstance(game, Game) else load_game(game)
        self._e = _core.VecEnv(self.game._g, n, seed, observations, opponent, seat)
        n = _integer(n, "n")
        self.n = n
        self.observations = observations
        self.opponent = opponent
        self.seat = seat
        self.observation_shape = tuple(self._e.observation_shape())
        self.num_actions = self._e.num_distinct_actions()
        #: Whether the game that ended at the last step was stopped by the ply cap (n bools).
        self.truncated: npt.NDArray[np.bool_] = np.zeros(self.n, dtype=np.bool_)
        #: Whether the game that ended at the last step ended at an illegal action (n bools;
        #: only ``step(..., illegal_reward=...)`` ends games so).
        self.illegal: npt.NDArray[np.bool_] = np.zeros(self.n, dtype=np.bool_)
        self._final = b""

    def _arrays(self, raw: "_core.Buffers") -> "Step":
        obs_b, mask_b, reward_b, done_b, player_b, truncated_b, self._final, illegal_b = raw
        obs: npt.NDArray[np.uint8]
        if self.observations:
            obs = np.frombuffer(obs_b, dtype=np.uint8).reshape((self.n,) + self.observation_shape)
        else:
            obs = np.zeros((self.n, 0), dtype=np.uint8)
        # Bytes of 0 and 1 are valid booleans: the masks and flags are views, not copies.
        mask = np.frombuffer(mask_b, dtype=np.bool_).reshape(self.n, self.num_actions)
        reward = np.frombuffer(reward_b, dtype="<f4").reshape(self.n, 2)
        done = np.frombuffer(done_b, dtype=np.bool_)
        player = np.frombuffer(player_b, dtype=np.int8).astype(np.int64)
        self.truncated = np.frombuffer(truncated_b, dtype=np.bool_)
        self.illegal = np.frombuffer(illegal_b, dtype=np.bool_)
        return obs.astype(np.float32), mask, reward, done, player

    @property
    def final_observations(self) -> npt.NDArray[np.float32]:
        """The observations of the games that ended at the last step (the rows of the
        others are stale; no columns without observations)."""
        if not self.observations:
            return np.zeros((self.n, 0), dtype=np.float32)
        shape = (self.n,) + self.observation_shape
        if not self._final:
            return np.zeros(shape, dtype=np.float32)
        return np.frombuffer(self._final, dtype=np.uint8).reshape(shape).astype(np.float32)

    def reset(self) -> "Start":
        """Starts every game: (observations, legal masks, players to move)."""
        obs, mask, _, _, player = self._arrays(self._e.reset())
        return obs, mask, player

    def step(
        self,
        actions: Union[Iterable[int], npt.NDArray[np.integer[Any]]],
        illegal_reward: Optional[float] = None,
    ) -> "Step":
        """Plays one legal action in each game (and the opponent's answer): (observations,
        legal masks, rewards (n × 2, each player's return on the step a game ends), dones,
        players to move). The masks, rewards and dones are read-only views of what Rust
        wrote; copy one to change it.

        ``actions`` is a 1-D array of shape (n,) with an integer dtype, or a list of n ints
        (or NumPy integers): another shape is a ``ValueError``, floats and bools a
        ``TypeError`` (nothing is rounded).

        An action that is not legal by its game's mask raises ``ValueError`` and nothing is
        played, as ``State.apply_action`` raises. With ``illegal_reward`` (a number), it ends
        its game instead, as PettingZoo's classic games end one (``TerminateIllegalWrapper``):
        its mover is given ``illegal_reward`` and the other player 0, the game is done (not
        truncated), ``illegal`` flags it, ``final_observations`` has the position it was
        played in, and a new game starts in its place; the other games step as usual."""
        raw = _action_array(actions, self.n)
        if illegal_reward is not None:
            illegal_reward = _real(illegal_reward, "illegal_reward")
        return self._arrays(self._e.step(raw.tobytes(), illegal_reward))

    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action in each game, drawn in Rust from the batch's
        seed (each game its own stream): random play, or a random opponent, with no Python
        loop."""
        return np.frombuffer(self._e.random_actions(), dtype="<i8")

    def random_steps(self, k: int) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        """Plays ``k`` random steps in every game without returning to Python between them
        (each a uniformly random legal action from the game's own stream, then the
        opponent's answer), restarting finished games: (games finished in each game's slot
        (n), the sums of their returns (n × 2)). Afterwards ``current()`` gives the games as
        they stand."""
        episodes, returns = self._e.random_steps(k)
        return (
            np.frombuffer(episodes, dtype="<u4").astype(np.int64),
            np.frombuffer(returns, dtype="<f4").reshape(self.n, 2),
        )

    def current(self) -> "Start":
        """The games as they stand: (observations, legal masks, players to move)."""
        obs, mask, _, _, player = self._arrays(self._e.current())
        return obs, mask, player

    def __len__(self) -> int:
        return self.n


def _action_array(actions: Any, n: int) -> npt.NDArray[np.int64]:
    """``actions`` for ``n`` games as little-endian int64: a 1-D array of shape (n,) with an
    integer dtype, or a list (any iterable) of n integers. ``ValueError`` for another shape or
    an action beyond 64 bits, ``TypeError`` for floats, bools and other non-integers."""
    if isinstance(actions, np.ndarray) and actions.dtype.kind != "O":
        if actions.shape != (n,):
            raise ValueError(f"step takes {n} actions, an array of shape ({n},), not {actions.shape}")
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions must have an integer dtype, not {actions.dtype}")
        if actions.dtype.kind == "u" and actions.dtype.itemsize == 8 and actions.max() > 2**63 - 1:
            raise ValueError(f"an action beyond 64 bits: {actions.max()}")
        return np.ascontiguousarray(actions, dtype="<i8")
    if isinstance(actions, (str, bytes)):
        raise TypeError(f"actions must be an array or a list of integers, not {type(actions).__name__}")
    try:
        items = list(actions)
    except TypeError:
        raise TypeError(
            f"actions must be an array or a list of integers, not {type(actions).__name__}"
        ) from None
    try:
        shape: Tuple[int, ...] = np.shape(np.array(items, dtype=object))
    except ValueError:  # ragged
        shape = (len(items), -1)
    if shape != (n,):
        raise ValueError(f"step takes {n} actions, a list of {n} integers, not shape {shape}")
    values = [_integer(a, "an action") for a in items]
    try:
        return np.array(values, dtype="<i8")
    except OverflowError:
        raise ValueError(f"an action beyond 64 bits: {max(values, key=abs)}") from None


def _real(value: object, what: str) -> float:
    """``value`` as a float: an ``int``, a ``float`` or a NumPy number, not a ``bool`` nor a
    string (``TypeError``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        raise TypeError(f"{what} must be a number, not {type(value).__name__} {value!r}")
    return float(value)


def _seat(choose: Callable[[State], int], game: Game) -> Callable[["_core.State"], int]:
    """``choose`` as the core calls it: with the core's state, wrapped as a :class:`State`."""

    def call(inner: "_core.State") -> int:
        # Taken as the core reads any action: an integer (a float or a bool is a TypeError,
        # which stops the run); one that is not legal loses the game.
        return choose(State(inner, game))

    return call


def _table(text: str) -> Any:
    """CSV text as a pandas DataFrame, or as a list of dicts without pandas."""
    try:
        import pandas as pd
    except ImportError:
        return [
            {k: _value(v) for k, v in row.items()} for row in csv.DictReader(io.StringIO(text))
        ]
    return pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])


def _by_id(rows: Any) -> Any:
    """A games table (a DataFrame, or a list of dicts) in game-id order."""
    if isinstance(rows, list):
        return sorted(rows, key=lambda row: row["id"])
    return rows.sort_values("id", kind="stable").reset_index(drop=True)


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def read_games(path: Union[str, "os.PathLike[str]"]) -> Any:
    """A games CSV, checked the way ``arena summary`` checks it (its settings file, every
    game replayed), as a DataFrame with the columns of games.csv (a list of dicts without
    pandas). ``ValueError`` when the file does not replay."""
    _core.summary_csv(os.fspath(path))
    with open(path, newline="") as f:
        return _table(f.read())


def summary(path: Union[str, "os.PathLike[str]"]) -> Any:
    """The summary of a games CSV, one row a pairing, with summary.csv's columns (score and
    interval, Elo, W-D-L, pentanomial, draws, lengths, distinct games, ...)."""
    return _table(_core.summary_csv(os.fspath(path)))


#: A Python player for :func:`match`: a callable given a :class:`State` (a player to move)
#: that answers the action to play, or an object with such a ``choose`` method.
Policy = Union[Callable[[State], int], Any]


def _policy_name(policy: Any, taken: List[str]) -> str:
    """The name a Python player is recorded under (``host:name=NAME``): its ``name``
    attribute, else its ``__name__``, else its class's name, made a plain word and unique
    among ``taken``."""
    name = getattr(policy, "name", None)
    if not isinstance(name, str):
        name = getattr(policy, "__name__", None) or type(policy).__name__
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", str(name)) or "policy"
    unique, k = name, 2
    while unique in taken:
        unique, k = f"{name}-{k}", k + 1
    return unique


def match(
    game: Union[Game, str],
    agents: Sequence[Union[str, Policy]],
    games: int = 100,
    seed: int = 1,
    threads: Optional[int] = None,
    out: Union[str, "os.PathLike[str]", None] = None,
    ply_cap: Optional[int] = None,
    opening_plies: int = 0,
    gauntlet: bool = False,
    table: bool = True,
) -> Any:
    """Plays the games ``arena match`` would play with the same settings (two agents: a
    match; more: a round robin, or a gauntlet of the first) and returns the games table, with
    the columns of games.csv (a pandas DataFrame, or a list of dicts without pandas), in
    game-id order.
    A ``Game`` brings its ply cap; a spec string, like ``arena match``, has none unless
    ``ply_cap=`` gives one.

    With ``out=``, the games go into that CSV (and its settings file) and a later call with
    the same settings resumes it; without, they go into a temporary file that is removed.
    ``table=False`` returns only what the run did: ``{"resumed", "played", "seconds"}``. Ctrl-C stops the run after the games in play and keeps what was
    written.

    An agent may also be a Python player (a :data:`Policy`): a callable given a
    :class:`State` with a player to move, answering a legal action, or an object with a
    ``choose(state)`` method. It plays as ``host:name=NAME`` (its ``name`` attribute, else
    its ``__name__``), which is what the games table records; the arena checks each of its
    moves, and an action that is not legal loses the game (reason ``illegal_move``). An
    exception it raises loses that game too, stops the run after the games in play and is
    raised from this call. Its calls take the interpreter's lock, so such a match plays one
    move at a time however many ``threads`` it has.
    """
    spec = game.spec() if isinstance(game, Game) else str(game)
    if isinstance(game, Game) and ply_cap is None:
        ply_cap = game.max_game_length()
    loaded = game if isinstance(game, Game) else None
    specs: List[str] = []
    policies: List[Tuple[str, Callable[["_core.State"], int]]] = []
    for agent in agents:
        if isinstance(agent, str):
            specs.append(agent)
            continue
        choose = agent.choose if hasattr(agent, "choose") else agent
        if not callable(choose):
            raise ValueError(f"agent {agent!r}: expected a spec, a callable or an object with choose")
        if loaded is None:
            loaded = Game(spec, ply_cap)
        name = _policy_name(agent, [n for n, _ in policies])
        policies.append((name, _seat(choose, loaded)))
        specs.append(f"host:name={name}")

    def run(path: str) -> Any:
        # Ctrl-C comes back as KeyboardInterrupt, raised by the core once the run stopped.
        resumed, played, seconds = _core.run_match(
            spec, specs, path, games, seed, threads, ply_cap, opening_plies, gauntlet, policies
        )
        if not table:
            return dict(resumed=resumed, played=played, seconds=seconds)
        # The run wrote and checked these rows itself: read them without replaying again.
        # The file holds them as the games ended (threads finish out of turn); the table is
        # in game-id order, the same for the same settings whatever the thread count.
        with open(path, newline="") as f:
            return _by_id(_table(f.read()))

    if out is not None:
        return run(os.fspath(out))
    with tempfile.TemporaryDirectory(prefix="ringside-") as tmp:
        return run(os.path.join(tmp, "games.csv"))
