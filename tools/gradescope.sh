#!/usr/bin/env bash
# tools/gradescope.sh NAME [OUT] — a Gradescope autograder for one exercise,
# OUT/NAME.zip (default build/gradescope): upload it as the assignment's
# autograder ("Zip file upload"). It holds
#
#   setup.sh        run once when Gradescope builds the image: installs the
#                   Debian packages (tools/deps.sh build; a stock image has
#                   none of them), builds cudalings and the simulator,
#                   builds the reference from the solution and then deletes
#                   the solution, so no submission can read it
#   run_autograder  run per submission: grades /autograder/submission/*.cu
#                   with `cudalings batch` and writes
#                   /autograder/results/results.json
#   cudalings/      the student copy (tools/dist.sh) and solutions/NAME.cu
#
# The reference is built on Gradescope's own image rather than shipped as an
# object from here: its compiler and C++ library need not match this one's.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: tools/gradescope.sh NAME [OUT]}
out=${2:-build/gradescope}
die() { echo "gradescope: $*" >&2; exit 1; }

kind=$(build/cudalings list --json | python3 -c '
import json, sys
kinds = {item["name"]: item["kind"] for item in json.load(sys.stdin)["items"]}
print(kinds.get(sys.argv[1], "none"))' "$name")
[ "$kind" = exercise ] || die "'$name' is not an exercise of this workbook ('cudalings list' shows them)"

stage=$out/$name
rm -rf "$stage" "$out/$name.zip"
mkdir -p "$stage"
tools/dist.sh "$stage/dist" >/dev/null
mv "$stage/dist/cudalings" "$stage/cudalings"
rm -rf "$stage/dist"
mkdir -p "$stage/cudalings/solutions"
cp "solutions/$name.cu" "$stage/cudalings/solutions/"

cat >"$stage/setup.sh" <<EOF
#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image.
set -euo pipefail
cd "\$(dirname "\$0")/cudalings"
# what the grader and its runner need (tools/deps.sh's list: the compilers, cJSON, libseccomp for the
# runner's system-call filter, …), and python3 for run_autograder's own words when the grader cannot run
if [ -z "\${CUDALINGS_SKIP_APT:-}" ]; then
	export DEBIAN_FRONTEND=noninteractive
	sh tools/deps.sh build
	command -v python3 >/dev/null || { apt-get update -qq && apt-get install -y -qq python3 >/dev/null; }
fi
make -j"\$(nproc)" build/cudalings sim
# the reference, built here by the grader's own recipe; it must pass
build/cudalings grade $name --file solutions/$name.cu --backend sim
cp build/sim/ref/$name.raw.o shipped/sim/$name.o
rm -f solutions/$name.cu
chmod +x ../run_autograder
EOF

cat >"$stage/run_autograder" <<EOF
#!/usr/bin/env bash
# Gradescope runs this for every submission: grade it, write results.json.
set -u
ag=\${AUTOGRADER:-/autograder}
cd "\$ag/source/cudalings"
work=\$(mktemp -d)
trap 'rm -rf "\$work"' EXIT
mkdir -p "\$work/in/submission" "\$ag/results"
# the file to grade, whatever folders the upload holds: $name.cu at the top, else the one $name.cu
# anywhere, else the one .cu; several, each under a name of its own, and the batch says which it wants.
# Links are copied as links, which the batch refuses with its reason.
found=()
cd "\$ag/submission" 2>/dev/null && mapfile -t found < <(find . \( -type f -o -type l \) -iname '*.cu' | sort)
cd "\$ag/source/cudalings"
pick=()
for f in "\${found[@]}"; do [ "\$f" = "./$name.cu" ] && pick=("\$f"); done
if [ \${#pick[@]} = 0 ]; then
	for f in "\${found[@]}"; do [ "\$(basename "\$f")" = "$name.cu" ] && pick+=("\$f"); done
	[ \${#pick[@]} = 1 ] || pick=("\${found[@]}")
fi
for f in "\${pick[@]}"; do
	# several: named after their folders (sub/$name.cu as sub_$name.cu), so none overwrites another
	dest=\$([ \${#pick[@]} = 1 ] && basename "\$f" || { f2=\${f#./}; echo "\${f2//\//_}"; })
	cp -P "\$ag/submission/\$f" "\$work/in/submission/\$dest"
done
build/cudalings batch $name "\$work/in" --out "\$work/out" --jobs 1 >"\$work/log" 2>&1
cat "\$work/log"
if [ -f "\$work/out/gradescope/submission/results.json" ]; then
	cp "\$work/out/gradescope/submission/results.json" "\$ag/results/results.json"
else
	# the grader itself could not run: say so, with what it printed
	python3 -c '
import json, sys
print(json.dumps({"score": 0, "output": "the autograder could not grade this submission:\\n" + open(sys.argv[1]).read(), "tests": []}))' \\
		"\$work/log" >"\$ag/results/results.json"
fi
EOF
chmod +x "$stage/setup.sh" "$stage/run_autograder"

# python3's zipfile keeps the files' modes, so the scripts stay executable
(cd "$stage" && python3 -c '
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for top in ("setup.sh", "run_autograder", "cudalings"):
        if os.path.isfile(top):
            z.write(top)
            continue
        for folder, _, names in sorted(os.walk(top)):
            for n in sorted(names):
                z.write(os.path.join(folder, n))' "../$name.zip")
echo "gradescope: $out/$name.zip (setup.sh, run_autograder, cudalings/)"
