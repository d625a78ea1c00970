#!/usr/bin/env python3
"""Fill the measured figures of the lessons from the bench/ files they cite, or check them.

A figure in a lesson is marked with a link reference definition, which
Markdown shows nowhere. Two kinds:

A whole table, copied from a bench file's table (picked by its columns;
the headers shown and a choice of rows are optional):

    [figures]: bench/bank-conflicts-h100.md "tile, median µs, × conflict-free"
    [figure headers]: # "tile, time (µs), × conflict-free"
    [figure rows]: # "COLUMN=VALUE"   (or COLUMN!=VALUE, several joined by " & ")

    | ... the table, written by this tool ... |

    [end figures]: #

Single figures, in a sentence or in a table written by hand: one line per
figure, in the order the figures appear in the block (paragraph, list or
table) that follows the lines:

    [figure]: bench/gpu-results-h100.md "file=solutions/transpose.cu: µs = 85.3"
    [figure]: bench/gpu-results-h100.md "file=tests/wrong/transpose/bank_conflicts.cu: µs / file=solutions/transpose.cu: µs = 1.6"

    The padded tile takes 85.3 µs; the conflicted one 1.6× that.

Left of " = " is the figure: a row of the bench file chosen by COLUMN=VALUE
(several joined by " & "), then ": COLUMN"; figures may be divided or
multiplied (" / ", " * ", with spaces) and by plain numbers. Right of it is
the figure as the lesson shows it, rounded to the decimals shown there. The
bench file's tables are its Markdown tables and the tables that
`cudalings run NAME --backend gpu` prints (columns demo, variant, result,
µs, GB/s, × ref, what it shows). A figure quoted from course material
rather than measured says so with "#" as its file:

    [figure]: # "the DLI notebook's assessment threshold = 840"

tools/lesson-figures.py --write rewrites every table and figure from its
bench file; with no option it checks (make test runs that) and exits 1,
naming the lesson, when
  - a figure or table differs from its bench file, or is not in its block;
  - a bench file is missing, or names no GPU model or no date;
  - a block with a figure, or the block before it, does not name the GPU
    the bench file was measured on (H100, H200, ...);
  - a measured figure (µs, ms, GB/s, TFLOP/s, a ratio such as 3.3×, a
    percentage) stands in a lesson with no marker;
  - a lesson names a bench file that is missing.
--cited lists every bench file the lessons cite (tools/dist.sh ships them).
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TABLE_MARK = re.compile(r'^\[figures\]: (?P<source>\S+) "(?P<columns>[^"]*)"\n'
                        r'(?:\[figure headers\]: # "(?P<shown>[^"]*)"\n)?'
                        r'(?:\[figure rows\]: # "(?P<rows>[^"]*)"\n)?'
                        r'\n(?P<table>(?:\|[^\n]*\n)+\n)?\[end figures\]: #\n', re.M)
FIGURE_MARK = re.compile(r'^\[figure\]: (?P<source>\S+) "(?P<expr>[^"]*) = (?P<value>[^"=]*)"$')
# what counts as a measured figure when it stands in a lesson's text
MEASURED = re.compile(r'(?<![\w.])(?P<num>\d[\d,]*(?:\.\d+)?)(?:\s?(?:µs|ms|GB/s|TB/s|GFLOP/s|TFLOP/s)(?!\w)|×(?!\s*\d)|%)')
NUMBER_CELL = re.compile(r'^[-+]?\d[\d,]*(?:\.\d+)?$')
MEASURED_HEADER = re.compile(r'µs|ms\b|GB/s|FLOP/s|time|×|%')


class Problem(Exception):
    pass


# ------------------------------------------------------------------ bench files

def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def plain(cell):
    return cell.strip().strip("`")


class Bench:
    """A bench file: its tables, and the GPU and the date it names."""

    def __init__(self, rel):
        path = ROOT / rel
        if not path.is_file():
            raise Problem("cites %s, which is missing" % rel)
        self.rel = rel
        text = path.read_text()
        self.tables = markdown_tables(text) + demo_tables(text)
        if not self.tables:
            raise Problem("%s holds no table" % rel)
        gpu = re.search(r"NVIDIA (?:GeForce |RTX |Tesla )*([A-Z]+\d+\w*)", text)
        date = re.search(r"\b20\d\d-\d\d-\d\d\b", text)
        if not gpu or not date:
            raise Problem("%s names no %s: a measurement says where and when it was taken" %
                          (rel, "GPU model (NVIDIA ...)" if not gpu else "date (YYYY-MM-DD)"))
        self.gpu = gpu.group(1)

    def table_with(self, columns):
        for headers, rows in self.tables:
            if all(c in headers for c in columns):
                return headers, rows
        raise Problem("%s has no table with the column%s %s" % (
            self.rel, "" if len(columns) == 1 else "s", ", ".join(repr(c) for c in columns)))

    def cell(self, selector, column):
        conditions = parse_selector(selector)
        headers, rows = self.table_with([name.rstrip("!").strip() for name, _ in conditions] + [column])
        for row in rows:
            if matches(headers, row, conditions) and headers.index(column) < len(row):
                return row[headers.index(column)]
        raise Problem("%s has no row with %s" % (self.rel, selector))


def parse_selector(selector):
    """COLUMN=VALUE & COLUMN!=VALUE: the conditions that pick rows (a name ending in "!" wants
    the value not to be VALUE: a lesson that leaves one row out, its exercise's answer)."""
    conditions = []
    for part in selector.split(" & "):
        if "=" not in part:
            raise Problem("'%s' picks no row: write COLUMN=VALUE" % part)
        name, value = part.split("=", 1)
        conditions.append((name.strip(), value.strip()))
    return conditions


def matches(headers, row, conditions):
    def holds(name, value):
        column = name[:-1].strip() if name.endswith("!") else name
        if headers.index(column) >= len(row):
            return False
        return (plain(row[headers.index(column)]) == value) != name.endswith("!")
    return all(holds(n, v) for n, v in conditions)


def markdown_tables(text):
    tables, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and re.match(r"^\|[-:| ]+\|$", lines[i + 1]):
            headers, rows = cells(lines[i]), []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            tables.append((headers, rows))
        else:
            i += 1
    return tables


DEMO_TITLE = re.compile(r"^\s*(?P<demo>\w+): .*, on the GPU$")
DEMO_HEADER = re.compile(r"^\s+variant\s+result\s+µs\s+GB/s\s+× ref\s+what it shows$")
DEMO_ROW = re.compile(r"^\s+(?P<variant>\S+)\s+(?P<result>correct|WRONG)\s+(?P<us>\S+)\s+(?P<gbps>\S+)\s+"
                      r"(?P<ratio>\S+)\s+(?P<what>.*)$")


def demo_tables(text):
    """What `cudalings run NAME --backend gpu` printed, as one table of every demo's variants."""
    headers = ["demo", "variant", "result", "µs", "GB/s", "× ref", "what it shows"]
    rows, demo, in_table = [], None, False
    for line in text.splitlines():
        title = DEMO_TITLE.match(line)
        if title:
            demo, in_table = title.group("demo"), False
        elif demo and DEMO_HEADER.match(line):
            in_table = True
        elif in_table:
            row = DEMO_ROW.match(line)
            if row:
                rows.append([demo] + [row.group(g) for g in ("variant", "result", "us", "gbps", "ratio", "what")])
    return [(headers, rows)] if rows else []


# ------------------------------------------------------------------ figures

def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        raise Problem("'%s' is not a number" % text)


def evaluate(expr, bench):
    """The figure an expression names: a cell, or cells and numbers divided and multiplied."""
    tokens = re.split(r" ([/*]) ", expr)
    values = []
    for term in tokens[::2]:
        if ": " in term:
            selector, column = term.rsplit(": ", 1)
            values.append(bench.cell(selector.strip(), column.strip()))
        else:
            values.append(term.strip())
    if len(values) == 1 and not NUMBER_CELL.match(values[0]):
        return values[0]
    result = number(values[0])
    for op, value in zip(tokens[1::2], values[1:]):
        v = number(value)
        if op == "/" and v == 0:
            raise Problem("'%s' divides by zero" % expr)
        result = result / v if op == "/" else result * v
    return result


def shown_as(value, like):
    """value written as `like` is: its decimals, its thousands separators."""
    if isinstance(value, str):
        return value
    decimals = len(like.split(".")[1]) if "." in like else 0
    return format(value, "%s.%df" % ("," if "," in like else "", decimals))


def find_figure(text, value, start):
    """Where value stands in text as a whole figure (not inside a longer number), from start; -1 if nowhere."""
    pattern = re.compile(r"(?<![\d.,])" + re.escape(value) + r"(?![\d]|[.,]\d)")
    m = pattern.search(text, start)
    return (m.start(), m.end()) if m else (-1, -1)


# ------------------------------------------------------------------ lessons

class Lesson:
    def __init__(self, path, benches, write):
        self.path = path
        self.rel = str(path.relative_to(ROOT))
        self.text = path.read_text()
        self.benches = benches
        self.write = write
        self.problems = []
        self.cited = set()
        self.covered = set()   # (line, column) of characters that are marked figures

    def bench(self, rel):
        if rel not in self.benches:
            try:
                self.benches[rel] = Bench(rel)
            except Problem as e:
                self.benches[rel] = e
        self.cited.add(rel)
        b = self.benches[rel]
        if isinstance(b, Problem):
            raise b
        return b

    def problem(self, line, message):
        self.problems.append("%s:%d: %s" % (self.rel, line + 1, message))

    def fill_tables(self):
        def fill(m):
            line = self.text.count("\n", 0, m.start())
            try:
                columns = [c.strip() for c in m.group("columns").split(",")]
                shown = [c.strip() for c in m.group("shown").split(",")] if m.group("shown") else columns
                if len(shown) != len(columns):
                    raise Problem("%d columns kept but %d headers shown" % (len(columns), len(shown)))
                bench = self.bench(m.group("source"))
                conditions = parse_selector(m.group("rows")) if m.group("rows") else []
                headers, rows = bench.table_with(columns + [n.rstrip("!").strip() for n, _ in conditions])
                rows = [r for r in rows if matches(headers, r, conditions)]
                if not rows:
                    raise Problem("%s has no row with %s" % (bench.rel, m.group("rows")))
            except Problem as e:
                self.problem(line, str(e))
                return m.group(0)
            picks = [headers.index(c) for c in columns]
            # numbers right-aligned, as in the bench files
            align = ["---:" if all(NUMBER_CELL.match(r[i] if i < len(r) else "x") for r in rows) else "---"
                     for i in picks]
            table = ["| " + " | ".join(shown) + " |", "|" + "|".join(align) + "|"]
            table += ["| " + " | ".join(r[i] if i < len(r) else "" for i in picks) + " |" for r in rows]
            # a blank line after: the end marker must not read as a row of the table
            table = "\n".join(table) + "\n\n"
            if table != (m.group("table") or "") and not self.write:
                self.problem(line, "the table from %s differs from the bench file; tools/lesson-figures.py "
                             "--write makes it again" % m.group("source"))
            self.check_gpu(line, bench)
            start = m.start("table") if m.group("table") else m.end(0) - len("[end figures]: #\n")
            end = m.end("table") if m.group("table") else start
            return m.group(0)[:start - m.start(0)] + table + m.group(0)[end - m.start(0):]

        self.text = TABLE_MARK.sub(fill, self.text)
        for m in TABLE_MARK.finditer(self.text):
            first = self.text.count("\n", 0, m.start())
            for n in range(first, first + m.group(0).count("\n")):
                self.covered.add((n, None))

    def check_gpu(self, line, bench):
        """The measurement's GPU is named in the section of the lesson that shows its figures."""
        lines = self.text.splitlines()
        first = max([n for n in range(min(line, len(lines) - 1) + 1) if lines[n].startswith("#")] or [0])
        last = min([n for n in range(line + 1, len(lines)) if lines[n].startswith("#")] or [len(lines)])
        text = "\n".join(l for l in lines[first:last] if not l.startswith("["))
        if not re.search(r"\b%s\b" % re.escape(bench.gpu), text):
            self.problem(line, "the figures from %s were measured on an %s: say so where they stand" %
                         (bench.rel, bench.gpu))

    def fill_figures(self):
        lines = self.text.splitlines(keepends=True)
        i = 0
        while i < len(lines):
            if not FIGURE_MARK.match(lines[i].rstrip("\n")):
                i += 1
                continue
            if i > 0 and lines[i - 1].strip() and not lines[i - 1].startswith("["):
                # a link reference definition cannot interrupt a paragraph: it would show
                self.problem(i, "a figure marker right after text shows in the lesson: put a blank line before it")
            group = []
            while i < len(lines) and FIGURE_MARK.match(lines[i].rstrip("\n")):
                group.append(i)
                i += 1
            j = i
            while j < len(lines) and not lines[j].strip():
                j += 1
            k = j
            while k < len(lines) and lines[k].strip():
                k += 1
            if j == k:
                self.problem(group[0], "figure markers with no text after them")
                continue
            self.fill_group(lines, group, j, k)
        self.text = "".join(lines)

    def fill_group(self, lines, group, first, end):
        """Check (or rewrite) the figures of lines group, which stand in lines [first, end) in order."""
        scope = "".join(lines[first:end])
        offsets = [0]
        for n in range(first, end):
            offsets.append(offsets[-1] + len(lines[n]))
        pos = 0
        for g in group:
            m = FIGURE_MARK.match(lines[g].rstrip("\n"))
            source, expr, value = m.group("source"), m.group("expr"), m.group("value").strip()
            want = value
            try:
                if source != "#":
                    bench = self.bench(source)
                    want = shown_as(evaluate(expr, bench), value)
                    self.check_gpu(g, bench)
            except Problem as e:
                self.problem(g, str(e))
            at, stop = find_figure(scope, value, pos)
            if at < 0:
                self.problem(g, "the figure %s is not in the text after its marker (or not in the markers' "
                             "order)" % value)
                continue
            if want != value:
                if not self.write:
                    self.problem(g, "%s is %s in %s, not %s; tools/lesson-figures.py --write puts it right" %
                                 (expr, want, source, value))
                else:
                    scope = scope[:at] + want + scope[stop:]
                    stop = at + len(want)
                    lines[g] = lines[g][:m.start("value")] + want + lines[g][m.end("value"):]
            # the figure's characters are marked
            for c in range(at, stop):
                n = max(x for x in range(len(offsets) - 1) if offsets[x] <= c)
                self.covered.add((first + n, c - offsets[n]))
            pos = stop
        if self.write:
            # put the (possibly rewritten) scope back, line by line
            new = scope.splitlines(keepends=True)
            lines[first:end] = new

    def unmarked(self, thresholds):
        """Measured figures that stand in the text with no marker."""
        lines = self.text.splitlines()
        fenced = False
        table_headers = None
        for n, line in enumerate(lines):
            if line.startswith("```") or line.startswith("~~~"):
                fenced = not fenced
                continue
            if fenced or line.startswith("[") or (n, None) in self.covered:
                table_headers = None if not line.startswith("|") else table_headers
                continue
            hits = []
            for m in MEASURED.finditer(line):
                if m.group(0).endswith("×") and number(m.group("num")) in thresholds:
                    continue    # the contract's ratio, from workbook.json, not a measurement
                hits.append((m.start("num"), m.group(0)))
            if line.startswith("|"):
                row = cells(line)
                if table_headers is None:
                    table_headers = row
                elif not re.match(r"^\|[-:| ]+\|$", line):
                    col = 0
                    for c, cell in enumerate(row):
                        col = line.index("|", col) + 1
                        at = line.index(cell, col) if cell else col
                        if c < len(table_headers) and MEASURED_HEADER.search(table_headers[c]) and \
                                NUMBER_CELL.match(cell):
                            hits.append((at, cell))
            else:
                table_headers = None
            for at, figure in sorted(set(hits)):
                if (n, at) not in self.covered:
                    self.problem(n, "'%s' is a measured figure with no marker naming the bench file it "
                                 "comes from" % figure)

    def named_bench_files(self):
        for named in sorted(set(re.findall(r"\bbench/[\w./-]+\.md\b", self.text))):
            self.cited.add(named)
            if not (ROOT / named).is_file():
                self.problems.append("%s: cites %s, which is missing" % (self.rel, named))


def thresholds():
    try:
        items = json.loads((ROOT / "workbook.json").read_text()).get("items", [])
    except (OSError, ValueError):
        return set()
    return {float(i["threshold_ratio"]) for i in items if "threshold_ratio" in i}


def main(argv):
    write = "--write" in argv
    benches, cited, problems = {}, set(), []
    ratios = thresholds()
    for path in sorted((ROOT / "slides").glob("*.md")):
        lesson = Lesson(path, benches, write)
        original = lesson.text
        lesson.fill_tables()
        lesson.fill_figures()
        lesson.unmarked(ratios)
        lesson.named_bench_files()
        cited |= lesson.cited
        problems += lesson.problems
        if write and lesson.text != original:
            path.write_text(lesson.text)
            print("wrote %s" % lesson.rel)
    if "--cited" in argv:
        print("\n".join(sorted(cited)))
        return 0
    for p in problems:
        print(p)
    if not write or problems:
        print("lesson figures: %d bench file%s cited, %d problem%s" % (
            len(cited), "" if len(cited) == 1 else "s", len(problems), "" if len(problems) == 1 else "s"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
