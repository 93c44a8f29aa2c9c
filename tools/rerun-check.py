#!/usr/bin/env python3
"""Plays a committed check again under the current arena, from its own record.

    python3 tools/rerun-check.py results/nets/life-check/time10-seed4923.csv [--suffix fair]

Reads the run's settings from its sidecar (game, the agents' full specs, games, seed, ply cap,
opening plies) and plays the same plan with `arena match` into NAME-SUFFIX.csv beside it,
writing the summary to NAME-SUFFIX.txt. Run from the repository's root: the specs name their
nets by paths from there. The full specs are used, not the labels, so that weights shipped
since (a later eval=tuned) do not change the players.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", type=Path)
    ap.add_argument("--suffix", default="fair")
    ap.add_argument("--arena", default="target/release/arena")
    ap.add_argument("--threads", default=None)
    a = ap.parse_args()
    s = json.loads(Path(str(a.csv) + ".settings.json").read_text())["settings"]
    if len(s["pairings"]) != 1:
        sys.exit("one pairing only")
    specs = [agent["spec"] for agent in s["agents"]]
    out = a.csv.with_name(f"{a.csv.stem}-{a.suffix}.csv")
    cmd = [a.arena, "match", "--game", s["game"], "--agents", *specs,
           "--games", str(s["games_per_pairing"]), "--seed", str(s["seed"]),
           "--opening-plies", str(s["opening_plies"]), "--out", str(out), "--quiet"]
    if s.get("ply_cap") is not None:
        cmd += ["--ply-cap", str(s["ply_cap"])]
    if a.threads:
        cmd += ["--threads", a.threads]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {done.stderr.strip()}")
    out.with_suffix(".txt").write_text(done.stdout)
    print(out)


if __name__ == "__main__":
    main()
