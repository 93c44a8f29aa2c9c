#!/usr/bin/env python3
"""Draws results/castro-best/castro-best.svg: every comparison of issue 46 as Elo with its 95%
interval, one small panel a question, from `arena verdicts` (each file its own family, so the
intervals are the ones the README's tables give).

    python3 tools/castro_best_figure.py [ARENA] [OUT.svg]

Each row is "challenger against baseline": a file whose first agent is the baseline is
turned round (its Elo negated). A gauntlet's file may be split over panels: a fourth element
keeps only its rows whose baseline's name holds that text. Files not yet played are left out.
"""

import math
import os
import re
import subprocess
import sys

# The axis's lowest Elo: a row below it is drawn against the edge with its value printed.
FLOOR = -300

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(ROOT, "results", "castro-best")

# (panel title, [(file, flip: the first agent is the baseline)]), drawn top to bottom.
PANELS = [
    ("Castro against itself (one thread)", [
        ("castro-s6.csv", False, "size 6"),
        ("castro-s6b.csv", False, "size 6, replication"),
        ("castro-s8.csv", False, "size 8"),
        ("castro-ring-s8.csv", False, "size 8"),
        ("castro-know-s8b.csv", True, "size 8, replication"),
        ("castro-know-s8c.csv", True, "size 8, third run"),
    ]),
    ("Ideas added to Ringside's preset=strong (size 6)", [
        ("ideas-s6.csv", True, ""),
        ("ring-s6b.csv", True, "replication"),
    ]),
    ("Ideas added to preset=strong2 (size 6)", [
        ("ideas-s6c.csv", True, ""),
    ]),
    ("Castro's distance to a win (know.distance=0.04) on the best players", [
        ("dist-s6.csv", False, "size 6"),
        ("dist-s8.csv", False, "size 8"),
    ]),
    ("Two of the thesis's ideas together, added to strong2 (preset=strong3)", [
        ("combo-s6.csv", False, "size 6", "strong2"),
        ("combo-s6b.csv", False, "size 6, replication"),
        ("combo-s8.csv", False, "size 8", "strong2"),
        ("combo-s8b.csv", False, "size 8, replication"),
    ]),
    ("Rings' old stones counted in the ring, added to strong3 (size 8)", [
        ("ringwalk-s8.csv", False, ""),
        ("ringwalk-s8b.csv", False, "replication"),
    ]),
    ("Added to strong3 (size 8): preset=strong4 is strong3 + rave_grow=0, final=wins", [
        ("rave-s8.csv", False, ""),
        ("castro3-s8.csv", False, "", "strong3"),
        ("castro3-s8b.csv", False, "replication"),
    ]),
    ("Speed taken out: 2,000 iterations a move each (size 8)", [
        ("iters-s8-user-d0.csv", False, ""),
        ("mirror-s8-bare.csv", False, "Castro set the same"),
        ("mirror-s8-strong3.csv", False, "Castro set the same"),
        ("ctx-s8-iters2000-user-d0-know.csv", False, "exploratory"),
    ]),
    ("SPSA's tuning of preset=strong2 (size 6)", [
        ("spsa-s6/verify.csv", False, "check"),
        ("spsa-s6b.csv", False, "fresh seed"),
    ]),
    ("The move network on the shapes in context, 2,000 iterations (size 8, exploratory)", [
        ("movenet-s8-iters2000.csv", True, "from visit 32"),
        ("movenet-s8-at512-iters2000.csv", True, "1,760 iterations"),
        ("movenet-know-s8-iters2000.csv", True, "from visit 32"),
        ("movenet16-s8-iters2000.csv", True, "16 channels, at their cost"),
    ]),
    ("Four times the work at 2,000 iterations, on the shapes in context (size 8, exploratory)", [
        ("leaf-s8-iters2000.csv", True, ""),
    ]),
    ("Tree parallelism's round against one thread's order, 4,000 iterations (size 8, exploratory)", [
        ("batch-s8-iters4000.csv", True, ""),
        ("vloss-s8-iters4000.csv", True, ""),
        ("order-s8-iters4000.csv", True, "fresh seed"),
    ]),
    ("UCT's exploration term and first-play urgency added to strong5 (size 8, 4,000 iterations, exploratory)", [
        ("explore-s8-iters4000.csv", True, ""),
        ("fpu-s8-iters4000.csv", True, ""),
    ]),
    ("Exploration at the root only (UCB of simple regret, rootc/patch.diff) added to strong5 (size 8, 8,000 iterations)", [
        ("rootc-s8-iters8000.csv", True, "exploratory"),
        ("rootc-s8b-iters8000.csv", True, "replication, fixed before play"),
    ]),
    ("The shapes written in full and the 18-cell shapes (shapes18/patch.diff) in place of strong5's (size 8, 8,000 iterations, exploratory)", [
        ("shape18-s8-iters8000.csv", True, ""),
        ("shape18b-s8-iters8000.csv", True, "second run"),
    ]),
    ("Two threads a player (size 8)", [
        ("par-s8.csv", False, ""),
        ("ctx-par-s8.csv", False, ""),
    ]),
    ("Ideas added to strong4", [
        ("know-s8-strong4.csv", True, "size 8"),
        ("pool-s8-strong4.csv", True, "size 8"),
        ("pool-s6-strong4.csv", True, "size 6"),
        ("reply-s6-strong4.csv", True, "size 6"),
        ("grave-s8-iters2000.csv", True, "size 8, 2,000 iterations, exploratory"),
        ("shape-s8-iters2000.csv", True, "size 8, 2,000 iterations, exploratory"),
        ("shape-s8-strong4.csv", False, "size 8"),
        ("shape-s8b-strong4.csv", False, "size 8, replication"),
    ]),
    ("The learned shapes' weight (2,000 iterations, exploratory)", [
        ("shapew-s8-iters2000.csv", True, "size 8"),
        ("shapew-s6-iters2000.csv", True, "size 6"),
    ]),
    ("Progressive widening added to strong4 + shapes (size 8, 2,000 iterations, exploratory)", [
        ("widen-s8-iters2000.csv", True, ""),
    ]),
    ("The shapes also as a prior probability, added to strong4 + shapes (size 8, 2,000 iterations, exploratory)", [
        ("prob-s8-iters2000.csv", True, ""),
        ("prob-s8b-iters2000.csv", True, "fresh seed"),
    ]),
    ("The shapes in the playouts, added to strong4 + shapes (size 8, 2,000 iterations, exploratory)", [
        ("roll-s8-iters2000.csv", True, "first 10 plies"),
        ("rollfull-s8-iters2000.csv", True, "every ply"),
    ]),
    ("Other fits of the learned shapes against the shipped fit, each in strong4 + shapes 0.3 (2,000 iterations, exploratory)", [
        ("shapefit-s6-iters2000.csv", True, "size 6, every agent's moves"),
        ("shapefit8-s8-iters2000.csv", False, "size 8, Castro's size-8 moves only"),
        ("shapefitall-s8-iters2000.csv", False, "size 8, Castro's moves, 37 files"),
    ]),
    ("The shapes in the context of the last stone against the shipped shapes, each in strong4 (size 8, 2,000 iterations, exploratory)", [
        ("ctx-s8-iters2000.csv", False, ""),
        ("ctxw-s8-iters2000.csv", False, ""),
        ("ctxw-s8b-iters2000.csv", False, "fresh seed"),
    ]),
    ("Screens of the context player: a prior, size 6, richer contexts, weights (2,000 iterations, exploratory)", [
        ("ctxprob-s8-iters2000.csv", True, "size 8"),
        ("ctx-s6-iters2000.csv", True, "size 6, against the shipped shapes 0.3"),
        ("ctxreach-s8-iters2000.csv", False, "size 8"),
        ("ctxreach0-s8-iters2000.csv", False, "size 8"),
        ("ctxply40-s8-iters2000.csv", False, "size 8"),
        ("ctxweight-s8-iters2000.csv", True, "size 8"),
        ("ctxweight-s8b-iters2000.csv", True, "size 8, fresh seed"),
    ]),
    ("Playout policies added to strong4 (size 8, 2,000 iterations, exploratory)", [
        ("playout-s8-iters2000.csv", True, ""),
    ]),
    ("N-gram playouts (NST) added to the context player (size 8, 2,000 iterations, exploratory)", [
        ("ngram-s8-iters2000.csv", True, ""),
    ]),
    ("RAVE's minimum-MSE schedule, cutoff-AMAF, knowledge's fade, move-count rewards and the opponent's connectivity added to strong5 (size 8, 2,000 iterations, exploratory)", [
        ("mse-s8-iters2000.csv", True, ""),
        ("mse-s8b-iters2000.csv", True, "fresh seed"),
        ("cutoff-s8-iters2000.csv", True, ""),
        ("fade-s8-iters2000.csv", True, ""),
        ("moves-s8-iters2000.csv", True, ""),
        ("block-s8-iters2000.csv", True, ""),
    ]),
    ("Tactics added to strong5: decisive moves in the playouts, a mate-in-three search in the tree (size 8, 2,000 iterations, exploratory)", [
        ("decisive-s8-iters2000.csv", True, ""),
        ("mate-s8-iters2000.csv", True, ""),
        ("mate-s8b-iters2000.csv", True, "fresh seed"),
    ]),
    ("Early playout termination added to strong5: one playout a leaf, cut after 10 plies and scored by eval=tuned (size 8, 0.25 s, exploratory)", [
        ("ept-s8.csv", True, ""),
    ]),
    ("Last good reply with forgetting and the link-saving reply added to strong5 (size 8)", [
        ("replies5-s8-iters2000.csv", True, "2,000 iterations, exploratory"),
        ("lgrf5-s8-iters2000.csv", True, "2,000 iterations, fresh seed, exploratory"),
        ("lgrf-s8.csv", False, "0.25 s, fixed before play"),
    ]),
    ("Twice the search (0.5 s against 0.25 s; 4,000 against 2,000 and 8,000 against 4,000 iterations) and fewer playouts (size 8, exploratory)", [
        ("time2x-s8-shapes.csv", False, ""),
        ("time2x-s8-shapes-b.csv", False, "fresh seed"),
        ("time2x-s8-strong4.csv", False, ""),
        ("time2x-s8-castro.csv", False, ""),
        ("time2x-s8-castro-b.csv", False, "fresh seed"),
        ("iters2x-s8-strong4.csv", False, "2,000 iterations"),
        ("iters2x-s8-castro.csv", False, ""),
        ("iters4x-s8-strong4.csv", False, ""),
        ("iters4x-s8-castro.csv", False, ""),
        ("rollouts-s8-shapes.csv", True, "0.25 s"),
    ]),
    ("SPSA's tuning of strong4 (size 8)", [
        ("spsa-s8/verify.csv", False, "check, 2,000 iterations"),
        ("spsa-s8b.csv", False, "fresh seed, 0.25 s"),
    ]),
    ("Ringside against Castro at its best, size 6 (one thread each)", [
        ("strong-s6-user.csv", False, ""),
        ("strong-s6-user-d0.csv", False, ""),
        ("final-s6.csv", False, ""),
        ("final-s6b.csv", False, "replication"),
        ("spsa-s6c-user-d0.csv", False, ""),
        ("combo-s6.csv", False, "", "castro"),
        ("final-s6-strong4-user-d0.csv", False, ""),
        ("final-s6b-strong4-user-d0.csv", False, "replication"),
        ("shape-s6-user-d0.csv", False, ""),
        ("shape-s6b-user-d0.csv", False, "replication"),
        ("shape-s6c-user-d0.csv", False, "third run"),
        ("ctx-s6-user-d0.csv", False, ""),
        ("ctx-s6b-user-d0.csv", False, "replication"),
        ("strong7-s6-user-d0.csv", False, ""),
        ("strong7-s6b-user-d0.csv", False, "replication"),
        ("strong8-s6-user-d0.csv", False, ""),
        ("strong8-s6b-user-d0.csv", False, "replication"),
    ]),
    ("Ringside against Castro at its best, size 8 (one thread each)", [
        ("final-s8-user-d0.csv", False, ""),
        ("final-s8b-user-d0.csv", False, "replication"),
        ("combo-s8.csv", False, "", "castro"),
        ("castro3-s8.csv", False, "", "castro"),
        ("final-s8-strong4-user-d0.csv", False, "replication"),
        ("final-s8-strong4-user-d0-know.csv", False, ""),
        ("fast-s8-strong4-user-d0-know.csv", False, "1.25x faster search"),
        ("shape-s8-user-d0-know.csv", False, ""),
        ("shape-s8b-user-d0-know.csv", False, "replication"),
        ("shape-s8c-user-d0-know.csv", False, "third run, faster back-up"),
        ("prob-s8-user-d0-know.csv", False, ""),
        ("ctx-s8x-user-d0-know.csv", False, "exploratory"),
        ("ctx-s8-user-d0-know.csv", False, "replication"),
        ("ctx-s8b-user-d0-know.csv", False, "third run"),
        ("ctx01-s8-user-d0-know.csv", False, "fourth run"),
        ("ctx5-s8-user-d0-know.csv", False, "fifth run, main's build"),
        ("lgrf-s8-user-d0-know.csv", False, "fixed before play"),
        ("ctx03-s8-user-d0-know.csv", False, ""),
        ("ctx03-s8b-user-d0-know.csv", False, "replication"),
        ("movenet-s8x-user-d0-know.csv", False, "exploratory, stopped at 51 games"),
        ("movenet-s8-user-d0-know.csv", False, ""),
        ("movenet-s8b-user-d0-know.csv", False, "replication"),
        ("resid-s8-user-d0-know.csv", False, "throwaway build, fixed before play"),
        ("resid-s8b-user-d0-know.csv", False, "replication"),
        ("resid-s8c-user-d0-know.csv", False, "third run"),
        ("wide-s8-user-d0-know.csv", False, "fourth run, main's build"),
        ("wide2-s8-user-d0-know.csv", False, "fixed before play"),
        ("wide2-s8b-user-d0-know.csv", False, "replication"),
        ("strong7r8-s8-user-d0-know.csv", False, "fixed before play"),
        ("strong7r8-s8b-user-d0-know.csv", False, "replication"),
    ]),
    ("Ringside against Castro at its best, size 8, two threads each", [
        ("final-s8t2-user-d0.csv", False, ""),
        ("final-s8t2-strong3-user-d0.csv", False, ""),
        ("final-s8t2-strong4-user-d0.csv", False, ""),
        ("final-s8t2b-strong4-user-d0.csv", False, "replication"),
        ("final-s8t2-strong4-user-d0-know.csv", False, ""),
        ("shape-s8t2-user-d0-know.csv", False, ""),
        ("shape-s8t2b-user-d0-know.csv", False, "replication"),
        ("ctx-s8t2-user-d0-know.csv", False, ""),
        ("ctx-s8t2t-user-d0-know.csv", False, "tree parallelism"),
        ("ctx-s8t2tb-user-d0-know.csv", False, "tree parallelism, replication"),
        ("ctx-s8t2tc-user-d0-know.csv", False, "tree parallelism 1.35x faster"),
        ("ctx-s8t2b8-user-d0-know.csv", False, "tree parallelism, batch 8"),
        ("ctx-s8t2b8b-user-d0-know.csv", False, "tree parallelism, batch 8, replication"),
        ("ctx-s8t2b8c-user-d0-know.csv", False, "batch 8, third run, 1.08x faster"),
        ("ctx-s8t2b8d-user-d0-know.csv", False, "batch 8, fourth run, 1.08x faster"),
        ("wide-s8t2b8-user-d0-know.csv", False, "batch 8, fixed before play"),
        ("wide-s8t2b8b-user-d0-know.csv", False, "batch 8, replication"),
        ("wide2-s8t2b8-user-d0-know.csv", False, "batch 8, fixed before play"),
        ("wide2-s8t2b8b-user-d0-know.csv", False, "batch 8, replication"),
    ]),
]

