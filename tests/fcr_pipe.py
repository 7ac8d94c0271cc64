# SPDX-License-Identifier: BSD-3-Clause
"""
fcredirect's command line over a pipe, for the tests that drive a running
program: a thread reads its standard output line by line (into a log file
and a list, under a condition), and a command is answered by everything it
printed before a marker: an unknown command the program refuses by name
(`error: unknown command '<marker>'`), so the answer's end is a state, not a
delay. Standard library only.
"""

import re
import threading
import time


def help_syntaxes(lines):
    """The command syntaxes `help` lists: a line at column 2 (its overflow
    at column 4); what a command does is below it at column 6."""
    out = []
    for line in lines:
        if re.match(r"^  \S", line):
            out.append(line.strip())
        elif re.match(r"^    \S", line) and out:
            out[-1] += " " + line.strip()
    return out


class Pipe:
    """The reading side of one fcredirect process (proc: a Popen with
    stdin and stdout pipes); log: a file every line is written to."""

    def __init__(self, proc, log, marker):
        self.proc = proc
        self.log = log
        self.marker = marker
        self.lines = []
        self.cv = threading.Condition()
        self.eof = False
        self.mark = 0
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        f = self.proc.stdout
        while True:
            line = f.readline()
            if not line:
                break
            s = line.decode("utf-8", "replace").rstrip("\n")
            self.log.write(s + "\n")
            self.log.flush()
            with self.cv:
                self.lines.append(s)
                self.cv.notify_all()
        with self.cv:
            self.eof = True
            self.cv.notify_all()

    def alive(self):
        return self.proc.poll() is None

    def query(self, text, timeout, send, error):
        """send(text + marker line); returns what the program printed up to
        the marker. error(message) makes the exception raised when it exits
        or does not answer in time."""
        self.mark += 1
        m = "%s-%d" % (self.marker, self.mark)
        with self.cv:
            start = len(self.lines)
        send(text.rstrip("\n") + "\n" + m + "\n")
        end = time.monotonic() + timeout
        seen = start  # lines before it hold no marker: each is looked at once
        with self.cv:
            while True:
                for i in range(seen, len(self.lines)):
                    if "'%s'" % m in self.lines[i]:
                        out = self.lines[start:i]
                        return "\n".join(out) + ("\n" if out else "")
                seen = len(self.lines)
                if self.eof:
                    raise error("exited while answering %r" % text)
                left = end - time.monotonic()
                if left <= 0:
                    raise error("no answer to %r in %.0f s" % (text, timeout))
                self.cv.wait(left)
