#!/usr/bin/env python3
"""How soon `make grade` in a terminal shows its stage line, and when its verdict comes.

    python3 bench/stage_line.py [EX [FILE [RUNS]]]

Runs `make grade` in a pseudo-terminal RUNS times (default 6) and prints, for each, the seconds from
the start until the first stage word (compile, build, link, case) and until the end. A measurement,
not a test: issue 24 asks for the stage line within 0.5 s.
"""
import os, pty, re, select, sys, time

ex = sys.argv[1] if len(sys.argv) > 1 else "col_sums"
path = sys.argv[2] if len(sys.argv) > 2 else f"solutions/{ex}.cu"
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 6


def one():
    t0 = time.time()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm", NO_COLOR="1")
        for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
            os.environ.pop(k, None)
        os.execvp("make", ["make", "--no-print-directory", "grade", f"EX={ex}", f"FILE={path}"])
    seen, first = b"", None
    while select.select([fd], [], [], 30)[0]:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        seen += data
        if first is None and re.search(rb"(compil|build|link|case)", seen):
            first = time.time() - t0
    os.waitpid(pid, 0)
    return first, time.time() - t0


for _ in range(runs):
    first, end = one()
    print(f"stage line at {first:.2f} s, verdict at {end:.2f} s" if first is not None else "no stage line")
