#!/usr/bin/env python3
"""Fill a lesson's measured tables from the bench/ files they cite, or check them.

A lesson marks a table with link reference definitions, which Markdown
shows nowhere: the bench file and the columns it keeps (by the bench
table's headers), the headers the lesson shows, and the table's end:

    [figures]: bench/bank-conflicts-h100.md "tile, median µs, × conflict-free"
    [figure headers]: # "tile, time (µs), × conflict-free"

    | ... the table, written by this tool ... |

    [end figures]: #

tools/lesson-figures.py --write rewrites every such table from its bench
file; with no option it checks (make test runs that): exit 1, naming the
lesson and the bench file, when a table differs from its bench file or the
bench file is missing, or a bench file named in the prose is missing.
--cited lists every bench file the lessons cite (tools/dist.sh ships them).
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARK = re.compile(r'^\[figures\]: (?P<source>\S+) "(?P<columns>[^"]*)"\n'
                  r'(?:\[figure headers\]: # "(?P<shown>[^"]*)"\n)?'
                  r'\n(?P<table>(?:\|[^\n]*\n)+\n)?\[end figures\]: #\n', re.M)


def parse_spec(m):
    columns = [c.strip() for c in m.group("columns").split(",")]
    shown = [c.strip() for c in m.group("shown").split(",")] if m.group("shown") else columns
    if len(shown) != len(columns):
        raise ValueError("%d columns kept but %d headers shown" % (len(columns), len(shown)))
    return m.group("source"), columns, shown


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def bench_table(path):
    """The first markdown table of a bench file: its headers and rows."""
    lines = [l for l in path.read_text().splitlines() if l.startswith("|")]
    if len(lines) < 2:
        raise ValueError("%s holds no table" % path.relative_to(ROOT))
    return cells(lines[0]), [cells(l) for l in lines[2:]]


def render(source, columns, shown):
    headers, rows = bench_table(ROOT / source)
    missing = [c for c in columns if c not in headers]
    if missing:
        raise ValueError("%s has no column %s" % (source, ", ".join(repr(m) for m in missing)))
    picks = [headers.index(c) for c in columns]
    # numbers right-aligned, as in the bench files
    align = ["---:" if all(re.match(r"^[-+0-9.,]+$", r[i] or "x") for r in rows) else "---" for i in picks]
    out = ["| " + " | ".join(shown) + " |", "|" + "|".join(align) + "|"]
    out += ["| " + " | ".join(r[i] for i in picks) + " |" for r in rows]
    return "\n".join(out) + "\n"


def main(argv):
    write = "--write" in argv
    cited = set()
    problems = 0
    for lesson in sorted((ROOT / "slides").glob("*.md")):
        text = lesson.read_text()
        changed = text

        def fill(m):
            nonlocal problems
            try:
                source, columns, shown = parse_spec(m)
                cited.add(source)
                table = render(source, columns, shown)
            except (OSError, ValueError) as e:
                print("%s: %s" % (lesson.relative_to(ROOT), e))
                problems += 1
                return m.group(0)
            table += "\n"    # a blank line: the end marker must not read as a row of the table
            if table != (m.group("table") or "") and not write:
                print("%s: the table from %s differs from the bench file; tools/lesson-figures.py --write "
                      "makes it again" % (lesson.relative_to(ROOT), source))
                problems += 1
            start = m.start("table") if m.group("table") else m.end(0) - len("[end figures]: #\n")
            end = m.end("table") if m.group("table") else start
            return m.group(0)[:start - m.start(0)] + table + m.group(0)[end - m.start(0):]

        changed = MARK.sub(fill, text)
        # the bench files named in the prose must be there too (and ship with the student copy)
        for named in sorted(set(re.findall(r"\bbench/[\w./-]+\.md\b", text))):
            cited.add(named)
            if not (ROOT / named).is_file():
                print("%s: cites %s, which is missing" % (lesson.relative_to(ROOT), named))
                problems += 1
        if write and changed != text:
            lesson.write_text(changed)
            print("wrote %s" % lesson.relative_to(ROOT))
    if "--cited" in argv:
        print("\n".join(sorted(cited)))
        return 0
    if not write:
        print("lesson figures: %d bench file%s cited, %d problem%s" % (
            len(cited), "" if len(cited) == 1 else "s", problems, "" if problems == 1 else "s"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
