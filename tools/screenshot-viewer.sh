#!/bin/sh
# Takes a screenshot of an `arena replay --html` page in headless Chromium (Debian package
# `chromium`), to check the page as a browser shows it.
#
#   tools/screenshot-viewer.sh PAGE.html OUT.png [WIDTHxHEIGHT]
#
# The page loads nothing from the network; Chromium runs its script and draws the last
# position, the buttons and the move list.
set -eu
page=$1
out=$2
size=${3:-1100x720}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
    echo "screenshot-viewer: no chromium found (apt-get install chromium)" >&2
    exit 2
fi
abs=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size="$(echo "$size" | tr x ,)" --screenshot="$out" "file://$abs" 2>/dev/null
test -s "$out"
echo "$out"
