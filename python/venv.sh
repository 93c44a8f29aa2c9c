# Sourced, with $root set to the repository's root, by python/test.sh, python/docs.sh and
# tools/python-wheel.sh: the virtual environment they share (target/python-venv, or
# $RINGSIDE_VENV), made with $PYTHON (python3) when it is not there yet.
venv="${RINGSIDE_VENV:-$root/target/python-venv}"
python="${PYTHON:-python3}"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
