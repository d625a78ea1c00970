#!/usr/bin/env bash
# The layout the README's design section describes, checked: no file of
# grader/ longer than 600 lines (batch.c excepted, for now); no circle
# between grader/'s files (a file that uses, through others, what uses it —
# read from the objects' symbols with nm); the layers (lib/ includes nothing
# of the project but the exit statuses, common/ only lib/, the workbook
# nothing of the grader, the simulator or the harness, the grader nothing of
# the workbook); no two types of one name in grader/, tui/, common/ and lib/.
set -u
cd "$(dirname "$0")/.."
python3 - build/grader <<'PY'
import glob, os, re, subprocess, sys
objdir = sys.argv[1]
bad = []

for path in sorted(glob.glob("grader/*/*.[ch]")):
    n = sum(1 for _ in open(path, encoding="utf-8", errors="replace"))
    if n > 600 and os.path.basename(path) != "batch.c":
        bad.append(f"{path} is {n} lines (at most 600)")

# circles: an edge a -> b when a's object uses a symbol b's defines
objs = sorted(glob.glob(os.path.join(objdir, "*", "*.o")))
if not objs:
    bad.append(f"no objects in {objdir}: build first")
defs, uses = {}, {}
for o in objs:
    out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
    d, u = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TDBR":
            d.add(f[2])
        elif len(f) == 2 and f[0] == "U":
            u.add(f[1])
    defs[o], uses[o] = d, u
owner = {s: o for o, d in defs.items() for s in d}
edges = {o: {owner[s] for s in uses[o] if s in owner and owner[s] != o} for o in objs}
def reach(start):
    seen, todo = set(), [start]
    while todo:
        for w in edges[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen
reported = set()
for o in objs:
    r = reach(o)
    if o in r:
        circle = tuple(sorted(os.path.relpath(x, objdir)[:-2] for x in r if o in reach(x)))
        if circle not in reported:
            reported.add(circle)
            bad.append("a circle between grader/" + ", grader/".join(f + ".c" for f in circle))

# layers, by the project's headers each folder includes
allowed = {
    "lib": lambda h: h.startswith("lib/") or h == "common/exit.h",
    "common": lambda h: h.startswith(("lib/", "common/")),
    "tui": lambda h: not h.startswith(("grader/", "sim/", "harness/")),
    "grader": lambda h: not h.startswith("tui/"),
}
for folder, ok in allowed.items():
    for path in sorted(glob.glob(folder + "/*.[ch]") + glob.glob(folder + "/*/*.[ch]")):
        for h in re.findall(r'^#include "([^"]+)"', open(path, encoding="utf-8").read(), re.M):
            if "/" not in h:
                h = os.path.dirname(path) + "/" + h
            if not ok(h):
                bad.append(f"{path} includes {h}: {folder}/ may not")

# harness/ is on a runner's include path: a header named as a system one would shadow it
for path in sorted(glob.glob("harness/*.h")):
    name = os.path.basename(path)
    if any(os.path.exists(os.path.join(d, name)) for d in ("/usr/include", "/usr/include/x86_64-linux-gnu")):
        bad.append(f"{path} has a system header's name: <{name}> would find it")

# one name, one type
names = {}
for path in sorted(glob.glob("grader/*/*.[ch]") + glob.glob("tui/*.[ch]") + glob.glob("common/*.[ch]") +
                   glob.glob("lib/*.[ch]")):
    text = open(path, encoding="utf-8").read()
    for kind, name in re.findall(r'^(?:typedef\s+)?(struct|enum|union)\s+(\w+)\s*\{', text, re.M):
        names.setdefault(f"{kind} {name}", []).append(path)
    for name in re.findall(r'^typedef\s[^;{]*?\b(\w+)\s*;', text, re.M):
        names.setdefault(f"typedef {name}", []).append(path)
for name, paths in sorted(names.items()):
    if len(paths) > 1:
        bad.append(f"{name} is defined twice: {', '.join(paths)}")

for b in bad:
    print("  BAD  " + b)
print(f"layout: {len(objs)} objects of grader/, {len(names)} types; {len(bad)} problems")
sys.exit(1 if bad else 0)
PY
