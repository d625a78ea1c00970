#!/usr/bin/env python3
"""The machine code listing of a graded file: check.py REPORT.json TEXT EXPECT_SASS RULES...

Each rule is LINE:WHERE:PATTERN: an instruction of the listing matching the
regular expression PATTERN must sit under source line LINE, in WHERE ("ptx",
or "sass", which is checked only when EXPECT_SASS is 1), and, for SASS, a
rule NOTE=text asks that instruction's note to be text. The text listing
must keep to 80 columns.
"""
import json
import re
import sys

report, text, expect_sass = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
r = json.load(open(report))
m = r.get("machine_code") or {}
problems = []
if "error" in m or not m.get("kernels"):
    problems.append(f"no listing: {m}")
if not re.fullmatch(r"sm_\d{2,3}[af]?", m.get("arch", "")):
    problems.append(f"arch {m.get('arch')!r} is no architecture")
if expect_sass and m.get("no_sass"):
    problems.append(f"no SASS though nvdisasm is here: {m['no_sass']}")
if not expect_sass and "nvdisasm" not in (m.get("no_sass") or ""):
    problems.append(f"no nvdisasm here, and the listing does not say so: {m.get('no_sass')!r}")
under = {}
for k in m.get("kernels", []):
    for l in k["lines"]:
        where = under.setdefault(l["line"], {"ptx": [], "sass": []})
        where["ptx"] += l["ptx"]
        where["sass"] += l["sass"]
for rule in sys.argv[4:]:
    line, kind, pattern = rule.split(":", 2)
    if kind == "sass" and not expect_sass:
        continue
    note = None
    if " NOTE=" in pattern:
        pattern, note = pattern.split(" NOTE=", 1)
    found = [i for i in under.get(int(line), {}).get(kind, [])
             if re.search(pattern, i if kind == "ptx" else i["text"])]
    if not found:
        problems.append(f"no {kind} /{pattern}/ under line {line}: {under.get(int(line))}")
    elif note and not any(i["note"] == note for i in found):
        problems.append(f"{kind} /{pattern}/ under line {line} is not noted {note!r}: {found}")
listing = open(text, encoding="utf-8").read()
listing = listing[listing.find("machine code of "):]
for n, row in enumerate(listing.splitlines(), 1):
    if len(row) > 80:
        problems.append(f"text line {n} is {len(row)} columns: {row}")
for p in problems:
    print(f"FAIL: {r.get('file')}: {p}")
if not problems:
    print(f"ok: {r.get('file')}: {m['arch']}, {len(m['kernels'])} kernels, {len(sys.argv) - 4} rules"
          f"{'' if expect_sass else ' (PTX only: no nvdisasm here)'}")
sys.exit(1 if problems else 0)
