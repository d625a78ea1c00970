#!/usr/bin/env bash
# Every lesson comes after those it builds on. Each lesson declares, as
# data, under its title:
#   [builds on]: # "col_sums, occupancy, indices_2d"
#   [introduces]: # "blockIdx.y, dim3"          (optional)
# (link reference definitions: the workbook shows neither). Then:
#   - every item of workbook.json has its lesson and its `builds on` line
#     (empty only for the first), naming items that stand before it;
#   - a lesson whose code (its fenced blocks) uses a name that another
#     lesson introduces builds on that lesson, directly or through others:
#     col_sums_split's grid diagram counts `blockIdx.y`, so it must follow
#     indices_2d.
# Then, in copies: a lesson moved before one it builds on, a lesson whose
# code uses a name before its introduction, and a lesson with no `builds
# on` must each be caught. Ends with "order: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

check() {
	python3 - "$1" "$2" <<'PY'
import json, re, sys
from pathlib import Path
items, slides = json.load(open(sys.argv[1]))["items"], Path(sys.argv[2])
names = [i["name"] for i in items]
MARK = re.compile(r'^\[(builds on|introduces)\]: # "([^"]*)"$', re.M)
builds, introduces, code, problems = {}, {}, {}, 0
for position, item in enumerate(items):
    path = slides / Path(item.get("lesson", "%s.md" % item["name"])).name
    if not path.is_file():
        print("%s: no lesson %s" % (item["name"], path))
        problems += 1
        continue
    text = path.read_text()
    marks = {kind: [n.strip() for n in value.split(",") if n.strip()] for kind, value in MARK.findall(text)}
    if "builds on" not in marks:
        print('%s: no [builds on]: # "..." line under its title: which lessons does it need first?' % path.name)
        problems += 1
    elif not marks["builds on"] and position > 0:
        print("%s: builds on nothing, and it is not the first lesson" % path.name)
        problems += 1
    builds[item["name"]] = marks.get("builds on", [])
    for concept in marks.get("introduces", []):
        introduces[concept] = item["name"]
    fenced, lines = False, []
    for line in text.splitlines():
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
        elif fenced:
            lines.append(line)
    code[item["name"]] = "\n".join(lines)
for position, name in enumerate(names):
    for need in builds.get(name, []):
        if need not in names:
            print("%s builds on %s, which workbook.json does not hold" % (name, need))
            problems += 1
        elif names.index(need) >= position:
            print("%s (item %d) builds on %s (item %d): put %s first" %
                  (name, position + 1, need, names.index(need) + 1, need))
            problems += 1

def reaches(name, target, seen=()):
    return name == target or any(reaches(n, target, seen + (name,)) for n in builds.get(name, []) if n not in seen)

for name in names:
    for concept, where in sorted(introduces.items()):
        if re.search(r"(?<![\w.])%s(?!\w)" % re.escape(concept), code.get(name, "")) and not reaches(name, where):
            print("%s: its code uses %s, which %s introduces, and it does not build on %s" %
                  (name, concept, where, where))
            problems += 1
print("%d lessons, %d declared dependencies, %d problems" %
      (len(builds), sum(len(v) for v in builds.values()), problems))
sys.exit(1 if problems else 0)
PY
}

expect 0 " 0 problems" -- check workbook.json slides

# col_sums_split moved back before indices_2d, as it once stood
python3 - workbook.json "$tmp/moved.json" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))
names = [i["name"] for i in w["items"]]
split = w["items"].pop(names.index("col_sums_split"))
w["items"].insert(names.index("indices_2d"), split)
json.dump(w, open(sys.argv[2], "w"))
PY
expect 1 "col_sums_split \(item [0-9]+\) builds on indices_2d \(item [0-9]+\): put indices_2d first" \
	-- check "$tmp/moved.json" slides

# a lesson whose code uses a name it does not build on; a lesson with no declaration
mkdir -p "$tmp/bad"
cp slides/*.md "$tmp/bad/"
printf '\n```cuda\ndim3 grid(4, 4);\n```\n' >>"$tmp/bad/col_sums.md"
expect 1 "col_sums: its code uses dim3, which indices_2d introduces" -- check workbook.json "$tmp/bad"
sed -i '/^\[builds on\]: /d' "$tmp/bad/matmul.md"
expect 1 'matmul.md: no \[builds on\]' -- check workbook.json "$tmp/bad"
finish order
