#!/usr/bin/env bash
# cudalings board: the fixture folders (tests/board/transpose, col_sums: the
# grade JSONs a GPU batch writes, hand-made to cover every standing) ranked as
# the README says, the HTML page static and escaped, pseudonyms stable per
# student and salt, bad input with its exit status; then a real batch on the
# simulator, whose students have no time and are listed after.
set -u
cd "$(dirname "$0")/../.."
g=$PWD/build/cudalings
source tests/lib.sh
# the fixture copied, so that the salt the board keeps lands in the copy
cp -r tests/board/transpose tests/board/col_sums "$tmp/"
out=$(NO_COLOR=1 "$g" board "$tmp/transpose" "$tmp/col_sums" --html "$tmp/board.html")
ok_if $? "board on the fixture" "$out"
# the rows in order: rank, name, and the words that matter
python3 - "$out" <<'PY'
import re, sys
rows = [l.split() for l in sys.argv[1].splitlines() if re.match(r"^\s+(\d+|-)\s", l)]
got = [(r[0], r[1]) for r in rows]
want = [("1", "bob"), ("2", "ann"), ("-", "zoe"),
        ("1", "ann"), ("2", "chen"), ("2", "dana"), ("4", "bob"), ("5", "<img"),
        ("-", "judy"), ("-", "frank"), ("-", "ivan"), ("-", "grace"), ("-", "heidi")]
if got != want:
    print("rows", got, "\nwant", want)
    sys.exit(1)
PY
ok_if $? "the board's order (ties share a rank; the slow one ranked last; no time and wrong results after)" "$out"
grep -q "not-a-result\|gradebook" <<<"$out"
ok_if $((!$?)) "files that are not grade JSON are no students" "$out"
grep -qE "^ +4 +bob +88\.5 +66% +pass +pass$" <<<"$out"
ok_if $? "a row: rank, time, % of the limit, tier, verdict" "$out"
grep -qE "judy .*pass, not timed \(sim\)" <<<"$out" && grep -qE "zoe .*grader failed" <<<"$out" &&
	grep -qE "heidi .*nothing to grade" <<<"$out"
ok_if $? "the unranked say why" "$out"
python3 -c 'import sys; sys.exit(any(len(l) > 80 for l in sys.argv[1].splitlines()))' "$out"
ok_if $? "the table keeps to 80 columns" "$out"
html=$(cat "$tmp/board.html")
grep -qi "<script\|<img\|onerror=alert(1)>" <<<"$html"
ok_if $((!$?)) "the page has no script and escapes names" "$(grep -i 'img' <<<"$html")"
grep -q '&lt;img src=x onerror=alert(1)&gt; &amp; &#39;o&quot;neil&#39;' <<<"$html" && grep -q '<style>' <<<"$html" &&
	! grep -qE '<link|src="http|href="http' <<<"$html"
ok_if $? "the page is one file, inline CSS, the name escaped" "$html"
python3 -c 'import html.parser, sys; p = html.parser.HTMLParser(); p.feed(open(sys.argv[1]).read()); p.close()' "$tmp/board.html"
ok_if $? "the page parses"

