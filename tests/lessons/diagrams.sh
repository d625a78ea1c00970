#!/usr/bin/env bash
# The lessons' diagrams and code blocks fit the workbook: every line of a
# fenced block fits an 80-column terminal as tui/markdown.c lays it out
# (the lesson at COLS - 3, a code block indented by 2), and a diagram
# (a ```text block) uses, beyond ASCII, only characters that the workbook's
# ASCII mode (tui/doc.c's table, for terminals that are not UTF-8) writes as
# one character, so its columns stay in line. Then, in a copy, a line too
# wide and a character without a one-column stand-in must each be caught.
# Ends with "diagrams: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

check() {
	python3 - "$1" tui/doc.c <<'PY'
import re, sys, unicodedata
from pathlib import Path
slides, doc = Path(sys.argv[1]), Path(sys.argv[2]).read_text()
# the ASCII mode's stand-ins, from the table in tui/doc.c: { 0x2500, "-" }
one = {int(cp, 16) for cp, s in re.findall(r'\{ 0x([0-9a-f]+), "((?:[^"\\]|\\.)*)" \}', doc)
       if len(s.encode().decode("unicode_escape")) == 1}
WIDTH = 80 - 3 - 2
problems = diagrams = 0
def width(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
for lesson in sorted(slides.glob("*.md")):
    fence, lang = None, ""
    for n, line in enumerate(lesson.read_text().splitlines(), 1):
        m = re.match(r"^(```+|~~~+)\s*(\S*)", line)
        if fence is None and m:
            fence, lang = m.group(1), m.group(2)
            diagrams += lang == "text"
            continue
        if fence is not None and line.startswith(fence):
            fence = None
            continue
        if fence is None:
            continue
        where = "%s:%d" % (lesson.name, n)
        if width(line.expandtabs(4)) > WIDTH:
            print("%s: %d columns, more than the %d an 80-column terminal shows" % (where, width(line), WIDTH))
            problems += 1
        bad = sorted({c for c in line if ord(c) > 127 and ord(c) not in one})
        if lang == "text" and bad:
            print("%s: %s has no one-column stand-in in the workbook's ASCII mode (tui/doc.c)" %
                  (where, " ".join("%r (U+%04X)" % (c, ord(c)) for c in bad)))
            problems += 1
print("%d diagrams, %d problems" % (diagrams, problems))
sys.exit(1 if problems else 0)
PY
}

expect 0 " 0 problems" -- check slides
mkdir -p "$tmp/wide" "$tmp/glyph"
printf '# w\n\n```text\n%s\n```\n' "$(printf '%076d' 0)" >"$tmp/wide/w.md"
expect 1 "w.md:4: 76 columns" -- check "$tmp/wide"
printf '# g\n\n```text\n lanes ▓▓▓▓ → sectors\n```\n' >"$tmp/glyph/g.md"
expect 1 "U\+2593.*U\+2192|U\+2192.*U\+2593" -- check "$tmp/glyph"
finish diagrams
