#!/bin/bash
# The workbook's two views of a kernel, line by line, in tmux: `m` (where the
# memory time goes, from the `lines` of the last grading kept in the progress,
# as the real grader wrote them for an uncoalesced col_sums) and `a` (the
# machine code, from `cudalings sass`, built again only when the file or the
# width changes), over the TUI's fixture workbook (tests/tui/fixtures/).
set -u
source "$(dirname "$0")/../tui/tmux.sh"

grader=$repo/build/cudalings
[ -x "$grader" ] || { echo "$0: $grader is not built (make)" >&2; exit 1; }
wb=$work/wb
cp -r "$repo/tests/tui/workbook" "$wb"
mkdir -p "$wb/.cudalings/reports"
# a grading as the real grader reports it, of the file the workbook now holds
kernel=$repo/tests/mistakes/col_sums/lanes_far_apart.cu
cp "$kernel" "$wb/exercises/col_sums.cu"
(cd "$repo" && "$grader" grade col_sums --file "$kernel" --backend sim --json 2>/dev/null) |
	python3 -c '
import json, sys
r = json.load(sys.stdin)
for o in [r] + r["lines"]:
    o["file"] = "exercises/col_sums.cu"
print(json.dumps(r))' \
	>"$wb/.cudalings/reports/col_sums.json"
hot=$(python3 -c 'import json, sys; print(" ".join(str(l["line"]) for l in json.load(open(sys.argv[1]))["lines"] if l["hot"]))' \
	"$wb/.cudalings/reports/col_sums.json")
# row_sums graded on a GPU without --lines: measured nothing, and says why
printf '%s\n' '{"exercise":"row_sums","file":"exercises/row_sums.cu","backend":"gpu","verdict":"pass","stage":null,' \
	'"message":"ok","cases":[],"performance":"pass","timing":null,"diagnostics":[],"lines":[],' \
	'"lines_measured":{"source":null,"note":null,"why_not":"on a GPU the figures per line come from Nsight Compute: grade with --lines"}}' \
	>"$wb/.cudalings/reports/row_sums.json"
printf '{"version": 1, "items": {"col_sums": {"status": "failing"}, "row_sums": {"status": "passed_on_gpu"}}}\n' \
	>"$wb/.cudalings/state.json"
env="CUDALINGS_GRADER='$repo/tests/views/fake-cudalings'"

echo "== the heat map of the last grading"
start "$wb" "$env"
wait_for "lessons and exercises"
keys j m
wait_for "Where the memory time goes"
check "the grading marks line 21 hot" '[ "$hot" = 21 ]'
wait_for "!! line 21: global load, 32.0 sectors/req, 4.0 needed"
keys G
wait_for "!!    21"
# the whole page, once drawn (a loaded machine may show it in parts): polled, as every check of the screen here
other_hot() { [ "$(screen | grep -c "^ !! ")" -gt 2 ] || screen | grep -qE "^ !! +(1[0-9]|2[02-9]) "; }
check "no other line is marked" "wait_until 60 ! other_hot"
store_row() { screen | grep -qE "global store +32\.0 sectors/req, 4\.0 needed +█* +[0-9]+%"; }
check "the store under line 22 has its row and bar" "wait_until 60 store_row"
echo "== the machine code, built once, then again for a new width or a new file"
# sass.calls gets its line before the listing is printed (tests/views/fake-cudalings): once the listing is on
# a screen drawn after the key, the call that drew it is counted
calls() { [ "$(wc -l <"$wb/sass.calls" 2>/dev/null)" = "$1" ]; }
# again: leave the listing (q), and see it gone, before asking for it again (a); else the old listing, still on
# the screen, would pass for the new one
again() {
	keys q
	wait_until 60 ! shows "machine code of exercises/col_sums.cu" || bad "q did not leave the machine code:" "$(screen)"
	keys a
	wait_for "LDG.E R9"
}
keys a
wait_for "machine code of exercises/col_sums.cu"
wait_for "LDG.E R9"
check "cudalings sass ran once, at the screen's width" '[ "$(cat "$wb/sass.calls")" = "sass col_sums --width 77" ]'
again
check "shown again without building again" "calls 1"
echo "// changed" >>"$wb/exercises/col_sums.cu"
again
check "built again for a changed file" "calls 2"
echo "== what is not measured says why"
keys q q j m
wait_for "Not measured: on a GPU the figures per line come from Nsight Compute"
keys q
keys ?
wait_for "where the memory time goes, line by line"
finish views
