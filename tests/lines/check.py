#!/usr/bin/env python3
"""The heat map against the fixture's own marks: check.py FIXTURE.cu REPORT.json [TEXT]

The lines of FIXTURE.cu that say "heat: hot" must be exactly the lines the
report's `lines` list marks hot (and, given the text output, the lines marked
"!!" there); every line it lists must carry the figures the README promises.
"""
import json
import re
import sys

fixture, report = sys.argv[1], sys.argv[2]
# a line of code that ends in the mark (the file's own comments may name it)
want = {n for n, text in enumerate(open(fixture), 1) if re.search(r"^\s*[^/\s].*//\s*heat: hot", text)}
r = json.load(open(report))
problems = []
source = (r.get("lines_measured") or {}).get("source")
if not source:
    problems.append(f"nothing measured: {r.get('lines_measured')}")
lines = r.get("lines") or []
keys = ("file", "line", "source", "requests", "sectors_per_request", "ideal_sectors_per_request",
        "bank_conflicts_per_request", "bytes", "share_pct", "share_of", "hot")
for l in lines:
    missing = [k for k in keys if k not in l]
    if missing:
        problems.append(f"line {l.get('line')} lacks {missing}")
mine = [l for l in lines if l["file"] == r["file"]]
got = {l["line"] for l in mine if l["hot"]}
if got != want:
    problems.append(f"hot lines {sorted(got)}, the fixture marks {sorted(want)}")
if len(mine) <= len(want):
    problems.append(f"only {len(mine)} lines measured: the heat map must also show lines that are not hot")
for l in mine:
    if l["line"] in want and l["requests"] == 0:
        problems.append(f"hot line {l['line']} made no request")
if len(sys.argv) > 3:
    text = open(sys.argv[3]).read()
    marked = {int(m.group(1)) for m in re.finditer(r"^!!\s+(\d+) \|", text, re.M)}
    if marked != want:
        problems.append(f"the text marks {sorted(marked)}, the fixture {sorted(want)}")
for p in problems:
    print(f"FAIL: {fixture} ({source}): {p}")
if not problems:
    print(f"ok: {fixture} ({source}): hot lines {sorted(got)} of {len(mine)} measured")
sys.exit(1 if problems else 0)
