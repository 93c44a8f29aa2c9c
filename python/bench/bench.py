"""The measurements of issue 25, run from a built `ringside` package:

    python python/bench/bench.py [--quick]

1. Random play on Havannah size 8 against OpenSpiel's C++ `havannah` driven by a Python loop
   over pyspiel states, two ways:
   - a learner's loop: each step yields the observation tensor and the legal mask as NumPy
     arrays (VecEnv; pyspiel's observation_tensor() and legal_actions_mask() into NumPy),
     actions drawn by NumPy over the masks;
   - bare random play: VecEnv(observations=False) with random_actions(), and with
     random_steps(k) (k steps in Rust a call), against a loop of legal_actions() and
     apply_action() alone.
2. Agent.choose against `arena think` for the same spec, seed and position (the decision's
   own time, which `arena think` reports, so process start is not counted).
4. Beside pgx (JAX, on the CPU; when pgx is installed): random play with observations and
   legal masks in the games both have (Connect Four, Hex 11 with the swap, Othello,
   Tic-tac-toe) at batch sizes 1 to 1,024, steps a second: pgx's jitted, vmapped `step` with
   auto-reset and a jitted random legal action a call, against `VecEnv.step` with
   `random_actions()` (observations and masks into NumPy). Compilation is done before the
   clock starts. `--pgx` runs this part alone.
3. A 10,000-game random Rin match from Python (ringside.match with out=, with table=False
   and with the DataFrame read back) against the same `arena match`.

Every figure is the median of repeated runs.
"""

import argparse
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # NumPy's idle BLAS threads spin
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import ringside

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARENA = os.path.join(ROOT, "target", "release", "arena")


def vecenv_learner(n: int, steps: int, seed: int = 1) -> float:
    env = ringside.VecEnv(ringside.load_game("havannah:size=8"), n, seed=seed)
    rng = np.random.default_rng(seed)
    _, mask, _ = env.reset()
    start = time.perf_counter()
    for _ in range(steps):
        # A uniformly random legal action in each game: the largest random key among the
        # legal actions.
        keys = rng.random(mask.shape, dtype=np.float32) * mask
        _, mask, _, _, _ = env.step(keys.argmax(axis=1))
    return n * steps / (time.perf_counter() - start)


def vecenv_random(n: int, steps: int, seed: int = 1) -> float:
    env = ringside.VecEnv(ringside.load_game("havannah:size=8"), n, seed=seed, observations=False)
    env.reset()
    start = time.perf_counter()
    for _ in range(steps):
        env.step(env.random_actions())
    return n * steps / (time.perf_counter() - start)


