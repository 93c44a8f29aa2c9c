"""Runs ``mypy --strict`` (the settings in pyproject.toml) on the package, its tests and every
Python example in the guide (``book/src/``) and the package's README, as a user's editor would
see them:

    python python/check_types.py

The examples are written to ``target/guide-examples/`` first, one file a block."""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def pages() -> list:
    """The Markdown files whose examples are checked: the guide's pages and python/README.md."""
    found = [os.path.join(HERE, "README.md")]
    for folder, _, names in os.walk(os.path.join(ROOT, "book", "src")):
        found += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    return sorted(found)


def guide_examples() -> list:
    """Writes each ```python block of the pages to its own file; their paths."""
    out = os.path.join(ROOT, "target", "guide-examples")
    os.makedirs(out, exist_ok=True)
    paths = []
    for page in pages():
        with open(page, encoding="utf-8") as f:
            blocks = re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)
        stem = os.path.relpath(page, ROOT).replace(os.sep, "_").replace(".md", "")
        for i, block in enumerate(blocks):
            path = os.path.join(out, f"{stem}_{i}.py".replace("-", "_"))
            with open(path, "w", encoding="utf-8") as f:
                f.write(block)
            paths.append(path)
    # The guide's Python chapter holds three examples and the package's README one.
    if len(paths) < 4:
        sys.exit(f"only {len(paths)} python examples found: the extraction is broken")
    return paths


def main() -> int:
    config = os.path.join(HERE, "pyproject.toml")
    files = [os.path.join(HERE, "py", "ringside"), os.path.join(HERE, "tests")]
    files += guide_examples()
    examples = os.path.join(HERE, "examples")
    if os.path.isdir(examples):
        files.append(examples)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", config, *files], cwd=HERE
    ).returncode


if __name__ == "__main__":
    sys.exit(main())
