#!/usr/bin/env bash
# Builds Castro, Timo Ewalds' Havannah engine (GTP; "Playing and Solving Havannah", MSc thesis,
# University of Alberta, 2012), into DIR (default /tmp/castro) and prints the binary's path:
#
#   tools/castro-build.sh [DIR]
#
# The source, first found of:
#   1. $CASTRO_SRC: a directory or a .tar.gz of Castro's source;
#   2. ../shared/engines/castro/castro-src.tar.gz beside this repository (this machine's copy);
#   3. github.com/tewalds/castro at the pinned commit below, cloned with git.
# Today's g++ no longer has <tr1/functional>: the build rewrites those includes and names to
# std's (the copy in ../shared already has the change). Castro has no licence file: build it
# to play and test against, never copy its code into Ringside. Needs git (for 3), g++ and make.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-/tmp/castro}
commit=843165a
repo=https://github.com/tewalds/castro
if [[ -x $dir/castro ]]; then
    echo "$dir/castro"
    exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
src=${CASTRO_SRC:-}
shared=$here/../../shared/engines/castro/castro-src.tar.gz
if [[ -z $src && -f $shared ]]; then
    src=$shared
fi
if [[ -n $src && -d $src ]]; then
    cp -r "$src"/. "$dir"
elif [[ -n $src ]]; then
    tar -xzf "$src" -C "$dir"
else
    git clone --quiet "$repo" "$dir"
    git -C "$dir" checkout --quiet "$commit"
fi
# The tr1 → std rewrite (a no-op on a source that has it already).
sed -i -e 's|<tr1/functional>|<functional>|' -e 's|std::tr1::|std::|g' \
    -e 's|using namespace std::tr1;||' -e 's|tr1::function|function|g' "$dir"/*.h "$dir"/*.cpp
make -s -C "$dir" -j2 castro CPPFLAGS="-O3 -funroll-loops -march=native -w" >/dev/null
echo "$dir/castro"
