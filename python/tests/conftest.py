"""Shared fixtures: the arena binary the Python results are checked against, and the
registry's games (never a hand-written list)."""

import os
import subprocess

import pytest

import ringside

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: Every game of the registry.
GAMES = [name for name, _, _ in ringside.games()]

#: A cap for random games: the Life duel and the moving games can run long.
CAP = 300


@pytest.fixture(scope="session")
def arena() -> str:
    """The release `arena` binary (CI builds it with the README's test command first)."""
    path = os.environ.get("RINGSIDE_ARENA", os.path.join(ROOT, "target", "release", "arena"))
    if not os.path.exists(path):
        subprocess.run(
            ["cargo", "build", "--release", "-p", "ringside-arena"], cwd=ROOT, check=True
        )
    return path
