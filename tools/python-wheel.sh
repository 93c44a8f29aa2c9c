#!/usr/bin/env bash
# Builds one abi3 wheel of the Python package (CPython 3.9 and newer, this platform) into
# target/wheels/, compiled with the workspace's release profile, for a lab to share:
# `pip install target/wheels/ringside-*.whl` then needs no Rust. maturin comes from PyPI into
# the virtual environment of python/test.sh (target/python-venv, or $RINGSIDE_VENV).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=python/venv.sh
source "$root/python/venv.sh"
"$venv/bin/pip" install --quiet "maturin>=1.7,<2"
"$venv/bin/maturin" build --manifest-path "$root/python/Cargo.toml" --profile release \
    --out "$root/target/wheels"
ls -1 "$root"/target/wheels/ringside-*-abi3-*.whl
