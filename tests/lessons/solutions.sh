#!/usr/bin/env bash
# A lesson teaches the idea and leaves the code to the student: no lesson
# holds a line of the solution of its own exercise or of one after it in
# workbook.json (the hints are the place for code). A solution's lines are
# those between `BEGIN SOLUTION` and `STARTER` / `END SOLUTION` in
# solutions/NAME.cu that the starter does not already hold; a lesson's
# code is its fenced lines and its `code spans`. Both are compared
# normalized: comments, whitespace and casts dropped, the file's #define'd
# numbers put in and sums of numbers done, and every name the student
# chooses written `_` (CUDA's and C's own names stay). A piece of lesson
# code counts when it is a run of at least 5 tokens of such a line and
# covers 60% of it: `tile[32][33]` is most of the padded tile's declaration,
# where `__shfl_down_sync(mask, v, d)` names the intrinsic and leaves the
# line. Then, in a copy, lessons holding a solution's line renamed and
# spaced anew, and one holding a later exercise's line, must be caught.
# Ends with "solutions: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

check() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, re, sys
from pathlib import Path
workbook, slides, solutions = json.load(open(sys.argv[1]))["items"], Path(sys.argv[2]), Path(sys.argv[3])
demos = solutions.parent / "demos"

# C's and CUDA's own names: everything else is a name the student picks
KEEP = set("""int float double char void unsigned long short signed const static if else for while do return
break continue sizeof struct size_t float2 float4 int2 int4 dim3 bool true false threadIdx blockIdx blockDim
gridDim warpSize min max fminf fmaxf""".split())
TOKEN = re.compile(r"0[xX][0-9a-fA-F]+|\d+\.\d*f?|\d+|[A-Za-z_]\w*|<<=|>>=|<<<|>>>|<<|>>|\+\+|--|[-+*/%&|^!=<>]=|&&|\|\||->|\S")
CAST = re.compile(r"\((?:const\s+)?(?:size_t|int|unsigned|long long|long|float|float4|const float4 \*|float4 \*)\)")

def normalize(code, macros):
    code = re.sub(r"//.*|/\*.*?\*/", "", code)
    code = CAST.sub("", code)
    code = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", code)
    for name, value in macros.items():
        code = re.sub(r"\b%s\b" % re.escape(name), value, code)
    # sums of numbers: TILE + 1 is 33 once TILE is 32
    while True:
        folded = re.sub(r"(?<![\w.*/])(\d+) ?([-+]) ?(\d+)(?![\w.]| ?[*/])",
                        lambda m: str(int(m.group(1)) + (1 if m.group(2) == "+" else -1) * int(m.group(3))), code)
        if folded == code:
            break
        code = folded
    out, prev = [], None
    for t in TOKEN.findall(code):
        if re.match(r"[A-Za-z_]", t) and t not in KEEP and not t.startswith("__") and \
                not re.match(r"(cuda|atomic)[A-Z]", t) and prev != ".":
            t = "_"
        out.append(t)
        prev = t
    return out

def solution_lines(path):
    """The lines a solution adds to its starter, the #define'd numbers of the file, and the
    starter's own lines (its comments too): what the student's file already holds."""
    text = path.read_text()
    macros = dict(re.findall(r"^#define (\w+) (\d+)\b", text, re.M))
    new, given, state = [], [], "given"
    for line in text.splitlines():
        if "BEGIN SOLUTION" in line:
            state = "solution"
        elif re.search(r"//\s*STARTER\b", line):
            state = "starter"
        elif "END SOLUTION" in line:
            state = "given"
        elif state == "solution":
            new.append(line)
        else:
            given.append(re.sub(r"^(\s*)// ?", r"\1", line) if state == "starter" else line)
    starter = {tuple(normalize(l, macros)) for l in given}
    lines = [(l.strip(), normalize(l, macros)) for l in new]
    lines = [(l, n) for l, n in lines if len(n) >= 5 and tuple(n) not in starter]
    lines = [x for k, x in enumerate(lines) if x[1] not in [y[1] for y in lines[:k]]]
    return lines, macros, given

def run_of(piece, line):
    k = len(piece)
    return any(line[i:i + k] == piece for i in range(len(line) - k + 1))

