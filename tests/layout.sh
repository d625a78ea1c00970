#!/usr/bin/env bash
# The layout the README's design section describes, checked over every folder:
# - no file of code longer than 600 lines, but for the exceptions named below,
#   each with its reason (an exception no longer needed is a failure too);
# - every include names its folder from the root ("harness/protocol.h"), so a
#   reader and the compiler find it the same way; sim/ and any .cu may name
#   their own folder's headers alone (they are also compiled as submissions,
#   where the root is not on the include path), and a check the check it
#   builds on (of its own workbook, which may lie outside this root);
# - the layers: lib/ includes nothing of the project, common/ only lib/, the
#   workbook (tui/) nothing of the grader, the simulator or the harness, the
#   simulator and the harness nothing of the grader or the workbook, the grader
#   nothing of the workbook;
# - no circle between the modules of lib/, common/, grader/ and tui/ (a file
#   that uses, through others, what uses it: read from the objects' symbols
#   with nm), and none between grader/'s modules or its folders through their
#   includes (the folders' exceptions named below); a
#   module is a .c and its .h, and the files that share its private header
#   (NAME_private.h, NAME_state.h) or that are named below as its parts;
# - no two types of one name in grader/, tui/, common/ and lib/;
# - paths under build/ named through BUILD_DIR (harness/runner.mk), never spelt out;
# - one of each in lib/, common/, grader/, tui/ and the rewriter (sim/rewrite/):
#   no process started but by lib/'s spawner, no buffer zeroed instead of BUF_INIT;
#   and, there and in sim/, no array counted by hand instead of by ARRAY_SIZE.
set -u
cd "$(dirname "$0")/.."
python3 - build <<'PY'
import glob, os, re, subprocess, sys
build = sys.argv[1]
bad = []

def tracked():
    try:
        out = subprocess.run(["git", "ls-files"], capture_output=True, text=True).stdout.split()
    except OSError:
        out = []  # no git on a bare machine
    if out:
        return [f for f in out if os.path.isfile(f)]
    # not a clone (a student copy, a bare root's copy): every file but the build's
    return [os.path.relpath(os.path.join(d, f)) for d, dirs, files in os.walk(".")
            for f in files if not d.startswith(("./build", "./.git", "./.gpu"))]
files = tracked()

# ---------------------------------------------------------------- 600 lines
LIMIT = 600
CODE = re.compile(r"\.(c|h|cpp|cc|cu|cuh|inc|S|sh|py|awk|mk)$|(^|/)Makefile$")
LONG = {
    "sim/include/cudasim.h": "the CUDA runtime's API as the simulator gives it: the one header a submission "
                             "includes, precompiled for its compile, as the toolkit's cuda_runtime.h is one",
    "tests/sim/semantics.c": "the simulator's Criterion tests: one suite per concern, not yet one file per module",
    "tests/instructor/batch.c": "the batch's Criterion tests: one suite per concern, not yet one file per module",
    "tests/sim/kernels/basics.cu": "kernels the simulator's tests run, one per feature: a table of cases, not logic",
}
for path in sorted(f for f in files if CODE.search(f)):
    n = sum(1 for _ in open(path, encoding="utf-8", errors="replace"))
    if n > LIMIT and path not in LONG:
        bad.append(f"{path} is {n} lines (at most {LIMIT}; or name it in LONG with the reason)")
    elif n <= LIMIT and path in LONG:
        bad.append(f"{path} is {n} lines: remove its exception from tests/layout.sh")
for path in sorted(set(LONG) - set(files)):
    bad.append(f"{path} is gone: remove its exception from tests/layout.sh")