# The throwaway context players of ctx-variants/ (through `arena gtp`), by their GTP names.
THROWAWAY = {
    "r5ctx": "strong4 + shapes 0.15, context and reach",
    "r5ctx-know0": "strong4, know=0 + shapes 0.15, context and reach",
    "ctx-shapes-to-ply40": "strong4 + shapes 0.15, shapes in context before ply 40",
}

ROW = re.compile(
    r"^\| (?P<file>\S+)(?: #\d+)? \| `(?P<a>[^`]*)` \| `(?P<b>[^`]*)` \| (?P<pairs>\d+) \| "
    r"(?P<elo>[-+]\d+\.\d) \[(?P<lo>[-+]\d+\.\d), (?P<hi>[-+]\d+\.\d)\]"
)


def short(spec):
    """A reader's name for an agent spec."""
    m = re.search(r"name=([^,]+)", spec)
    if spec.startswith("gtp:") and m:
        return THROWAWAY.get(m.group(1), m.group(1))
    if "know.connect=0.34" in spec or "know.connect=0.339" in spec:
        return "strong4 tuned by SPSA"
    if "iters=2000" in spec and "know.bridge=0.5,know.connect=0.4" in spec:
        return "strong4 (SPSA's start)"
    if "know.connect=0.12" in spec:
        return "strong2 tuned by SPSA"
    if "know.connect=0.4," in spec and "know.local=0.05" in spec:
        return "SPSA's start"
    if "time_ms=500," in spec:
        return short(spec.replace("time_ms=500,", "")) + " at 0.5 s"
    for iters in ("4000", "8000"):
        if f"iters={iters}," in spec:
            return short(spec.replace(f"iters={iters},", "")) + f" at {iters[0]},000 iterations"
    text = spec.removeprefix("mcts:").replace("time_ms=250,", "").replace("preset=", "")
    text = text.replace("iters=2000,", "").replace(",iters=2000", "")
    # rootc/patch.diff reads `a=` (unused with win rewards) as 0.25 + the root's exploration.
    text = text.replace(",a=0.28", ",root exploration 0.03").replace(",a=0.35", ",root exploration 0.1")
    if text.startswith("c=0,rave=500,rave_form=hyp,decisive=tree"):
        rest = text.removeprefix("c=0,rave=500,rave_form=hyp,decisive=tree").lstrip(",")
        return "bare RAVE" + (" + " + rest.replace(",", ", ") if rest else "")
    # preset=strong4 is these options of strong3 (agents' STRONG4_PRESET).
    text = text.replace("strong3,rave_grow=0,final=wins", "strong4")
    thesis = "know=0,know.connect=0.4,know.bridge=2,know.reply=0.1,know.local=0.06,know.size=0.04"
    text = text.replace(thesis, "the thesis's knowledge")
    text = re.sub(r",?shapes=\S*?shapes-ctx\S*?(?=,|$)", ",shapes in context", text)
    text = re.sub(r",?shapes=/tmp/ctxrun/shapes-ctx.txt", ",shapes in context", text)
    # shapes18/: the shapes in context written in full, and the 18-cell shapes fitted over a fit.
    text = re.sub(r",?shapes=\S*?shapes18/ctx-all/shapes.txt", ",all shapes in context", text)
    text = re.sub(r",?shapes=\S*?shapes18/resid/shapes.txt", ",18-cell shapes over all", text)
    text = re.sub(r",?shapes=\S*?shapes18/wide/shapes.txt", ",18-cell shapes over strong5's", text)
    text = re.sub(r",?shapes=\S*?shapes-wide2/shapes.txt", ",wide shapes on twice the games", text)
    text = re.sub(r",?shapes_id=[0-9a-f]+", "", text)
    text = re.sub(r",?movenet=\S*?movenet16/net\.rspol", ",16-channel network", text)
    text = re.sub(r",?movenet=\S*?net\.rspol", ",move network", text)
    text = re.sub(r",?movenet_id=[0-9a-f]+", "", text)
    text = text.replace("movenet_w=", "prior ").replace("movenet_know=", "knowledge ")
    text = text.replace("movenet_at=512", "from visit 512").replace("iters=1760,", "")
    text = text.replace("iters=1320,", "").replace("iters=1700,", "")
    text = text.replace(",16-channel network,prior 0.3,movenet_at=", ",16-channel network,prior 0.3 from visit ")
    text = re.sub(r",?movenet_at=\d+", "", text)
    text = text.replace("know.shape_ctx=", "shapes in context ")
    text = text.replace("know.shape=", "shapes ").replace("prob.shape=", "prior ")
    # The playout shapes' panel names the plies in its tags.
    text = text.replace(",roll_plies=10", "").replace("roll.shape=", "in playouts ")
    for preset in ("strong8,", "strong7,", "strong6,", "strong5,", "strong4,", "strong3,", "strong2,", "strong,"):
        if text.startswith(preset):
            return preset[:-1] + " + " + text[len(preset):].replace(",", ", ")
    return text


