#!/usr/bin/env python3
"""Predictions at a terminal, in every lesson's demo.

`kobj lesson run` asks before it shows, grades each answer, lists the choices of
multiple-choice questions, and explains after every answer. The answers are first read
from a run without a terminal, which prints them; then on a pseudo-terminal they are
typed right but in other words ("Two", " GONE ", "Y"), then wrong.

Usage: predict_test.py PATH_TO_KOBJ (from a folder with lessons/).
"""
import os
import re
import select
import subprocess
import sys
import time

WORDS = "zero one two three four five six seven eight nine ten".split()
OTHER_WORDS = {"released": " GONE ", "yes": "Y", "no": "n", "deleted": "Removed",
               "true": "Yes", "false": "No", "nil": "NULL"}
CHOICES = re.compile(r"\? \((?:one of: (.*)|(.*) or (.*))\)$")
ANSWER = re.compile(r"  \(answer: (.*)\)$")

kobj = os.path.realpath(sys.argv[1])
os.environ.update(KOBJ_LESSONS=os.path.realpath("lessons"), NO_COLOR="1",
                  HOME=os.environ.get("TEST_TMPDIR", "/tmp"))
failures = []


def on_tty(argv, typed, last=None):
    """Runs argv on a pseudo-terminal with @typed typed into it; returns the screen.

    The test keeps the terminal's other end open, so the end of the output is read like
    the rest: a terminal whose program has exited can drop what it printed last (the
    master's read fails as soon as the other end closes), which a busy machine shows.
    After the exit it reads until the screen ends with @last (compared without spaces,
    as lines wrap on a terminal), or half a second of quiet."""
    master, slave = os.openpty()
    child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave,
                             start_new_session=True)
    os.write(master, typed.encode())
    out = b""
    quiet_since = None
    while True:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            out += os.read(master, 65536)
            quiet_since = None
        elif child.poll() is not None:
            if last is not None and re.sub(rb"\s+", b"", out).endswith(last):
                break
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since > (5 if last is not None else 0.5):
                break
    os.close(slave)
    os.close(master)
    return out.decode(errors="replace").replace("\r", "")


def questions(plain):
    """(answer, choices) for each question of a run without a terminal."""
    lines = plain.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("? "):
            continue
        answer = next((m.group(1) for m in map(ANSWER.match, lines[i:]) if m), None)
        m = CHOICES.search(line)
        choices = (m.group(1).split(", ") if m.group(1) else [m.group(2), m.group(3)]) if m else []
        yield answer, choices


def in_other_words(answer, _choices):
    if answer.isdigit() and int(answer) < len(WORDS):
        return WORDS[int(answer)].capitalize()
    return OTHER_WORDS.get(answer, "  " + answer.upper() + " ")


def wrong(answer, choices):
    others = [c for c in choices if c.lower() != answer.lower()]
    if others:
        return others[0]
    return str(int(answer) + 1) if answer.lstrip("-").isdigit() else "zzz"


def explained(screen):
    """Whether every graded answer is followed by its explanation."""
    lines = screen.splitlines()
    return all(re.match(r"  \S", lines[i + 1]) for i, line in enumerate(lines)
               if re.match(r".*  (right|not quite): ", line) and i + 1 < len(lines))


def check_lesson(n, slug):
    plain = subprocess.run([kobj, "lesson", "run", str(n)], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True).stdout
    asked = list(questions(plain))
    if any(answer is None for answer, _ in asked):
        failures.append(f"{slug}: a question without its answer")
        return 0
    for name, make, graded in (("in other words", in_other_words, "  right: "),
                               ("wrong", wrong, "  not quite: you said ")):
        typed = "".join(make(a, c) + "\n" for a, c in asked)
        last = re.sub(r"\s+", "", plain)[-40:].encode()
        screen = on_tty([kobj, "lesson", "run", str(n)], typed, last)
        got = screen.count(graded)
        if got != len(asked):
            failures.append(f"{slug}: {got} of {len(asked)} answers {name} graded as such"
                            f" (typed {typed!r}); the screen:\n{screen}")
        if not explained(screen):
            failures.append(f"{slug}: an answer {name} without its explanation")
    return len(asked)


lessons = sorted(d for d in os.listdir("lessons") if re.match(r"\d\d-", d))
asking = sum(1 for slug in lessons if check_lesson(int(slug[:2]), slug) > 0)
if asking < 15:
    failures.append(f"only {asking} lessons ask predictions")

# A yes/no question lists its choices and asks again for an answer that is neither.
screen = on_tty([kobj, "lesson", "run", "1"], "1\n2\nmaybe\nNo.\nfreed\n")
if not re.search(r"has the release method run\? \(yes or no\)$", screen, re.M):
    failures.append("lesson 1: no choices listed")
if "'maybe' is not one of the choices (yes or no)" not in screen:
    failures.append("lesson 1: 'maybe' accepted")
if screen.count("  right: ") != 4:
    failures.append("lesson 1: 'No.' or 'freed' not accepted")

for f in failures:
    print("FAIL: " + f)
print(f"{int(not failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
