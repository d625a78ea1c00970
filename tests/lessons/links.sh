#!/usr/bin/env bash
# Everything a lesson cites ships with the student copy: every file or
# folder a lesson names in `code` or links to, every bench file its figures
# come from, must be among the paths tools/dist.sh --list prints; and no
# lesson sends the student to material the copy does not hold (the
# project's MEASUREMENTS.md, "the seeds"). Then, in a copy of the slides,
# a lesson naming a file that does not ship must be caught.
# Ends with "links: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

if ! bash tools/dist.sh --list >"$tmp/shipped" 2>"$tmp/err"; then
	cat "$tmp/err"
	echo "links: tools/dist.sh --list failed (is build/cudalings built?)"
	exit 1
fi

check() {
	python3 - "$1" "$tmp/shipped" <<'PY'
import re, sys
from pathlib import Path
slides, shipped = Path(sys.argv[1]), set(Path(sys.argv[2]).read_text().split())
folders = {p.rsplit("/", 1)[0] + "/" for p in shipped if "/" in p}
for p in list(folders):
    while "/" in p.rstrip("/"):
        p = p.rstrip("/").rsplit("/", 1)[0] + "/"
        folders.add(p)
PATH = re.compile(r"^(?:\./)?[\w.-]+(?:/[\w.*-]+)+/?$|^[\w.-]+\.md$")
problems = named = 0
for lesson in sorted(slides.glob("*.md")):
    fenced = False
    for n, line in enumerate(lesson.read_text().splitlines(), 1):
        if re.match(r"^(```|~~~)", line):
            fenced = not fenced
            continue
        where = "%s:%d" % (lesson.name, n)
        m = re.match(r'^\[figures?\]: (\S+) ', line)
        candidates = [m.group(1)] if m and m.group(1) != "#" else []
        if not fenced and not line.startswith("["):
            for code in re.findall(r"`([^`]+)`", line):
                candidates += code.split()
            candidates += [t for t in re.findall(r"\]\(([^)\s]+)", line) if not re.match(r"^(\w+:|#)", t)]
            for word, pattern in (("MEASUREMENTS", r"\bMEASUREMENTS\b"), ("the seeds", r"(?i)\bthe seeds?\b")):
                if re.search(pattern, line):
                    print("%s: '%s': the student's copy holds no such material; cite a bench/ file, or name "
                          "the course the lesson follows" % (where, word))
                    problems += 1
        for c in candidates:
            c = c.strip(".,;:()")
            if not PATH.match(c) or c.startswith("build/") or c.startswith("/"):
                continue    # not a path, or what make builds
            named += 1
            c = c[2:] if c.startswith("./") else c
            if c not in shipped and not (c.endswith("/") and c in folders) and c + "/" not in folders:
                print("%s: names %s, which the student copy does not hold (tools/dist.sh --list)" % (where, c))
                problems += 1
print("%d paths named, %d problems" % (named, problems))
sys.exit(1 if problems else 0)
PY
}

expect 0 " 0 problems" -- check slides
# a bench file cited by a figure ships
expect 0 "^bench/" -- grep -m1 "^bench/" "$tmp/shipped"
mkdir -p "$tmp/bad"
printf '# b\n\nAs `solutions/wrong/col_sums/strided_lanes.cu` shows ([the numbers](bench/nowhere.md)),\nsee MEASUREMENTS.md and the seeds.\n' >"$tmp/bad/b.md"
expect 1 "b.md:3: names solutions/wrong/col_sums/strided_lanes.cu" -- check "$tmp/bad"
expect 1 "b.md:3: names bench/nowhere.md" -- check "$tmp/bad"
expect 1 "b.md:4: 'MEASUREMENTS'" -- check "$tmp/bad"
expect 1 "b.md:4: 'the seeds'" -- check "$tmp/bad"
finish links
