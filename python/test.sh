#!/usr/bin/env bash
# The Python package's tests on a fresh machine: a virtual environment (target/python-venv,
# or $RINGSIDE_VENV) with the package installed from this repository as the README says,
# its test requirements and PyTorch (for the worked learner's smoke test) from PyPI, then
# pytest, then mypy --strict. The tests compare against the release
# `arena` binary, which the README's test command (cargo test --workspace --release) builds.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=python/venv.sh
source "$root/python/venv.sh"
# The release `arena` the tests compare against, built as the README's test command builds it,
# and before the package: right after that command this is a no-op. (`cargo build -p
# ringside-arena` resolves features on its own and would link it again; after maturin's build
# of the package below, which rebuilds libraries the workspace shares, even this would.)
cargo test --workspace --release --no-run --quiet --manifest-path "$root/Cargo.toml"
"$venv/bin/pip" install --quiet --upgrade pip
"$venv/bin/pip" install --quiet "$root/python[test,learn]"
cd "$root/python"
"$venv/bin/python" -m pytest -q tests
# mypy --strict on the package, the tests and the guide's examples (python/check_types.py).
"$venv/bin/python" check_types.py
