#!/bin/bash
# The simulator built for aarch64 and run under qemu-user: its hand-written
# context switch and signal handling on the other architecture it supports.
# Needs gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu and qemu-user (Debian);
# says so and exits 0 where they are missing.
set -euo pipefail
cd "$(dirname "$0")/../../.."

for tool in aarch64-linux-gnu-gcc aarch64-linux-gnu-g++ qemu-aarch64; do
	if ! command -v "$tool" >/dev/null; then
		echo "skipped: no $tool (apt-get install gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user)"
		exit 0
	fi
done

out=build/aarch64/sim
mkdir -p "$out"
for src in sim/*.c; do	# the library's sources, as sim/sim.mk's SIM_SRCS
	aarch64-linux-gnu-gcc -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
		-DCUDASIM_BACKTRACE -c "$src" -o "$out/$(basename "$src" .c).o"
done
aarch64-linux-gnu-gcc -c sim/fiber_switch.S -o "$out/fiber_switch.o"
rm -rf "$out/libcudasim.a" "$out/bt" && mkdir -p "$out/bt"
(cd "$out/bt" && ar x "$(aarch64-linux-gnu-gcc -print-file-name=libbacktrace.a)")
ar rcs "$out/libcudasim.a" "$out"/*.o "$out"/bt/*.o
for cu in tests/sim/kernels/basics.cu tests/sim/kernels/errors.cu; do
	name=$(basename "$cu" .cu)
	build/sim/cudasim-rewrite "$cu" "$out/$name.cpp"
	aarch64-linux-gnu-g++ -std=gnu++17 -O1 -g -fno-omit-frame-pointer -Isim/include \
		-include cudasim.h -c "$out/$name.cpp" -o "$out/k_$name.o"
done
aarch64-linux-gnu-gcc -Isim/include -c tests/sim/aarch64/check.c -o "$out/test_check.o"
aarch64-linux-gnu-g++ -static -o "$out/check" "$out/test_check.o" "$out/k_basics.o" \
	"$out/k_errors.o" "$out/libcudasim.a" -lpthread -ldl 2>/dev/null
qemu-aarch64 "$out/check"
