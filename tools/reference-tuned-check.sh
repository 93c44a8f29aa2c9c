#!/usr/bin/env bash
# The reference games' Texel fits (results/tuned/GAME/weights.json, from
# experiments/reference-selfplay.toml) against their `rich` weights: alpha-beta at depth 2 and
# 3, 800 games a match in colour-swapped pairs, 6 random opening plies. The check's seed and
# the replication's seed are fixed here, before either is run.
#
#   tools/reference-tuned-check.sh check         # seed 2421 -> results/reference-tuned-check/
#   tools/reference-tuned-check.sh replication   # seed 2422 -> results/reference-tuned-check-replication/
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-check}" in
  check) seed=2421; out=results/reference-tuned-check ;;
  replication) seed=2422; out=results/reference-tuned-check-replication ;;
  *) echo "usage: $0 check|replication" >&2; exit 2 ;;
esac
arena=target/release/arena
for game in connect_four breakthrough othello; do
  for depth in 2 3; do
    dir="$out/$game-depth$depth"
    mkdir -p "$dir"
    "$arena" match --game "$game" --quiet \
      --agents "alphabeta:depth=$depth,weights=results/tuned/$game/weights.json" "alphabeta:depth=$depth,eval=rich" \
      --games 800 --seed "$seed" --opening-plies 6 --ply-cap 1000 --out "$dir/games.csv"
    "$arena" summary "$dir/games.csv" --out-dir "$dir" > /dev/null
  done
done
