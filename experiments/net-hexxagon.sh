#!/usr/bin/env bash
# The shipped Hexxagon net (issue 45), from nothing: self-play, training, then the checks.
#
# 1. Self-play: 20,000 games of alpha-beta depth 2 with the tuned weights against itself,
#    8 random opening plies (seed 4501; 21 MB, kept out of the repository in target/net-data/;
#    the same seed plays the same games on any thread count). About 3 minutes on 2 cores.
# 2. Training (results/nets/hexxagon/): at most 10 positions a game after the opening; from
#    each, 8 children by random legal moves, each searched to depth 1 with eval=tuned and
#    labelled with that search's value (λ = 0); the net also reads the game's features,
#    starting as eval=tuned; Adam at 0.0005, 30 epochs. About 2 minutes; the same net, byte
#    for byte, on any thread count (content id c45da32ec7cd67f4).
# 3. Checks on seeds the training never saw, fixed before play, 6 random opening plies,
#    colour-swapped: equal depth (depth 2, 800 games, seed 4511; replication seed 4512) and
#    equal time (20 ms a move, iterative deepening to the budget, seed 4513; replication 4514).
#    Results in results/nets/hexxagon-check/.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin arena
arena=target/release/arena
data=target/net-data
mkdir -p "$data" results/nets/hexxagon-check
$arena match --game hexxagon --agents "alphabeta:depth=2,eval=tuned" "alphabeta:depth=2,eval=tuned" \
  --games 20000 --opening-plies 8 --ply-cap 1000 --seed 4501 --threads 2 \
  --out "$data/hexxagon-selfplay.csv"
$arena tune net "$data/hexxagon-selfplay.csv" --out results/nets/hexxagon \
  --skip-plies 8 --per-game 10 --children 8 --keep-searched --lambda 0 --features \
  --rate 0.0005 --epochs 30 --threads 2
net=results/nets/hexxagon/net.rsnet
check() { # NAME SEED GAMES BUDGET
  $arena match --game hexxagon --agents "alphabeta:$4,eval=net,net=$net" "alphabeta:$4,eval=tuned" \
    --games "$3" --opening-plies 6 --seed "$2" --threads 2 --ply-cap 1000 \
    --out "results/nets/hexxagon-check/$1.csv" > "results/nets/hexxagon-check/$1.txt"
}
check depth2-seed4511 4511 800 depth=2
check depth2-seed4512 4512 800 depth=2
check time20-seed4513 4513 200 depth=30,time_ms=20
check time20-seed4514 4514 200 depth=30,time_ms=20
