"""Runs ``mypy --strict`` (the settings in pyproject.toml) on the package, its tests and every
Python example in the repository's README, as a user's editor would see them:

    python python/check_types.py

The README's examples are written to ``target/readme-examples/`` first, one file a block."""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def readme_examples() -> list:
    """Writes each ```python block of README.md to its own file; their paths."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)
    out = os.path.join(ROOT, "target", "readme-examples")
    os.makedirs(out, exist_ok=True)
    paths = []
    for i, block in enumerate(blocks):
        path = os.path.join(out, f"readme_example_{i}.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(block)
        paths.append(path)
    if not paths:
        sys.exit("README.md has no python examples: the extraction is broken")
    return paths


def main() -> int:
    config = os.path.join(HERE, "pyproject.toml")
    files = [os.path.join(HERE, "py", "ringside"), os.path.join(HERE, "tests")]
    files += readme_examples()
    examples = os.path.join(HERE, "examples")
    if os.path.isdir(examples):
        files.append(examples)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", config, *files], cwd=HERE
    ).returncode


if __name__ == "__main__":
    sys.exit(main())
