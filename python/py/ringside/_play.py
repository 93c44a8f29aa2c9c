"""What the PettingZoo and Gymnasium environments share: chance's draws, how a game ended,
and text rendering."""

from __future__ import annotations

from typing import Optional

import numpy as np

from . import CHANCE_PLAYER_ID, State

#: The render modes of both environments.
RENDER_MODES = ["human", "ansi"]


def draw_chance(state: State, rng: np.random.Generator) -> None:
    """Draws every chance node at ``state`` (Advance's first player) from ``rng``, with the
    outcomes' probabilities."""
    while state.current_player() == CHANCE_PLAYER_ID:
        outcomes = state.chance_outcomes()
        weights = np.array([p for _, p in outcomes], dtype=float)
        pick = int(rng.choice(len(outcomes), p=weights / weights.sum()))
        state.apply_action(outcomes[pick][0])


def stopped_by_cap(state: State) -> bool:
    """Whether a finished ``state`` was stopped by its ply cap (a truncation) rather than
    ended by the rules: it reached the cap with no winner (a draw by the rules on the cap's very
    ply reads as one too)."""
    return state.move_number() >= state.get_game().max_game_length() and not any(
        state.returns()
    )


def check_render_mode(render_mode: Optional[str]) -> None:
    """``ValueError`` unless ``render_mode`` is ``None`` or one of :data:`RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r}: expected one of {RENDER_MODES}")


def render(state: State, render_mode: Optional[str]) -> Optional[str]:
    """The board as text (``"ansi"``), printed (``"human"``), or nothing (``None``)."""
    if render_mode is None:
        return None
    text = str(state)
    if render_mode == "human":
        print(text)
        return None
    return text
