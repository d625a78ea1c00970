#!/usr/bin/env bash
# bench/gold/build.sh [VARIANT.cu ...]: build build/gold-bench/gold_bench, the
# benchmark of bench/gold/gold_bench.cu, from every graded exercise's check,
# reference solution (solutions/NAME.cu), gold solution (solutions/gold/NAME.cu)
# and the extra variants named (a file EXERCISE@LABEL.cu defining the
# exercise's launcher). Each solution's symbols are made local but its
# launcher, renamed, as the grader does, so they link into one program.
# Needs nvcc and the generated headers (build/gen/cudalings/, made by `make`
# and any grading). GOLD_ARCH picks the GPU (default sm_90), OUT_DIR the folder.
# EXERCISES="NAME ..." builds only those exercises; DEMOS="NAME ..." adds those demos: their check, solutions/NAME.cu as the
# reference and each demos/NAME/VARIANT.cu as a variant.
set -eu
cd "$(dirname "$0")/../.."
out=${OUT_DIR:-build/gold-bench}
arch=${GOLD_ARCH:-sm_90}
nvcc=${NVCC:-nvcc}
# as the grader builds a .cu for the GPU (harness/runner.mk)
nvcc_flags="$(sh tools/runner-flags.sh NVCC_FLAGS) $(sh tools/runner-flags.sh RUNNER_INCLUDES)"
mkdir -p "$out/obj"
[ -d build/gen/cudalings ] || { echo "build.sh: no build/gen/cudalings: run make and any grading first" >&2; exit 3; }
names=${EXERCISES-$(python3 -c 'import json; print(" ".join(i["name"] for i in json.load(open("workbook.json"))["items"] if i.get("kind", "exercise") == "exercise"))')}

jobs=${JOBS:-2}
objects=() launchers=()
# compile SOURCE LABEL EXERCISE: one launcher, renamed LABEL__EXERCISE_launch (in the background, JOBS at a time)
compile() {
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	compile_one "$@" &
}
compile_one() {
	local src=$1 label=$2 ex=$3 obj="$out/obj/$2__$3"
	"$nvcc" $nvcc_flags -arch="$arch" -c "$src" -o "$obj.raw.o"
	objcopy --redefine-sym "${ex}_launch=${label}__${ex}_launch" -G "${label}__${ex}_launch" "$obj.raw.o" "$obj.o"
}
for n in $names; do
	g++ -std=gnu++17 -O2 -fopenmp -I. -Ibuild/gen -c "harness/checks/$n.cpp" -o "$out/obj/check_$n.raw.o"
	objcopy --redefine-sym "check_definition=check__$n" "$out/obj/check_$n.raw.o" "$out/obj/check_$n.o"
	objects+=("$out/obj/check_$n.o")
	compile "solutions/$n.cu" ref "$n"
	objects+=("$out/obj/ref__$n.o")
	launchers+=("$n:reference:ref__${n}_launch")
	if [ -f "solutions/gold/$n.cu" ]; then
		compile "solutions/gold/$n.cu" gold "$n"
		objects+=("$out/obj/gold__$n.o")
		launchers+=("$n:gold:gold__${n}_launch")
	fi
done
for d in ${DEMOS:-}; do
	check=$(python3 -c 'import json, sys
print(next(i.get("check", i["name"]) for i in json.load(open("workbook.json"))["items"] if i["name"] == sys.argv[1]))' "$d")
	if ! printf '%s\n' "${objects[@]}" | grep -qx "$out/obj/check_$check.o"; then
		g++ -std=gnu++17 -O2 -fopenmp -I. -Ibuild/gen -c "harness/checks/$check.cpp" -o "$out/obj/check_$check.raw.o"
		objcopy --redefine-sym "check_definition=check__$check" "$out/obj/check_$check.raw.o" "$out/obj/check_$check.o"
		objects+=("$out/obj/check_$check.o")
	fi
	compile "solutions/$d.cu" ref "$d"
	objects+=("$out/obj/ref__$d.o")
	launchers+=("$d:reference:ref__${d}_launch")
	for v in demos/"$d"/*.cu; do
		label=$(basename "$v" .cu | tr -c 'a-zA-Z0-9_\n' _)
		compile "$v" "var_$label" "$d"
		objects+=("$out/obj/var_${label}__$d.o")
		launchers+=("$d:$label:var_${label}__${d}_launch")
	done
done
for v in "$@"; do
	base=$(basename "$v" .cu) ex=${base%@*} label=${base#*@}
	label=$(printf '%s' "$label" | tr -c 'a-zA-Z0-9_\n' _)
	compile "$v" "var_$label" "$ex"
	objects+=("$out/obj/var_${label}__$ex.o")
	launchers+=("$ex:$label:var_${label}__${ex}_launch")
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || exit 1; done
python3 bench/gold/plan.py workbook.json "$out/plan.inc" "${launchers[@]}"
gcc -std=gnu11 -O2 -I. -c harness/check.c -o "$out/obj/check.o"
g++ -std=gnu++17 -O2 -I. -Ibuild/gen -I"$(dirname "$(command -v "$nvcc")")/../include" \
	-c harness/physical/matmul.cpp -o "$out/obj/physical.o"
"$nvcc" -std=c++17 -O3 -arch="$arch" -Xcompiler -fopenmp -I. -Ibuild/gen -I"$out" \
	bench/gold/gold_bench.cu "$out/obj/check.o" "$out/obj/physical.o" "${objects[@]}" -lcublas -lgomp \
	-o "$out/gold_bench"
echo "built $out/gold_bench"
