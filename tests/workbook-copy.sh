# tests/workbook-copy.sh — sourced by the end-to-end scripts that work in a
# copy of the workbook (never the repo's own files): workbook_copy REPO DEST
# copies the files git tracks (and those it would: in a clean clone, the
# same) and the builds `make test` made before the scripts started — the
# simulator, every exercise's runner and judge, the harness's objects — with
# their times kept, so that the grader in the copy finds them up to date and
# compiles only what the script changes; nvcc's cached judgements are shared
# with REPO. workbook_files REPO lists those files.

# workbook_files REPO: the workbook's files, NUL-separated and relative to REPO: those git tracks (and
# those it would), or, where REPO is no git checkout or git is not installed (a bare machine, a copy
# unpacked from an archive), every file but .git and what REPO's .gitignore names
workbook_files() {
	local repo=$1 line prune=()
	if command -v git >/dev/null && git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$repo" ls-files -z -co --exclude-standard
		return
	fi
	while IFS= read -r line; do
		case $line in
		'' | '#'*) ;;
		/*/) prune+=(-o -path "./${line:1:-1}") ;;
		/*) prune+=(-o -path "./${line:1}") ;;
		*) prune+=(-o -name "$line") ;;
		esac
	done < <(cat "$repo/.gitignore" 2>/dev/null)
	(cd "$repo" && find . \( -path ./.git "${prune[@]}" \) -prune -o -type f -printf '%P\0')
}

workbook_copy() {
	local repo=$1 dest=$2 part
	mkdir -p "$dest/build"
	workbook_files "$repo" | tar -C "$repo" --null -T - -cf - | tar -xf - -C "$dest"
	for part in sim/libcudasim.a sim/cudasim-rewrite sim/student.dynlist sim/student-pch sim/harness sim/runner sim/ref \
		sim/gold host judge gen; do
		if [ -e "$repo/build/$part" ]; then
			mkdir -p "$dest/build/$(dirname "$part")"
			cp -a "$repo/build/$part" "$dest/build/$part"
		fi
	done
	# nvcc's judgements of files, keyed by what nvcc read (grader/compile/frontend_cache.c): shared, not
	# copied, so that a file the repo's suites graded is not read by nvcc again in the copy, nor the reverse
	mkdir -p "$repo/build/cache"
	ln -s "$(cd "$repo/build/cache" && pwd)" "$dest/build/cache"
}
