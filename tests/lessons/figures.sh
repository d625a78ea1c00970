#!/usr/bin/env bash
# A lesson's measured figures agree with the bench files they cite, and
# every bench file a lesson names is there (tools/lesson-figures.py). Then,
# in a copy: a figure of a table and a figure of a sentence changed in their
# bench file, a bench file removed, a bench file that names no date, a
# figure with no marker and a section that does not name the GPU must each
# be caught, and --write must put the figures right.
# Ends with "figures: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
# a fresh copy of the lessons, the bench files and the tool
fresh() {
	rm -rf "$tmp/w"
	mkdir -p "$tmp/w/tools"
	cp -r slides bench workbook.json "$tmp/w/"
	cp tools/lesson-figures.py "$tmp/w/tools/"
}
tool() { python3 "$tmp/w/tools/lesson-figures.py" "$@"; }
# bench/ file, first figure in it written as NNN.N, changed in its last digit
bump() {
	python3 - "$1" <<'PY'
import re, sys
p = sys.argv[1]; s = open(p).read()
open(p, "w").write(re.sub(r"\| (\d+)\.(\d) \|", lambda m: "| %s.%d |" % (m.group(1), (int(m.group(2)) + 1) % 10), s, count=1))
PY
}

expect 0 " 0 problems" -- python3 tools/lesson-figures.py

# a whole table: bank-conflicts-h100.md's first time
fresh
bump "$tmp/w/bench/bank-conflicts-h100.md"
expect 1 "transpose.md:[0-9]+: the table from bench/bank-conflicts-h100.md differs" -- tool
expect 0 "wrote slides/transpose.md" -- tool --write
expect 0 " 0 problems" -- tool

# a figure in a sentence: the H100's col_sums time, quoted in col_sums.md and row_sums.md
fresh
sed -i 's/| solutions\/col_sums.cu | pass | pass | 655.7 |/| solutions\/col_sums.cu | pass | pass | 655.9 |/' \
	"$tmp/w/bench/gpu-results-h100.md"
expect 1 "col_sums.md:[0-9]+: file=solutions/col_sums.cu: µs is 655.9 in bench/gpu-results-h100.md, not 655.7" -- tool
expect 0 "wrote slides/col_sums.md" -- tool --write
expect 0 " 0 problems" -- tool
expect 0 "655.9" -- grep -h "^| column sums, one thread per column |" "$tmp/w/slides/col_sums.md"

# a table of some rows: the coalescing demo's, of the demos the H100 run printed
fresh
printf '\n## On an H100\n\n[figures]: bench/gpu-results-h100.md "variant, µs"\n[figure rows]: # "demo=coalescing"\n\n[end figures]: #\n' \
	>>"$tmp/w/slides/vocabulary.md"
expect 0 "wrote slides/vocabulary.md" -- tool --write
expect 0 " 0 problems" -- tool
expect 0 "^3$" -- grep -c "^| solutions/coalescing.cu |\|^| demos/coalescing/" "$tmp/w/slides/vocabulary.md"
sed -i 's/"demo=coalescing"/"demo=nothing_like_it"/' "$tmp/w/slides/vocabulary.md"
expect 1 "has no row with demo=nothing_like_it" -- tool

# rows left out: transpose.md shows the conflicted widths, not its exercise's answer
expect 1 "^0$" -- grep -c "^| 33 | none |" slides/transpose.md
fresh
sed -i 's/"conflict on a column read!=none"/"conflict on a column read=none"/' "$tmp/w/slides/transpose.md"
expect 1 "transpose.md:[0-9]+: the table from bench/bank-conflicts-h100.md differs" -- tool
expect 0 "wrote slides/transpose.md" -- tool --write
expect 0 "^\| 33 \| none \|" -- grep "^| 33 | none |" "$tmp/w/slides/transpose.md"

# a cited bench file removed
fresh
rm "$tmp/w/bench/bank-conflicts-h100.md"
expect 1 "cites bench/bank-conflicts-h100.md, which is missing" -- tool

# a bench file that does not say when it was measured
fresh
sed -i 's/2026-11-24/the other day/' "$tmp/w/bench/bank-conflicts-h100.md"
expect 1 "bank-conflicts-h100.md names no date" -- tool

# a measured figure with no marker
fresh
printf '\nOn my laptop it took 12.5 µs, 3.1× faster.\n' >>"$tmp/w/slides/vocabulary.md"
expect 1 "vocabulary.md:[0-9]+: '12.5 µs' is a measured figure with no marker" -- tool
expect 1 "vocabulary.md:[0-9]+: '3.1×' is a measured figure with no marker" -- tool

# a marker right after a line of text is no definition: Markdown shows it
fresh
printf 'A paragraph\n[figure]: # "a quoted figure = 1"\n\n1 of them.\n' >>"$tmp/w/slides/vocabulary.md"
expect 1 "vocabulary.md:[0-9]+: a figure marker right after text shows" -- tool

# a figure whose section does not say which GPU measured it
fresh
sed -i 's/on an H100 (`bench\/gpu-results-h100.md`):/(`bench\/gpu-results-h100.md`):/' "$tmp/w/slides/matrix_add.md"
expect 1 "matrix_add.md:[0-9]+: the figures from bench/gpu-results-h100.md were measured on an H100" -- tool

# --cited lists what tools/dist.sh ships
expect 0 "^bench/bank-conflicts-h100.md$" -- python3 tools/lesson-figures.py --cited
finish figures
