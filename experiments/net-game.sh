#!/usr/bin/env bash
# A game's net (issue 45) from nothing: self-play, training, then the checks (the recipe grew
# out of Hexxagon's, experiments/net-hexxagon.sh; step 2 says how it differs). Seeds are fixed here, per game, before
# any of them was played; the checks' seeds are never used in training.
#
#   experiments/net-game.sh rin|life|advance|ikabegama|ikabegama-mixed|havannah|havannah-mixed|havannah-blend|havannah-cells|breakthrough|breakthrough-mixed|othello|connect_four [STEP]
#
# STEP: selfplay, train, depth, time (the checks), depth2, time2 (their replications),
# time-long, time-long2 (equal time over the issue's 800 games, seeds base+25 and base+26),
# check (depth and time), replicate (depth2 and time2), or all (the default: self-play and
# training unless their files exist, then the checks).
#
# 1. Self-play: alpha-beta with the tuned weights against itself, 8 random opening plies, into
#    target/net-data/ (kept out of the repository; the same seed plays the same games on any
#    thread count).
# 2. Training (results/nets/NAME/): at most PER_GAME positions a game after the opening; from
#    each, CHILDREN children by random legal moves, each searched to depth 2 with eval=tuned
#    and labelled with that search's value (λ = 0); the net also reads the game's features,
#    starting as eval=tuned; Adam at 0.0005, 30 epochs. (Hexxagon's recipe searched to depth 1;
#    on Rin's trial seed 4529 the depth-2 teacher's net scored 69.2% against depth 1's 53.5%;
#    on Hexxagon's, 4749, 57.0% against 59.5%, so Hexxagon keeps experiments/net-hexxagon.sh.)
# 3. Checks (results/nets/NAME-check/), 6 random opening plies, colour-swapped: equal depth
#    (the depth of the tuned weights' own check, 800 games) and equal time (20 ms a move,
#    iterative deepening to the budget, 200 games; 10 ms and 100 games in Life and Advance);
#    `replicate` plays each on its second seed (run for a check the net won).
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?game: rin, life, advance, ikabegama, havannah, breakthrough, othello or connect_four}
step=${2:-all}
# Per game: the spec, self-play games, positions kept a game, the equal-depth check's depth,
# the equal-time check's games and milliseconds a move (Life's and Advance's games run to
# hundreds of plies), children searched a position, and the seed base (self-play base+1,
# trial base+9, checks base+21..base+26; base+11..base+14 checked the depth-1 teacher's nets).
case "$name" in
  rin)       game=rin:size=10;                 games=20000; per=10; depth=2; tgames=200; ms=20; kids=8; base=4520 ;;
  life)      game=life;                        games=3000;  per=25; depth=1; tgames=100; ms=10; kids=8; base=4900; ties=,ties=random ;;
  advance)   game=advance;                     games=3000;  per=25; depth=2; tgames=100; ms=10; kids=8; base=4660 ;;
  ikabegama) game=ikabegama:distance=6,side=9; games=4000;  per=15; depth=2; tgames=200; ms=20; kids=8; base=4940; ties=,ties=random ;;
  ikabegama-mixed) game=ikabegama:distance=6,side=9; games=20000; per=15; depth=2; tgames=200; ms=20; kids=8; base=5020; ties=,ties=random
             opponent=alphabeta:depth=2,eval=net,net=results/nets/ikabegama/net.rsnet ;;
  havannah)  game=havannah:size=6;             games=6000;  per=10; depth=1; tgames=200; ms=20; kids=8; base=4980; ties=,ties=random; leaf=1 ;;
  havannah-mixed) game=havannah:size=6;        games=6000;  per=10; depth=1; tgames=200; ms=20; kids=8; base=5100; ties=,ties=random; leaf=1
             opponent=alphabeta:depth=2,eval=net,net=results/nets/havannah/net.rsnet ;;
  havannah-blend) game=havannah:size=6;        games=6000;  per=10; depth=1; tgames=200; ms=20; kids=8; base=5140; leaf=1
             from=havannah-mixed; lambda=0.5 ;;
  havannah-cells) game=havannah:size=6;        games=6000;  per=10; depth=1; tgames=200; ms=20; kids=8; base=5060; leaf=1
             from=havannah; features= ;;
  breakthrough) game=breakthrough;             games=10000; per=10; depth=2; tgames=200; ms=20; kids=8; base=4780 ;;
  breakthrough-mixed) game=breakthrough;       games=10000; per=10; depth=2; tgames=200; ms=20; kids=8; base=5180; ties=,ties=random
             opponent=alphabeta:depth=2,eval=net,net=results/nets/breakthrough/net.rsnet ;;
  othello)   game=othello;                     games=10000; per=10; depth=2; tgames=200; ms=20; kids=8; base=4820 ;;
  connect_four) game=connect_four;             games=10000; per=10; depth=2; tgames=200; ms=20; kids=8; base=4860 ;;
  *) echo "unknown game: $name" >&2; exit 2 ;;