def rows(arena, name, flip, tag, baseline=None):
    path = os.path.join(DIR, name)
    if not os.path.exists(path):
        return []
    out = subprocess.run([arena, "verdicts", path], check=True, capture_output=True,
                         text=True).stdout
    found = []
    for line in out.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        a, b = short(m["a"]), short(m["b"])
        elo, lo, hi = float(m["elo"]), float(m["lo"]), float(m["hi"])
        if flip:
            a, b, elo, lo, hi = b, a, -elo, -hi, -lo
        if baseline and baseline not in b:
            continue
        label = f"{a} vs {b}" + (f" ({tag})" if tag else "")
        found.append((label, elo, lo, hi, name))
    return found


def elo_of_score(share):
    """The Elo difference a mean score `share` (strictly between 0 and 1) stands for."""
    return 400 * math.log10(share / (1 - share))


def target_of(title):
    """The issue's target score for a panel of matches against Castro: 55% with two threads
    each, else 60%."""
    return 0.55 if "two threads" in title else 0.6


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main():
    arena = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/arena")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(DIR, "castro-best.svg")
    panels = [(title, [r for entry in files for r in rows(arena, *entry)])
              for title, files in PANELS]
    panels = [(t, rs) for t, rs in panels if rs]
    lo = min(r[2] for _, rs in panels for r in rs)
    hi = max(r[3] for _, rs in panels for r in rs)
    target = elo_of_score(0.6)  # the larger target
    # A comparison far off the rest (MAST playouts, -604) would squeeze every other panel: the
    # axis stops at FLOOR and such a row is drawn against its edge, its value still printed.
    lo, hi = max(min(lo, -50), FLOOR), max(hi, target + 10)
    step = 50
    lo, hi = step * ((lo // step)), step * (-(-hi // step))
    # The labels' column fits the longest label (about 6.3 px a character at 12 px sans-serif);
    # the plot keeps its 440 px.
    longest = max(len(r[0]) for _, rs in panels for r in rs)
    left, right = max(430, 16 + round(6.3 * longest)), 30
    width = left + 440 + right
    row_h, head_h, gap = 22, 26, 14
    height = 40 + sum(head_h + row_h * len(rs) + gap for _, rs in panels) + 30
    plot_w = width - left - right

    def x(v):
        return left + (v - lo) / (hi - lo) * plot_w

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">Elo of the first '
           'named (95% interval); 0.25 s a move unless the panel names iterations; '
           'games as each file holds</text>']
    y = 40
    for title, rs in panels:
        top = y + head_h
        bottom = top + row_h * len(rs)
        svg.append(f'<text x="10" y="{y + 16}" font-weight="bold">{esc(title)}</text>')
        v = lo
        while v <= hi:
            svg.append(f'<line x1="{x(v):.1f}" y1="{top}" x2="{x(v):.1f}" y2="{bottom}" '
                       'stroke="#e6e6e6"/>')
            v += step
        svg.append(f'<line x1="{x(0):.1f}" y1="{top}" x2="{x(0):.1f}" y2="{bottom}" '
                   'stroke="#444" stroke-width="1.2"/>')
        if "Castro at its best" in title:
            share = target_of(title)
            at = x(elo_of_score(share))
            svg.append(f'<line x1="{at:.1f}" y1="{top}" x2="{at:.1f}" '
                       f'y2="{bottom}" stroke="#c0392b" stroke-dasharray="5,3"/>')
            svg.append(f'<text x="{at + 4:.1f}" y="{top + 11}" fill="#c0392b" '
                       f'font-size="11">target: {round(100 * share)}%</text>')
        for k, (label, elo, a, b, _) in enumerate(rs):
            cy = top + row_h * k + row_h / 2
            colour = "#1f77b4" if a > 0 or b < 0 else "#777"
            svg.append(f'<text x="{left - 8}" y="{cy + 4:.1f}" text-anchor="end">'
                       f'{esc(label)}</text>')
            svg.append(f'<line x1="{x(max(a, lo)):.1f}" y1="{cy:.1f}" x2="{x(max(b, lo)):.1f}" '
                       f'y2="{cy:.1f}" stroke="{colour}" stroke-width="2"/>')
            if elo >= lo:
                svg.append(f'<circle cx="{x(elo):.1f}" cy="{cy:.1f}" r="4" fill="{colour}"/>')
                note = f"{elo + 0.0:+.0f}"
            else:
                svg.append(f'<path d="M{x(lo):.1f},{cy:.1f} l8,-5 v10 z" fill="{colour}"/>')
                note = f"{elo + 0.0:+.0f} [{a:+.0f}, {b:+.0f}], off the scale"
            svg.append(f'<text x="{x(max(b, lo + 10)) + 6:.1f}" y="{cy + 4:.1f}" font-size="11" '
                       f'fill="#333">{note}</text>')
        y = bottom + gap
    v = lo
    while v <= hi:
        svg.append(f'<text x="{x(v):.1f}" y="{y + 12}" text-anchor="middle" '
                   f'font-size="11">{v:+.0f}</text>')
        v += step
    svg.append(f'<text x="{left + plot_w / 2}" y="{y + 28}" text-anchor="middle">Elo '
               '(blue: interval clear of 0)</text>')
    svg.append("</svg>")
    with open(out + ".tmp", "w") as f:
        f.write("\n".join(svg) + "\n")
    os.replace(out + ".tmp", out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
