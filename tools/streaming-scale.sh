#!/usr/bin/env bash
# The streaming core's figures at scale (issue 23): peak memory of a 10,000,000-game random
# Rin 6x6 match, and the time and memory of `arena summary` on 200,000 and 2,000,000 such
# games (two runs each). Needs about 2.7 GB of disk in OUT (default /tmp/ringside-scale).
#   tools/streaming-scale.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/ringside-scale}
mkdir -p "$out"
cargo build --release --bin arena -q
arena=$PWD/target/release/arena
measure() { /usr/bin/time -f "$1: %e s, peak %M KB" "${@:2}" > /dev/null; }
for games in 200000 2000000 10000000; do
  rm -f "$out/m$games.csv" "$out/m$games.csv.settings.json"
  measure "match $games" "$arena" match --game rin:size=6 --agents random random \
    --games "$games" --out "$out/m$games.csv" --quiet
done
for run in 1 2; do
  for games in 200000 2000000; do
    measure "summary $games (run $run)" "$arena" summary "$out/m$games.csv"
  done
done
