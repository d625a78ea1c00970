#!/usr/bin/env python3
"""Run a command on a pseudo-terminal, as a student's terminal would, and print what it wrote.

usage: pty_run.py [--interrupt-on REGEX] [--limit SECONDS] -- COMMAND...

With --interrupt-on, a Ctrl-C is typed (as the terminal's own ^C, to the whole foreground
group) once the output matches REGEX. Exits with the command's status as a shell says it
(128 + N for a signal), or 124 when it outlived --limit (600 s unless told: a bound on a hang,
far past a grading's compile and cases on a loaded machine) and was killed.
"""
import os
import pty
import re
import select
import signal
import sys
import time


def main():
    args = sys.argv[1:]
    interrupt_on, limit = None, 600.0
    while args and args[0] != "--":
        if args[0] == "--interrupt-on":
            interrupt_on = re.compile(args[1].encode())
        elif args[0] == "--limit":
            limit = float(args[1])
        args = args[2:]
    command = args[1:]
    pid, fd = pty.fork()
    if pid == 0:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execvp(command[0], command)
    out, deadline, interrupted = b"", time.monotonic() + limit, False
    while time.monotonic() < deadline:
        if interrupt_on and not interrupted and interrupt_on.search(out):
            os.write(fd, b"\x03")
            interrupted = True
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
    else:
        os.killpg(pid, signal.SIGKILL)
        sys.stdout.buffer.write(out)
        os.waitpid(pid, 0)
        return 124
    sys.stdout.buffer.write(out)
    _, status = os.waitpid(pid, 0)
    return 128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


sys.exit(main())