# pseudonyms: stable per student and salt, no name left, the salt kept in the first folder and private
one=$(NO_COLOR=1 "$g" board "$tmp/transpose" "$tmp/col_sums" --pseudonyms --html "$tmp/p.html")
two=$(NO_COLOR=1 "$g" board "$tmp/transpose" "$tmp/col_sums" --pseudonyms)
[ "$(sed -e '$d' -e '/^$/d' <<<"$one")" = "$(sed '/^$/d' <<<"$two")" ] && [ "$(tail -1 <<<"$one")" = "board: $tmp/p.html" ]
ok_if $? "pseudonyms are the same from one run to the next" "$one"
[ "$(stat -c %a "$tmp/transpose/.board-salt")" = 600 ]
ok_if $? "the salt is kept, readable by its owner only" "$(ls -la "$tmp/transpose")"
grep -qwE "ann|bob|chen|dana|frank|grace|heidi|ivan|judy|zoe|onerror" <<<"$one$(cat "$tmp/p.html")"
ok_if $((!$?)) "no name is left on a board of pseudonyms" "$one"
a=$(NO_COLOR=1 "$g" board "$tmp/transpose" --pseudonyms --salt class-of-2026 | grep -E "^ +1 ")
b=$(NO_COLOR=1 "$g" board tests/board/transpose --pseudonyms --salt class-of-2026 | grep -E "^ +1 ")
c=$(NO_COLOR=1 "$g" board "$tmp/transpose" --pseudonyms --salt another | grep -E "^ +1 ")
[ "$a" = "$b" ] && [ "$a" != "$c" ] && grep -qE "^ +1 +[a-z]+-[a-z]+-[0-9a-f]{4} " <<<"$a"
ok_if $? "a given salt gives the same pseudonym anywhere, another salt another one" "$a / $b / $c"
# one student on two boards is one pseudonym
ann_t=$(NO_COLOR=1 "$g" board "$tmp/transpose" --pseudonyms --salt s | awk '$1 == 1 { print $2 }')
ann_c=$(NO_COLOR=1 "$g" board "$tmp/col_sums" --pseudonyms --salt s | awk '$1 == 2 { print $2 }')
[ -n "$ann_t" ] && [ "$ann_t" = "$ann_c" ]
ok_if $? "a student keeps one pseudonym across exercises" "$ann_t / $ann_c"

expect 2 "say which batch results" -- "$g" board
expect 2 "is not a folder of batch results" -- "$g" board "$tmp/nosuch"
mkdir "$tmp/empty"
expect 2 "holds no results of 'cudalings batch'" -- "$g" board "$tmp/empty"
expect 2 "unknown option '--fast'" -- "$g" board "$tmp/transpose" --fast
expect 2 "'--html' needs a value" -- "$g" board "$tmp/transpose" --html
expect 2 "--salt goes with --pseudonyms" -- "$g" board "$tmp/transpose" --salt x
expect 3 "cannot write the board to" -- "$g" board "$tmp/transpose" --html "$tmp/nosuch/board.html"
cp -r tests/board/col_sums "$tmp/locked" && chmod a-w "$tmp/locked"
if [ "$(id -u)" != 0 ]; then
	expect 3 "cannot keep the pseudonyms' salt" -- "$g" board "$tmp/locked" --pseudonyms
fi

# a real batch on the simulator: correct and wrong, neither timed
mkdir -p "$tmp/class"
cp solutions/matrix_add.cu "$tmp/class/kim.cu"
"$g" starter matrix_add >"$tmp/class/lee.cu"
"$g" batch matrix_add "$tmp/class" --out "$tmp/results" --backend sim --jobs 1 >/dev/null 2>&1
out=$(NO_COLOR=1 "$g" board "$tmp/results")
grep -qE "^ +- +kim .*pass, not timed \(sim\)" <<<"$out" && grep -qE "^ +- +lee .*fail at correctness" <<<"$out" &&
	[ "$(grep -nE ' kim ' <<<"$out" | cut -d: -f1)" -lt "$(grep -nE ' lee ' <<<"$out" | cut -d: -f1)" ]
ok_if $? "a simulator batch: every student unranked, passes first" "$out"
# a student gone from the folder is withdrawn in the gradebook and left off the board; back, they are on it
mv "$tmp/class/lee.cu" "$tmp/lee.cu"
"$g" batch matrix_add "$tmp/class" --out "$tmp/results" --backend sim --jobs 1 >/dev/null 2>&1
out=$(NO_COLOR=1 "$g" board "$tmp/results")
! grep -q ' lee ' <<<"$out" && grep -q '^lee,withdrawn,' "$tmp/results/gradebook.csv" && grep -q ' kim ' <<<"$out"
ok_if $? "a withdrawn student is left off the board" "$out"
mv "$tmp/lee.cu" "$tmp/class/lee.cu"
"$g" batch matrix_add "$tmp/class" --out "$tmp/results" --backend sim --jobs 1 >/dev/null 2>&1
out=$(NO_COLOR=1 "$g" board "$tmp/results")
grep -qE "^ +- +lee .*fail at correctness" <<<"$out"
ok_if $? "a student back again is on the board" "$out"
finish board