# ---------------------------------------------------------------- qualified includes
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SOURCE = re.compile(r"\.(c|h|cpp|cc|cu|cuh|inc|hpp)$")
tops = {f.split("/")[0] for f in files if "/" in f}
# made by the build, found under build/ by their folder there; bench/gold/build.sh's plan of the benchmark
GENERATED = {"grader/runner_mk.h", "plan.inc"}
# folders compiled where the root is not on the include path: their own headers by name alone
OWN_BY_NAME = ("sim/",)
# a check includes the check it builds on beside it ("transpose.cpp"): the one of its own workbook
# (harness/checks/ under the workbook's folder), which "harness/checks/transpose.cpp" would not find
CHECKS = re.compile(r"(^|/)harness/(checks|physical)/[^/]+\.cpp$")
# files that name headers otherwise, and why
UNQUALIFIED = {
    "tests/adversarial/": "hostile submissions: what they try to include is the test",
    "tests/redteam/": "hostile submissions: what they try to include is the test",
    "tests/sim/aarch64/": "cross-compiled by tests/sim/aarch64/run.sh with sim/include only",
}
sim_public = {os.path.basename(f) for f in files if f.startswith("sim/include/")}
for path in sorted(f for f in files if SOURCE.search(f)):
    if path.startswith(tuple(UNQUALIFIED)):
        continue
    here = os.path.dirname(path)
    text = open(path, encoding="utf-8", errors="replace").read()
    for h in INCLUDE.findall(text):
        if h.startswith("cudalings/") or h in GENERATED:
            continue    # an exercise's public header (build/gen/public/NAME/), a generated one
        if "/" not in h and h in sim_public:
            continue    # the simulator's CUDA headers, named as CUDA code names the toolkit's
        if "/" not in h and (path.startswith(OWN_BY_NAME) or path.endswith(".cu")) \
                and os.path.isfile(os.path.join(here, h)):
            continue    # a .cu is built as a submission is: its own folder beside it, not the root
        if "/" not in h and CHECKS.search(path) and h.endswith(".cpp") and os.path.isfile(os.path.join(here, h)):
            continue    # a check on the check it builds on, of its own workbook
        if h.split("/")[0] in tops and os.path.isfile(h):
            continue
        bad.append(f'{path} includes "{h}": name it from the root ("{os.path.normpath(os.path.join(here, h))}")'
                   if os.path.isfile(os.path.join(here, h)) else f'{path} includes "{h}", which is no file '
                   f"from the root")

# ---------------------------------------------------------------- one of each
# One spawner: lib/run*.c alone forks, and pool.h runs work side by side (the
# simulator's backtraces run addr2line and nm through popen inside a runner,
# which links nothing of lib/). One buffer whose data is never NULL: it starts
# as BUF_INIT, so nobody needs to write "x.data ? x.data : \"\"".
SPAWN = re.compile(r"\b(fork|vfork|posix_spawnp?|popen|system)\s*\(")
ZEROED_BUF = re.compile(r"struct buf\s+[^;()]*=\s*\{\s*0\s*\}")
NULL_DATA = re.compile(r"([A-Za-z_][\w.>-]*)\.data \? \1\.data :")
# One way to count an array: lib/util.h's ARRAY_SIZE, in the simulator too
HAND_COUNTED = re.compile(r"sizeof\s*\(?\s*(\w+)\s*\)?\s*/\s*sizeof\s*\(?\s*\(?\1\)?\[0\]")
ONE_OF_EACH = ("lib/", "common/", "grader/", "tui/", "sim/rewrite/")
for path in sorted(f for f in files if SOURCE.search(f) and f.startswith(ONE_OF_EACH)):
    text = open(path, encoding="utf-8", errors="replace").read()
    code = re.sub(r'/\*.*?\*/|//[^\n]*|"(\\.|[^"\\\n])*"', '', text, flags=re.S)
    if SPAWN.search(code) and not re.match(r"lib/run(_\w+)?\.c$", path):
        bad.append(f"{path} calls {SPAWN.search(code).group(1)}(): processes start through lib/run.h and lib/pool.h")
    for m in ZEROED_BUF.finditer(code):
        bad.append(f"{path}: '{m.group(0)}': a buffer starts as BUF_INIT (its data never NULL)")
    for m in NULL_DATA.finditer(code):
        bad.append(f"{path}: '{m.group(0)}': a buffer's data is never NULL")
for path in sorted(f for f in files if SOURCE.search(f) and f.startswith(ONE_OF_EACH + ("sim/",)) and f != "lib/util.h"):
    code = re.sub(r'/\*.*?\*/|//[^\n]*', '', open(path, encoding="utf-8", errors="replace").read(), flags=re.S)
    for m in HAND_COUNTED.finditer(code):
        bad.append(f"{path}: '{m.group(0)}': ARRAY_SIZE (lib/util.h) counts an array")

# ---------------------------------------------------------------- layers
allowed = {
    "lib": lambda h: h.startswith("lib/"),
    "common": lambda h: h.startswith(("lib/", "common/")),
    "tui": lambda h: not h.startswith(("grader/", "sim/", "harness/")),
    "grader": lambda h: not h.startswith("tui/"),
    "sim": lambda h: not h.startswith(("grader/", "tui/", "harness/")),
    "harness": lambda h: not h.startswith(("grader/", "tui/", "lib/", "common/")),
}
for path in sorted(f for f in files if SOURCE.search(f) and f.split("/")[0] in allowed):
    folder = path.split("/")[0]
    for h in INCLUDE.findall(open(path, encoding="utf-8", errors="replace").read()):
        if "/" not in h:
            h = os.path.join(os.path.dirname(path), h)
        if not allowed[folder](h):
            bad.append(f"{path} includes {h}: {folder}/ may not")


