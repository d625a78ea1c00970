#!/usr/bin/env bash
# Side doors into a pass or into what a student is shown, closed: a
# submission that is a symbolic link, or lies under one, is refused with its
# reason (grade --file and batch alike); a compile error in a file the
# student may not read names that file and never quotes it; nothing a
# student sees from a batch (the gradebook's message, Gradescope's results)
# holds a path of the instructor's machine. On the simulator; no GPU.
set -u
cd "$(dirname "$0")/../.." && . tests/lib.sh
g=$repo/build/cudalings
ex=col_sums
cd "$tmp"

# ------------------------------------------------------------ links
ln -s "$repo/solutions/$ex.cu" linked.cu
mkdir -p real && ln -s "$repo/solutions" real/answers
ln -s "$repo/solutions" answers
expect 2 "'linked.cu' is a symbolic link" -- "$g" grade $ex --file linked.cu
expect 2 "'$tmp/linked.cu' is a symbolic link" -- "$g" grade $ex --file "$tmp/linked.cu"
expect 2 "'answers/$ex.cu' lies under a symbolic link \('answers'\)" -- "$g" grade $ex --file "answers/$ex.cu"
expect 2 "lies under a symbolic link \('real/answers'\)" -- "$g" grade $ex --file "real/answers/$ex.cu"

# a class: a linked file, a linked folder, a link inside a real folder; none is graded, each row says why
class=$tmp/class
mkdir -p "$class/cy"
ln -s "$repo/solutions/$ex.cu" "$class/ann.cu"
ln -s "$repo/solutions" "$class/bob"
ln -s "$repo/solutions/$ex.cu" "$class/cy/$ex.cu"
expect 0 "3 submissions: 3 graded now" -- "$g" batch $ex "$class" --out "$tmp/out"
grep -q "^ann,fail,submission,.*'ann.cu' is a symbolic link.*,yes,link" "$tmp/out/gradebook.csv" && ok || bad "ann's link: $(cat "$tmp/out/gradebook.csv")"
grep -q "^bob,fail,submission,.*lies under a symbolic link ('bob')" "$tmp/out/gradebook.csv" && ok || bad "bob's folder link"
grep -q "^cy,fail,submission,.*'cy/$ex.cu' is a symbolic link" "$tmp/out/gradebook.csv" && ok || bad "cy's link in a folder"
grep -q ',pass,' "$tmp/out/gradebook.csv" && bad "a linked submission passed" || ok

# ------------------------------------------------------------ what compile errors quote
printf 'SECRET_WORD_%s is the answer\nint secret_value = 42 +;\n' 7 >"$tmp/secret.txt"
leaks() { # leaks FILE...: whether any of them shows the secret's text
	grep -l "SECRET_WORD_7\|secret_value\|is the answer" "$@" >/dev/null 2>&1
}
{ echo "#include \"$tmp/secret.txt\""; cat "$repo/solutions/$ex.cu"; } >"$tmp/include.cu"
"$g" grade $ex --file include.cu >"$tmp/include.out" 2>&1
status=$?
[ "$status" = 1 ] && ok || bad "an include of another file: status $status"
leaks "$tmp/include.out" && bad "a compile error quotes an included file: $(cat "$tmp/include.out")" || ok
grep -q "$tmp/secret.txt:1: error in a file that is neither yours" "$tmp/include.out" && ok ||
	bad "the included file is not named: $(cat "$tmp/include.out")"
"$g" grade $ex --file include.cu --json >"$tmp/include.json" 2>&1
leaks "$tmp/include.json" && bad "the JSON quotes an included file" || ok
# the student's own mistakes are still shown whole, source line and all
{ cat "$repo/solutions/$ex.cu"; echo "int mine = 1 +;"; } >"$tmp/own.cu"
expect 1 "int mine = 1 \+;" -- "$g" grade $ex --file own.cu

# ------------------------------------------------------------ no path of this machine in what students see
class2=$tmp/class2
mkdir -p "$class2/dee"
{ echo "#include \"$tmp/secret.txt\""; cat "$repo/solutions/$ex.cu"; } >"$class2/dee/$ex.cu"
{ cat "$repo/solutions/$ex.cu"; echo "int mine = 1 +;"; } >"$class2/eve.cu"
expect 0 "2 submissions: 2 graded now" -- "$g" batch $ex "$class2" --out "$tmp/out2"
for f in "$tmp/out2/gradebook.csv" "$tmp/out2/gradescope/dee/results.json" "$tmp/out2/gradescope/eve/results.json"; do
	# the path dee's include wrote is hers to see named; any other is the machine's
	if sed "s|$tmp/secret.txt||g" "$f" | grep -q "$tmp\|$repo"; then bad "$(basename "$(dirname "$f")")/$(basename "$f") names a path of this machine: $(grep -o ".\{40\}$tmp.\{20\}" "$f" | head -2)"; else ok; fi
	leaks "$f" && bad "$f quotes the included file" || ok
done
grep -q '^eve,fail,compile,.*eve.cu does not compile: eve.cu:' "$tmp/out2/gradebook.csv" && ok ||
	bad "eve's row does not name her file as the class folder does: $(grep ^eve "$tmp/out2/gradebook.csv")"

echo "doors: $passed passed, $failed failed"
[ "$failed" = 0 ]
