#!/usr/bin/env bash
# Edit to verdict for every graded exercise: the solution, touched so it is
# compiled afresh, graded twice (first after an edit, then after another
# edit), on the backend given (sim by default). Prints a markdown table;
# with OUT set also writes it to $OUT/edit-to-verdict.md. A measurement,
# not a test: nothing here fails on a slow machine.
set -u
cd "$(dirname "$0")/.."
backend=${1:-sim}
g=build/cudalings
make -s build/cudalings sim >/dev/null || exit 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names=$($g list --json | python3 -c 'import json,sys; print(" ".join(i["name"] for i in json.load(sys.stdin)["items"] if i["kind"]=="exercise"))')
table="| exercise | first edit s | second edit s | verdict |
|---|---:|---:|---|"
for n in $names; do
	row="| $n"
	for edit in 1 2; do
		{ cat "solutions/$n.cu"; echo "// edit $edit $(date +%N)"; } >"$tmp/$n.cu"
		t0=$(date +%s.%N)
		verdict=$($g grade "$n" --file "$tmp/$n.cu" --backend "$backend" --json 2>/dev/null |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])' 2>/dev/null)
		t1=$(date +%s.%N)
		row="$row | $(python3 -c "print('%.2f' % ($t1 - $t0))")"
	done
	table="$table
$row | $verdict |"
done
out="## Edit to verdict, $backend backend, $(date -u +%Y-%m-%d), $(nproc) cores

$table"
printf '%s\n' "$out"
[ -n "${OUT:-}" ] && printf '%s\n' "$out" >"$OUT/edit-to-verdict.md"
exit 0