# ---------------------------------------------------------------- circles between objects
# an object whose source is gone (a tree built before a file moved) is not the program's: left out
objs = sorted(o for folder in ("lib", "common", "grader", "tui")
              for o in glob.glob(os.path.join(build, folder, "**", "*.o"), recursive=True)
              if os.path.exists(os.path.relpath(o, build)[:-2] + ".c"))
if not any("/grader/" in o for o in objs):
    bad.append(f"no objects in {build}/grader: build first")
defs, uses, functions = {}, {}, {}
for o in objs:
    out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
    d, u = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TDBR":
            d.add(f[2])
            if f[1] == "T":
                functions.setdefault(o, set()).add(f[2])
        elif len(f) == 2 and f[0] == "U":
            u.add(f[1])
    defs[o], uses[o] = d, u
def circles(nodes, edges):
    """Each circle once, as the sorted names of its members (strongly connected parts larger than one)."""
    index, low, stack, on, found, n = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1
        stack.append(v); on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop(); on.discard(w); part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))
    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found
# the files that share a module's private header (NAME_private.h, NAME_state.h) are that one module
PRIVATE = re.compile(r'^\s*#\s*include\s*"([^"]+)_(?:private|state)\.h"', re.M)
def private_module(source):
    if os.path.isfile(source):
        m = PRIVATE.search(open(source, encoding="utf-8", errors="replace").read())
        if m:
            return m.group(1)
    return None
def object_module(o):
    stem = os.path.relpath(o, build)[:-2]
    return private_module(stem + ".c") or stem
owner = {}
for o, d in defs.items():
    for s in d:
        owner.setdefault(s, object_module(o))
edges = {}
for o in objs:
    m = object_module(o)
    edges.setdefault(m, set()).update(owner[s] for s in uses[o] if s in owner and owner[s] != m)
for c in circles(edges, edges):
    bad.append("a circle between " + ", ".join(c))

# ---------------------------------------------------------------- grader/'s exports named by their file
# A file's global functions start with its name (submission.c: submission_*), or with its module's when it
# is a part of one (batch_lanes.c: batch_*; grade_children.c, sharing grade_state.h: grade_*).
PREFIX_LATER = {
    "grader/engine/grade_children": "being reworked: the runner's split (issue 26 item 4)",
}
for o in sorted(x for x in objs if os.path.relpath(x, build).startswith("grader/")):
    stem = os.path.relpath(o, build)[:-2]
    folder, name = os.path.split(stem)
    ok = {name}
    for i in range(len(name)):
        if name[i] == "_" and any(os.path.isfile(os.path.join(folder, name[:i]) + ext) for ext in (".c", ".h")):
            ok.add(name[:i])
    if private_module(stem + ".c"):
        ok.add(os.path.basename(private_module(stem + ".c")))
    if stem == "grader/cmd/main":
        ok.add("main")
    stray = sorted(s for s in functions.get(o, ()) if s not in ok and not s.startswith(tuple(p + "_" for p in ok)))
    if stray and stem not in PREFIX_LATER:
        bad.append(f"{stem}.c exports {', '.join(stray)}: name them {name}_* (or its module's)")
    elif not stray and stem in PREFIX_LATER:
        bad.append(f"{stem}.c's exports are named by it: remove its exception from tests/layout.sh")
for stem in sorted(set(PREFIX_LATER) - {os.path.relpath(o, build)[:-2] for o in objs}):
    bad.append(f"{stem}.c is gone: remove its exception from tests/layout.sh")

# ---------------------------------------------------------------- circles between grader/'s modules, by include
# A module is a .c and its .h; the files that share its private header and the parts named here are it too.
PARTS = {
    "grader/exercise/signature": "grader/exercise/manifest",  # the manifest's launcher signatures, parsed
    "grader/mutants/mutant_lex": "grader/mutants/mutants",    # the operators that make mutants.h's mutants
    "grader/mutants/mutant_maker": "grader/mutants/mutants",
    "grader/mutants/mutant_ops": "grader/mutants/mutants",
}
sources = [f for f in files if f.startswith("grader/") and re.search(r"\.[ch]$", f)]
stems = {f[:-2] for f in sources}
def module(stem):
    if stem.endswith(("_state", "_private")):
        return stem.rsplit("_", 1)[0]
    return PARTS.get(stem, private_module(stem + ".c") or stem)
includes = {}
for f in sources:
    m = module(f[:-2])
    for h in INCLUDE.findall(open(f, encoding="utf-8", errors="replace").read()):
        if h.startswith("grader/") and h.endswith(".h") and h[:-2] in stems and module(h[:-2]) != m:
            includes.setdefault(m, set()).add(module(h[:-2]))
