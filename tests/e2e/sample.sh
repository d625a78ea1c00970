#!/usr/bin/env bash
# The judge's sample of a large timed output (harness/cases.c's cases_sample):
# for transpose's 4096 x 4096 timed case and its judged round it sends
# PROTO_SAMPLE_CHUNKS chunks in increasing order, the first at 0 and the last
# ending at the output's end, different for the two cases and for two seeds,
# and expected values for exactly those elements; a correctness case is
# judged whole. The runner gathers the same chunks on a GPU (tests/gpu/run.sh
# grades the timed cases there); tests/unit/compare.c checks that a sample's
# mismatches are named by the output's own rows and columns. A reference
# may compute only the sampled rows (check_row_judged): matmul's expected
# values of a sampled timed case all carry a rounding bound, so none lies in
# a row it skipped.
set -u
cd "$(dirname "$0")/../.."
build/cudalings prepare --backend sim --quiet || exit 1
# Python that reads a judge's channel from stdin: messages() yields each message's kind, case, aux and payload
messages='
import re, struct, sys
# the message numbers, from the enum in harness/protocol.h
names = re.findall(r"^\s*(MSG_[A-Z_]+)", open("harness/protocol.h").read().split("MSG_HELLO = 1")[1].split("};")[0], re.M)
number = {name: i + 2 for i, name in enumerate(names)}
def messages():
    data, at = sys.stdin.buffer.read(), 0
    while at < len(data):
        magic, kind, case, aux, length = struct.unpack_from("<IIIIQ", data, at)
        assert magic == 0x43554c47, "framing"
        yield kind, case, aux, data[at + 24:at + 24 + length]
        at += 24 + length
'
first_chunks() {
	build/judge/transpose --seed "$1" --rtol 1e-5 --atol 0 --case 31,33 --timed 4096,4096 --check-round 3 \
		--channel 1 | python3 -c "$messages"'
samples, expected = {}, {}
for kind, case, aux, payload in messages():
    length = len(payload)
    if kind == number["MSG_SAMPLE"]:
        samples[(case, aux)] = [struct.unpack_from("<QQ", payload, i) for i in range(0, length, 16)]
    elif kind == number["MSG_EXPECTED"]:
        expected[(case, aux)] = length // 16
n = 4096 * 4096
assert set(samples) == {(1, 1), (2, 1)}, "a sample of the timed case and of its round: %s" % sorted(samples)
assert expected[(0, 1)] == 31 * 33, "a correctness case is judged whole"
for key, chunks in samples.items():
    assert len(chunks) == 256 and all(c == 4096 for _, c in chunks), key
    assert chunks[0][0] == 0 and chunks[-1][0] + chunks[-1][1] == n, "the first and the last chunk"
    assert all(a[0] + a[1] <= b[0] for a, b in zip(chunks, chunks[1:])), "increasing and disjoint"
    assert expected[key] == 256 * 4096, "expected values for the sampled elements alone"
assert samples[(1, 1)] != samples[(2, 1)], "the timed case and its round differ"
print(" ".join(str(s) for s, _ in samples[(1, 1)][1:6]))'
}
a=$(first_chunks 11) || { echo "sample: FAIL (seed 11)"; exit 1; }
b=$(first_chunks 12) || { echo "sample: FAIL (seed 12)"; exit 1; }
if [ "$a" = "$b" ]; then
	echo "sample: FAIL: two seeds drew the same chunks ($a)"
	exit 1
fi
# matmul skips the rows no chunk touches: every sampled element must lie in one it computed
build/judge/matmul --seed 7 --rtol 1e-5 --atol 0 --case 3,4,5 --timed 2100,4,1100 --check-round 2 --channel 1 |
	python3 -c "$messages"'
checked = 0
for kind, case, aux, payload in messages():
    length = len(payload)
    if kind == number["MSG_EXPECTED"] and case >= 1:
        assert length // 16 == 256 * 4096, "case %d is sampled" % case
        bounds = [struct.unpack_from("<dd", payload, i)[1] for i in range(0, length, 16)]
        assert min(bounds) > 0, "case %d: an expected value with no bound: a skipped row was sent" % case
        checked += 1
assert checked == 2, "the timed case and its round"' || { echo "sample: FAIL (matmul: sampled rows)"; exit 1; }
echo "sample: 3 passed, 0 failed"
