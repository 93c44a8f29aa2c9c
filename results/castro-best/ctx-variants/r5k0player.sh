#!/bin/bash
RINGSIDE_CTX=r5 exec /tmp/tgt-exp/release/arena gtp --game havannah:size=8 --agent "mcts:iters=2000,preset=strong4,know=0,know.shape=0.15,shapes=/tmp/shapes-r5/shapes.txt" --seed "${SEED:-1}"
