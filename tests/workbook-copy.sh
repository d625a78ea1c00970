# tests/workbook-copy.sh — sourced by the end-to-end scripts that work in a
# copy of the workbook (never the repo's own files): workbook_copy REPO DEST
# copies the files git tracks (and those it would: in a clean clone, the
# same) and the builds `make test` made before the scripts started — the
# simulator, every exercise's runner and judge, the harness's objects — with
# their times kept, so that the grader in the copy finds them up to date and
# compiles only what the script changes.
workbook_copy() {
	local repo=$1 dest=$2 part
	mkdir -p "$dest/build"
	(cd "$repo" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$dest"
	for part in sim/libcudasim.a sim/cudasim-rewrite sim/student.dynlist sim/student-pch sim/harness sim/runner sim/ref \
		sim/gold host judge gen; do
		if [ -e "$repo/build/$part" ]; then
			mkdir -p "$dest/build/$(dirname "$part")"
			cp -a "$repo/build/$part" "$dest/build/$part"
		fi
	done
}
