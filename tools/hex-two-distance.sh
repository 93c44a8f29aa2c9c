#!/usr/bin/env bash
# Does Hex's two-distance feature make alpha-beta stronger? `rich` (connection_need and
# two_distance at -0.5 each) against the shortest path alone (connection_need at -1, the
# evaluation before two_distance), hex:size=7 at depths 1 and 2, 800 games a match in
# colour-swapped pairs, 6 random opening plies. Seeds fixed here before either run:
#
#   tools/hex-two-distance.sh check         # seed 2431 -> results/hex-two-distance/check/
#   tools/hex-two-distance.sh replication   # seed 2432 -> results/hex-two-distance/replication/
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-check}" in
  check) seed=2431 ;;
  replication) seed=2432 ;;
  *) echo "usage: $0 check|replication" >&2; exit 2 ;;
esac
for depth in 1 2; do
  dir="results/hex-two-distance/$1/depth$depth"
  mkdir -p "$dir"
  target/release/arena match --game hex:size=7 --quiet \
    --agents "alphabeta:depth=$depth,eval=rich" "alphabeta:depth=$depth,weights=results/hex-two-distance/connection-need-only.json" \
    --games 800 --seed "$seed" --opening-plies 6 --ply-cap 1000 --out "$dir/games.csv"
  target/release/arena summary "$dir/games.csv" --out-dir "$dir" > /dev/null
done