esac
# Life's first net (base 4620, results/nets/life-first/) learned from self-play whose pairs
# repeat; its self-play now breaks ties at random (`ties=random`), so both games of a pair differ.
# So do Ikabegamá's and Havannah's (their first nets: bases 4580 and 4700, results/nets/*-first/;
# Havannah's first searched 4 children to depth 2 from 3,000 games, 1,500 distinct, and overfit:
# its teacher is now depth 1, as Hexxagon's, so that twice the games train in the same time).
# Ikabegamá's self-play games (290 plies on average, half drawn) are nothing like its checks'
# (27 plies, decisive): `ikabegama-mixed` learns from games of the tuned weights against the
# net of `ikabegama` instead (short decisive games like the checks'), as a second generation.
# `havannah-mixed` does the same for Havannah: the tuned weights against the net of `havannah`
# (which scored −18.3 Elo at depth 1), so that the data hold the positions the checks reach.
ties=${ties:-} # appended to the self-play agents' spec
opponent=${opponent:-alphabeta:depth=2,eval=tuned} # the second self-play agent, before $ties
leaf=${leaf:-2} # the teacher's search depth
# Havannah's features cost 93 times the net (results/nets/README.md): `havannah-cells` is the
# net of the same data (`from`) without them (`features` empty), for equal time.
from=${from:-$name} # whose self-play data
features=${features---features} # --features, or empty for a net of the cells alone
# The label's share of the game's result (Texel's λ; the rest is the teacher's search value).
# `havannah-blend` learns from the games of `havannah-mixed` with half of each label the result.
lambda=${lambda:-0}
# ARENA=PATH runs a binary built beforehand (so that a long queue is not rebuilt under it).
if [ -z "${ARENA:-}" ]; then cargo build --release --bin arena; fi
arena=${ARENA:-target/release/arena}
data=target/net-data
out=results/nets/$name
checks=results/nets/$name-check
net=$out/net.rsnet
mkdir -p "$data" "$checks"
selfplay() {
  $arena match --game "$game" --agents "alphabeta:depth=2,eval=tuned$ties" "$opponent$ties" \
    --games "$games" --opening-plies 8 --ply-cap 1000 --seed $((base + 1)) --threads 2 \
    --out "$data/$from-selfplay.csv"
}
train() {
  $arena tune net "$data/$from-selfplay.csv" --out "$out" \
    --skip-plies 8 --per-game "$per" --leaf-depth "$leaf" --children "$kids" --keep-searched --lambda "$lambda" $features \
    --rate 0.0005 --epochs 30 --threads 2
}
check() { # FILE SEED GAMES BUDGET
  $arena match --game "$game" --agents "alphabeta:$4,eval=net,net=$net" "alphabeta:$4,eval=tuned" \
    --games "$3" --opening-plies 6 --seed "$2" --threads 2 --ply-cap 1000 \
    --out "$checks/$1.csv" > "$checks/$1.txt"
}
depth_check() { # 1: the check's seed, 2: the replication's
  check "depth$depth-seed$((base + 20 + $1))" $((base + 20 + $1)) 800 "depth=$depth"
}
time_check() { # 3: the check's seed, 4: the replication's; 5, 6: the long check's (GAMES given)
  check "time$ms-seed$((base + 20 + $1))" $((base + 20 + $1)) "${2:-$tgames}" "depth=30,time_ms=$ms"
}
case "$step" in
  selfplay) selfplay ;;
  train) train ;;
  depth) depth_check 1 ;;
  time) time_check 3 ;;
  depth2) depth_check 2 ;;
  time2) time_check 4 ;;
  time-long) time_check 5 800 ;;
  time-long2) time_check 6 800 ;;
  check) depth_check 1; time_check 3 ;;
  replicate) depth_check 2; time_check 4 ;;
  all) [ -f "$data/$from-selfplay.csv" ] || selfplay; [ -f "$net" ] || train; depth_check 1; time_check 3 ;;
  *) echo "unknown step: $step" >&2; exit 2 ;;
esac