def vecenv_random_steps(n: int, steps: int, seed: int = 1, k: int = 50) -> float:
    env = ringside.VecEnv(ringside.load_game("havannah:size=8"), n, seed=seed, observations=False)
    env.reset()
    start = time.perf_counter()
    for _ in range(max(1, steps // k)):
        env.random_steps(k)
    return n * max(1, steps // k) * k / (time.perf_counter() - start)


#: The games Ringside and pgx both have: Ringside's spec and pgx's id.
PGX_GAMES = [
    ("connect_four", "connect_four"),
    ("hex:size=11,swap=on", "hex"),
    ("othello", "othello"),
    ("tic_tac_toe", "tic_tac_toe"),
]


def vecenv_pgx_like(spec: str, n: int, steps: int, seed: int = 1) -> float:
    """Random play with observations and masks, the actions drawn in Rust."""
    env = ringside.VecEnv(ringside.load_game(spec), n, seed=seed)
    env.reset()
    start = time.perf_counter()
    for _ in range(steps):
        env.step(env.random_actions())
    return n * steps / (time.perf_counter() - start)


_PGX: dict = {}


def pgx_steps(env_id: str, n: int, steps: int, seed: int = 1) -> float:
    """pgx's random play: jitted vmapped step with auto-reset, a jitted random legal action,
    the observation computed by the step (pgx's `state.observation`)."""
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    if env_id not in _PGX:
        env = pgx.make(env_id)

        @jax.jit
        def act(key, mask):
            logits = jnp.where(mask, 0.0, -jnp.inf)
            return jax.random.categorical(key, logits, axis=-1)

        # Jitted once a game, so that repeats reuse the compilation.
        _PGX[env_id] = (
            jax.jit(jax.vmap(env.init)),
            jax.jit(jax.vmap(auto_reset(env.step, env.init))),
            act,
        )
    init, step, act = _PGX[env_id]

    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, n))
    # Compile (and run once) before the clock starts.
    key, k1, k2 = jax.random.split(key, 3)
    state = step(state, act(k1, state.legal_action_mask), jax.random.split(k2, n))
    state.observation.block_until_ready()
    start = time.perf_counter()
    for _ in range(steps):
        key, k1, k2 = jax.random.split(key, 3)
        state = step(state, act(k1, state.legal_action_mask), jax.random.split(k2, n))
    state.observation.block_until_ready()
    return n * steps / (time.perf_counter() - start)


def pgx_table(repeats: int, quick: bool) -> None:
    """The table of the guide (book/src/python/examples.md): steps a second, Ringside and pgx, by game and batch size."""
    print("| game | batch | Ringside VecEnv steps/s | pgx steps/s | Ringside / pgx |")
    print("|---|---|---|---|---|")
    for spec, env_id in PGX_GAMES:
        for n in (1, 16, 256) if quick else (1, 16, 256, 1024):
            steps = max(20, (200 if quick else 2000) // max(1, n // 16))
            ours = statistics.median(
                [vecenv_pgx_like(spec, n, steps, seed=s) for s in range(1, repeats + 1)]
            )
            theirs = statistics.median(
                [pgx_steps(env_id, n, steps, seed=s) for s in range(1, repeats + 1)]
            )
            print(f"| {spec} | {n} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.1f}x |")


def openspiel_steps(steps: int, seed: int = 1, learner: bool = False) -> float:
    import pyspiel

    game = pyspiel.load_game("havannah", {"board_size": 8})
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    start = time.perf_counter()
    for _ in range(steps):
        if state.is_terminal():
            state = game.new_initial_state()
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        if learner and not state.is_terminal():
            np.asarray(state.observation_tensor(), dtype=np.float32)
            np.asarray(state.legal_actions_mask(), dtype=bool)
    return steps / (time.perf_counter() - start)


def choose_seconds(spec: str, moves: str, repeats: int) -> list:
    game = ringside.load_game("havannah:size=8")
    out = []
    for _ in range(repeats):
        state = game.new_initial_state()
        for m in moves.split():
            state.apply_action(state.string_to_action(m))
        agent = ringside.Agent(spec, seed=1)
        start = time.perf_counter()
        agent.choose(state)
        out.append(time.perf_counter() - start)
    return out


def think_seconds(spec: str, moves: str, repeats: int) -> list:
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(
            [ARENA, "think", "--game", "havannah:size=8", "--agent", spec, "--moves", moves,
             "--seed", "1"],
            check=True, capture_output=True,
        )
        out.append(time.perf_counter() - start)
    return out


def think_reported(spec: str, moves: str, repeats: int) -> list:
    """The decision's own time as `arena think` reports it (time_ms), without process start."""
    out = []
    for _ in range(repeats):
        text = subprocess.run(
            [ARENA, "think", "--game", "havannah:size=8", "--agent", spec, "--moves", moves,
             "--seed", "1"],
            check=True, capture_output=True, text=True,
        ).stdout
        fields = dict(item.split("=", 1) for item in text.split())
        out.append(float(fields["time_ms"]) / 1000)
    return out


def match_seconds(games: int, repeats: int, table: bool) -> tuple:
    py, cli = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            ringside.match("rin:size=8", ["random", "random"], games=games, seed=5, threads=2,
                           out=os.path.join(tmp, "py.csv"), table=table)
            py.append(time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run(
                [ARENA, "match", "--game", "rin:size=8", "--agents", "random", "random",
                 "--games", str(games), "--seed", "5", "--threads", "2", "--quiet", "--out",
                 os.path.join(tmp, "cli.csv")],
                check=True, capture_output=True,
            )
            cli.append(time.perf_counter() - start)
    return py, cli


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small budgets, one repeat")
    parser.add_argument("--pgx", action="store_true", help="only the table beside pgx")
    args = parser.parse_args()
    repeats = 1 if args.quick else 5
    if args.pgx:
        pgx_table(repeats, args.quick)
        return
    steps = 20 if args.quick else 200

    seeds = range(1, repeats + 1)
    med = statistics.median
    vec = med([vecenv_learner(256, steps, seed=s) for s in seeds])
    ops = med([openspiel_steps(steps * 20, seed=s, learner=True) for s in seeds])
    print(f"learner's loop, VecEnv(256) havannah:size=8 steps/s: {vec:,.0f}")
    print(f"learner's loop, pyspiel havannah(board_size=8) steps/s: {ops:,.0f}")
    print(f"  ratio: {vec / ops:.1f}x")
    vec = med([vecenv_random(256, steps * 4, seed=s) for s in seeds])
    in_rust = med([vecenv_random_steps(256, steps * 4, seed=s) for s in seeds])
    ops = med([openspiel_steps(steps * 50, seed=s) for s in seeds])
    print(f"bare random play, VecEnv(256, observations=False) steps/s: {vec:,.0f}")
    print(f"bare random play, VecEnv(256).random_steps(50) steps/s: {in_rust:,.0f}")
    print(f"bare random play, pyspiel havannah(board_size=8) steps/s: {ops:,.0f}")
    print(f"  ratio: {vec / ops:.1f}x (random_actions), {in_rust / ops:.1f}x (random_steps)")

    spec = "mcts:iters=20000"
    moves = "d4 e5 f6"
    py = choose_seconds(spec, moves, repeats)
    reported = think_reported(spec, moves, repeats)
    print(f"Agent('{spec}').choose: median {statistics.median(py) * 1000:.1f} ms")
    print(f"arena think, its reported time_ms: median {statistics.median(reported) * 1000:.1f} ms")
    print(f"  overhead: {statistics.median(py) / statistics.median(reported) - 1:+.1%}")

    games = 1000 if args.quick else 10000
    for table in (False, True):
        py, cli = match_seconds(games, 3 * repeats, table)
        what = "and its DataFrame" if table else "table=False"
        print(f"ringside.match {games} random rin:size=8 games ({what}): "
              f"median {statistics.median(py) * 1000:.1f} ms")
        print(f"arena match, same games (a process, its summary printed): "
              f"median {statistics.median(cli) * 1000:.1f} ms")
        print(f"  ratio: {statistics.median(py) / statistics.median(cli):.3f}")

    try:
        import pgx  # noqa: F401
    except ImportError:
        print("pgx is not installed (pip install pgx): no table beside pgx")
        return
    pgx_table(repeats, args.quick)


if __name__ == "__main__":
    sys.exit(main())
