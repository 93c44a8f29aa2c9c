#!/usr/bin/env python3
"""The reference values of `arena/src/figures/confseq.rs`'s test: the confidence sequence of
Waudby-Smith and Ramdas, computed by their own `confseq` package on the test's sequence.

Usage: tools/confseq-reference.py PATH/TO/confseq/src
(a checkout of github.com/gostevehoward/confseq; its pure-Python modules are enough: the
package's compiled part is not imported). Needs numpy, scipy, matplotlib and multiprocess.
"""
import sys
import types

import numpy as np

# The package predates NumPy 2, which removed np.float_.
if not hasattr(np, "float_"):
    np.float_ = np.float64

sys.path.insert(0, sys.argv[1])
# The package's __init__ imports its compiled extension; the betting modules do not need it.
sys.modules["confseq"] = types.ModuleType("confseq")
sys.modules["confseq"].__path__ = [sys.argv[1] + "/confseq"]
from confseq.betting import betting_cs  # noqa: E402

xs = [
    {0: 1.0, 1: 1.0, 4: 1.0, 2: 0.5}.get((k * 7 + k // 3) % 5, 0.0) for k in range(200)
]
lo, hi = betting_cs(xs, alpha=0.05, breaks=2000, running_intersection=True)
for k in (9, 49, 199):
    print(f"after {k + 1} games: ({lo[k]:.4f}, {hi[k]:.4f})")