def lesson_code(path):
    """(line number, code) for every fenced line and every code span."""
    fence = None
    for number, line in enumerate(path.read_text().splitlines(), 1):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m and (fence is None or line.strip().startswith(fence)):
            fence = None if fence else m.group(1)
            continue
        if fence:
            yield number, line
        else:
            for span in re.findall(r"`([^`]+)`", line):
                yield number, span

def holds(piece, line):
    """piece is a run of line's tokens, long enough to give it away."""
    return len(piece) >= 5 and len(piece) >= 0.6 * len(line) and run_of(piece, line)

def shown(piece, sources):
    """piece is already in the student's hands: in the starter, or in a demo's code shown before.
    sources is their lines' tokens as one text (runs_text): a run of tokens is a substring there."""
    return " %s " % " ".join(piece) in sources if piece else bool(sources)

def runs_text(lines):
    """Token lists as one text in which run_of(piece, line) for some line is `" " + " ".join(piece) + " "`
    occurring: no token holds whitespace, so a token never matches in part, nor a run across lines."""
    return "\n".join(" %s " % " ".join(line) for line in lines)

names = [i["name"] for i in workbook]
exercises, problems, compared = [], 0, 0
for position, item in enumerate(workbook):
    path = solutions / (item["name"] + ".cu")
    if item.get("kind") != "exercise" or not path.is_file():
        continue
    lines, macros, given = solution_lines(path)
    # what the student has before this exercise: its starter, comments and all, and the code
    # of every demo before it (row_sums' loop is col_sums' with the names swapped, on purpose)
    code = list(given)
    for demo in workbook[:position]:
        if demo.get("kind") == "demo":
            for f in [solutions / (demo["name"] + ".cu")] + sorted((demos / demo["name"]).glob("*.cu")):
                if f.is_file():
                    code += f.read_text().splitlines()
    sources = [normalize(l, macros) for l in code] + [normalize(re.sub(r"^\s*(/?\*+|//)", "", l).replace("//", ""), macros) for l in code]
    exercises.append((position, item["name"], lines, macros, runs_text(sources)))
for position, item in enumerate(workbook):
    lesson = slides / Path(item.get("lesson", "")).name
    if not item.get("lesson") or not lesson.is_file():
        continue
    for number, code in lesson_code(lesson):
        for at, name, lines, macros, sources in exercises:
            if at < position:
                continue
            piece = normalize(code, macros)
            compared += 1
            if shown(piece, sources):
                continue
            for original, line in lines:
                if holds(piece, line) or (len(line) >= 5 and holds(line, piece)):
                    print("%s:%d: `%s` gives away a line of solutions/%s.cu: %s (the hints are the place "
                          "for code)" % (lesson.name, number, code.strip(), name, original))
                    problems += 1
print("%d pieces of code compared, %d problems" % (compared, problems))
sys.exit(1 if problems else 0)
PY
}
expect 0 " 0 problems" -- check workbook.json slides solutions

# in a copy: a solution's line, renamed and spaced anew, in a code block and in a code span
mkdir -p "$tmp/bad"
cp slides/*.md "$tmp/bad/"
printf '\n```cuda\nfor (int k=0; k<32; k+=8)   // the loop\n```\n' >>"$tmp/bad/transpose_coarse.md"
expect 1 "transpose_coarse.md:[0-9]+: .* gives away a line of solutions/transpose_coarse.cu: for \(int j = 0; j < TILE; j \+= ROWS\)" \
	-- check workbook.json "$tmp/bad" solutions
printf '\nPad it: `float t[32][32 + 1]`.\n' >>"$tmp/bad/swap_shared.md"
# swap_shared comes before transpose: a later exercise's answer is given away too
expect 1 "swap_shared.md:[0-9]+: .* gives away a line of solutions/transpose.cu: __shared__ float tile\[TILE\]\[TILE \+ 1\];" \
	-- check workbook.json "$tmp/bad" solutions
cp slides/*.md "$tmp/bad/"
printf '\n`atomicAdd(&out[i], acc)`\n' >>"$tmp/bad/col_sums_split.md"
expect 1 "col_sums_split.md:[0-9]+: .* solutions/col_sums_split.cu: atomicAdd" -- check workbook.json "$tmp/bad" solutions
finish solutions
