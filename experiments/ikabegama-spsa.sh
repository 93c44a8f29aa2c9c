#!/usr/bin/env bash
# SPSA tuning of Ikabegamá's evaluation for alpha-beta at depth 2, on the seed's larger board
# (side 9, nests 6 apart), starting from the default `rich` weights.
#
# 250 iterations of 4 colour-swapped pairs (2,000 games), then 400 games of the tuned agent
# against the start. Rerunning resumes (or, when finished, rewrites the summary from the record).
# Results: results/ikabegama-spsa/ (spsa.csv, theta-*.svg, verify.csv, summary.md).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release --bin arena -- tune spsa \
  --game ikabegama:distance=6,side=9 \
  --agent "alphabeta:depth=2,eval=rich" \
  --param "w.nest_distance,2,0,8,0.5,0.05" \
  --param "w.unflippable,0.25,-2,3,0.25,0.05" \
  --param "w.growths,0.1,-1,1,0.05,0.05" \
  --param "w.nest_guard,0.25,-2,3,0.25,0.05" \
  --iterations 250 --pairs 4 --opening-plies 4 --ply-cap 400 --seed 4 \
  --verify-games 400 --out results/ikabegama-spsa "$@"