for c in circles({module(s) for s in stems}, includes):
    bad.append("a circle of includes between " + ", ".join(c))

# ---------------------------------------------------------------- paths under build/, from one place
# The code names build/ only through grader/runner_mk.h (harness/runner.mk's BUILD_DIR, the Makefile's
# $(B)): a "build/..." of its own would have to agree with them by hand.
for path in sorted(f for f in files if re.match(r"(grader|lib|common|tui|sim|harness)/.*\.(c|h|cpp|cu)$", f)):
    for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        if re.search(r'"build(/|")', line):
            bad.append(f"{path}:{n} names build/ itself: use BUILD_DIR (grader/runner_mk.h, from harness/runner.mk)")

# ---------------------------------------------------------------- circles between grader/'s folders, by include
# A folder is a subsystem: the order they may use each other in is one way (cmd/ uses batch/, which uses the
# engine, which uses compile/ and exercise/, never the reverse), so no two folders may use each other, even
# through others; grader/result.h, the result types, is every folder's and includes none. The edges named
# here close a circle today and are being undone; each with its reason.
FOLDER_LATER = {
    ("grader/exercise", "grader/mutants"): "manifest.c checks equivalent_mutants' ids with mutants.h, "
                                           "while mutant_check.c grades through the engine: the maker and "
                                           "the check become two folders (issue 26 item 1)",
}
folder_of = lambda stem: "/".join(stem.split("/")[:2])
folders = {}
for f in sources:
    for h in INCLUDE.findall(open(f, encoding="utf-8", errors="replace").read()):
        if h.startswith("grader/") and h[:-2] in stems and folder_of(h) != folder_of(f):
            folders.setdefault(folder_of(f), set()).add(folder_of(h))
for edge in sorted(FOLDER_LATER):
    if edge[1] not in folders.get(edge[0], ()):
        bad.append(f"{edge[0]}/ no longer includes {edge[1]}/: remove its exception from tests/layout.sh")
    else:
        folders[edge[0]].discard(edge[1])
for c in circles({folder_of(s) for s in stems}, folders):
    bad.append("a circle of includes between the folders " + ", ".join(c))
for f in sorted(f for f in sources if f.count("/") == 1):
    for h in INCLUDE.findall(open(f, encoding="utf-8", errors="replace").read()):
        if h.startswith("grader/"):
            bad.append(f"{f} includes {h}: what lies beside grader/'s folders is every folder's, and includes none")

# ---------------------------------------------------------------- one name, one type
names = {}
for path in sorted(f for f in files if re.match(r"(grader|tui|common|lib)/.*\.[ch]$", f)):
    text = open(path, encoding="utf-8").read()
    for kind, name in re.findall(r'^(?:typedef\s+)?(struct|enum|union)\s+(\w+)\s*\{', text, re.M):
        names.setdefault(f"{kind} {name}", []).append(path)
    for name in re.findall(r'^typedef\s[^;{]*?\b(\w+)\s*;', text, re.M):
        names.setdefault(f"typedef {name}", []).append(path)
for name, paths in sorted(names.items()):
    if len(paths) > 1:
        bad.append(f"{name} is defined twice: {', '.join(paths)}")

# ---------------------------------------------------------------- the newcomer's tour
# the README's design section draws the tree: every folder of the checkout and of grader/ is named there,
# and nothing named there is missing
readme = open("README.md", encoding="utf-8").read()
tour = re.search(r"^## Design\n+```\n(.*?)^```", readme, re.M | re.S)
if not tour:
    bad.append("README.md's design section does not start with the tree (a ``` block)")
else:
    drawn = set(re.findall(r"^(\S+?)/?\s", tour.group(1), re.M))
    drawn |= {"grader/" + n for n in re.findall(r"^  (\w+)/\s", tour.group(1), re.M)}
    have = {f.split("/")[0] for f in files if "/" in f and not f.startswith(".")}
    have |= {"/".join(f.split("/")[:2]) for f in files if f.startswith("grader/") and f.count("/") >= 2}
    have |= {f for f in files if "/" not in f and f in ("Makefile", "workbook.json")}
    for name in sorted(have - drawn):
        bad.append(f"README.md's tree does not name {name}/: say what it owns")
    for name in sorted(drawn - have - {"README.md"}):
        bad.append(f"README.md's tree names {name}, which the checkout does not have")

for b in bad:
    print("  BAD  " + b)
print(f"layout: {len(files)} files, {len(objs)} objects, {len(names)} types; {len(bad)} problems")
sys.exit(1 if bad else 0)
PY
