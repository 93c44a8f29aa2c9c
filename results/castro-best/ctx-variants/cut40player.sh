#!/bin/bash
RINGSIDE_SHAPE_PLIES=40 exec /tmp/tgt-exp/release/arena gtp --game havannah:size=8 --agent "mcts:iters=2000,preset=strong4,know.shape=0.15,shapes=/work/main/results/castro-best/shapes-ctx/shapes.txt" --seed "${SEED:-1}"
