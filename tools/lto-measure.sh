#!/usr/bin/env bash
# Paired CPU-time measurement (build the three first: CARGO_TARGET_DIR=/tmp/t-fat cargo build
# --release --bin arena with the profile set to fat LTO and one codegen unit, and so on) of three builds of arena (fat LTO + 1 codegen unit, thin LTO +
# 16, no LTO + 16) on single-threaded workloads; user seconds, alternating builds, 3 rounds.
set -u
cd /work/main
declare -A bin=([fat]=/tmp/t-fat/release/arena [thin]=/tmp/t-thin/release/arena [off]=/tmp/t-off/release/arena)
work=(
  "playouts --game havannah:size=8 -n 400000 --threads 1"
  "think --game hex:size=11 --agent mcts:iters=400000"
  "think --game othello --agent alphabeta:depth=13,eval=tuned"
  "think --game rin:size=10 --agent mcts:iters=400000"
)
for w in "${work[@]}"; do
  for round in 1 2 3; do
    for b in fat thin off; do
      /usr/bin/time -o /tmp/t.out -f "%U" ${bin[$b]} $w > /dev/null 2>&1; t=$(tail -1 /tmp/t.out)
      echo "$w|$b|$round|$t"
    done
  done
done
