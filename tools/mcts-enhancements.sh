#!/bin/bash
# Re-runs the measurements of results/mcts-enhancements/ (issue 14) into a folder:
#   tools/mcts-enhancements.sh OUT [equal-time|replies|castro|all]
# equal-time: each MCTS option against plain UCT at the same time a move, on Havannah 5,
#   Ikabegamá, Rin 8 (50 ms a move, 40 games) and Hexxagon (20 ms, 20 games, ply cap 300).
# replies: the playout replies and the final-move choice (pattern=on on Havannah only, the one
#   game with a playout reply; reply=lgrf and final=wins everywhere) against plain UCT, at
#   equal time as above and at equal iterations (1,000 a move), into OUT/replies-*.csv.
# castro: preset=strong against Castro at 0.25 s a move, 100 games on sizes 6 and 8. Needs
#   Castro built by ../shared/engines/castro/build.sh into /tmp/castro (or CASTRO_BIN=...).
# One thread a match: time budgets are only fair when each agent has its core. Build first:
# cargo build --release. `arena summary FILE` prints each table.
set -euo pipefail
out=${1:?usage: tools/mcts-enhancements.sh OUT [equal-time|replies|castro|all]}
what=${2:-all}
arena=${ARENA:-$(cd "$(dirname "$0")/.." && pwd)/target/release/arena}
mkdir -p "$out"

gauntlet() { # NAME GAME MS GAMES OPTION... (EXTRA: more arena flags; BUDGET: iters=N)
    local name=$1 game=$2 budget=${BUDGET:-time_ms=$3} games=$4
    shift 4
    local agents=("mcts:$budget")
    for o in "$@"; do agents+=("mcts:$budget,$o"); done
    # shellcheck disable=SC2086
    "$arena" match --game "$game" --agents "${agents[@]}" --gauntlet --games "$games" \
        --threads 1 --seed 7 ${EXTRA:-} --out "$out/$name.csv"
}

if [[ $what == equal-time || $what == all ]]; then
    common=(rave=1000,c=0.4 decisive=tree decisive=on policy=mast,epsilon=0.4 fpu=0.5
        preset=strong)
    gauntlet hv5 havannah:size=5 50 40 "${common[@]}" know=1,fpu=1
    gauntlet ika7 ikabegama 50 40 "${common[@]}"
    gauntlet rin8 rin:size=8 50 40 "${common[@]}"
    EXTRA="--ply-cap 300" gauntlet hex5 hexxagon 20 20 rave=1000,c=0.4 decisive=tree \
        policy=mast,epsilon=0.4 fpu=0.5 preset=strong
fi

if [[ $what == replies || $what == all ]]; then
    for budget in time iters; do
        [[ $budget == iters ]] && export BUDGET=iters=1000
        gauntlet "replies-$budget-hv5" havannah:size=5 50 40 pattern=on reply=lgrf final=wins
        gauntlet "replies-$budget-ika7" ikabegama 50 40 reply=lgrf final=wins
        gauntlet "replies-$budget-rin8" rin:size=8 50 40 reply=lgrf final=wins
        EXTRA="--ply-cap 300" gauntlet "replies-$budget-hex5" hexxagon 20 20 reply=lgrf final=wins
    done
    unset BUDGET
fi

if [[ $what == castro || $what == all ]]; then
    bin=${CASTRO_BIN:-/tmp/castro/castro}
    castro="gtp:cmd=$bin,name=castro,coords=castro,time_ms=250,setup=time -m 0.25 -g 0 -f 0"
    for size in 6 8; do
        "$arena" match --game "havannah:size=$size" --agents "$castro" \
            mcts:time_ms=250,preset=strong --games 100 --threads 1 --seed 1 \
            --out "$out/castro-s$size.csv"
    done
fi
