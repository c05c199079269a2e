#!/usr/bin/env python3
"""The leak picture and the leak report agree on every lesson: its demo, its reference
solution and its exercise as shipped. Each run writes the picture (--dot, DOT text) and
its timeline (--record), whose last frame holds the leak report's text and the leak
picture again; the objects the picture draws as not released, with their counts, whether
they are still in sysfs and which leak keeps them alive, must be exactly the report's.

Usage: agree_test.py KOBJ
"""
import concurrent.futures
import html
import json
import os
import re
import subprocess
import sys

KOBJ = os.path.realpath(sys.argv[1])
LESSONS = os.path.join(os.getcwd(), "lessons")
TMP = os.environ.get("TEST_TMPDIR", "/tmp")
ENV = dict(os.environ, KOBJ_LESSONS=LESSONS, NO_COLOR="1", HOME=TMP)

NODE = re.compile(r'^\s*k\d+ \[id="k\d+", class="(\w+) ([\w-]+)[^"]*".*label=<(.*)>\];$', re.M)
NOT_RELEASED = {"leaked", "registered", "kept"}


def picture(dot):
    """{(name, count, still in sysfs, root)} of the objects drawn as not released."""
    if 'class="fold"' in dot:
        raise ValueError("a kset is folded: not every object can be compared")
    found = set()
    for kind, state, label in NODE.findall(dot):
        name = html.unescape(re.search(r"<b>(.*?)</b>", label).group(1))
        name = "" if name == "(no name)" else name
        m = re.search(r"refcount (\d+)|(\d+) users?", label)
        count = int(m.group(1) or m.group(2))
        words = html.unescape(re.search(r"<i>(.*?)</i>", label).group(1))
        if state not in NOT_RELEASED:
            if re.search(r"leak|kept|at exit", words):
                raise ValueError(f"'{name}' is {state} but says '{words}'")
            continue
        root = re.match(r"kept alive by '(.*)'", words)
        in_sysfs = state == "registered" or words.endswith(", in sysfs")
        found.add((kind == "module", name, count, in_sysfs, root.group(1) if root else None))
    return found


def report(text):
    """The same set, read from the leak report."""
    found, last = set(), None
    for line in text.splitlines():
        m = re.match(r"  '(.*)' \(\w+\) refcount (\d+), initialised at .*?(, still in sysfs)?$",
                     line)
        mod = re.match(r"  module '(.*)' still has (\d+) user", line)
        root = re.match(r"    kept alive only by objects not released: the cause is '(.*)'",
                        line)
        if m or mod:
            if last:
                found.add(last)
            last = (False, m[1], int(m[2]), bool(m[3]), None) if m else \
                (True, mod[1], int(mod[2]), False, None)
        elif root and last:
            last = last[:4] + (root[1],)
    if last:
        found.add(last)
    return found


def leak_frame(page):
    """The leak report's text and the classes of the leak picture in a timeline page."""
    data = page[page.index("const T = {"):]
    text = json.loads(re.search(r'\ntext: ("(?:[^"\\]|\\.)*")\}', data).group(1))
    svg = html.unescape(json.loads(re.search(r'leak: \{svg: ("(?:[^"\\]|\\.)*")', data).group(1)))
    classes = sorted(re.findall(r'class="node (\w+ [\w-]+)', svg))
    return text, classes


def runs():
    for slug in sorted(os.listdir(LESSONS)):
        if not re.match(r"\d\d-", slug):
            continue
        n = str(int(slug[:2]))
        yield f"{slug} demo", ["lesson", "--dir", "STUDENT", "run", n]
        solution = os.path.join(LESSONS, "solutions", slug + ".lua")
        yield f"{slug} solution", ["lesson", "--dir", "STUDENT", "check", n, solution]
        exercise = os.path.join(LESSONS, slug, "exercise.lua")
        yield f"{slug} exercise", ["lesson", "--dir", "STUDENT", "check", n, exercise]


def check(job):
    """Runs one lesson run with --dot and --record; Return: a list of problems."""
    i, (what, args) = job
    dot, page = f"{TMP}/picture{i}.dot", f"{TMP}/page{i}.html"
    args = [f"{TMP}/student{i}" if a == "STUDENT" else a for a in args]
    subprocess.run([KOBJ] + args + ["--dot", dot, "--record", page], env=ENV,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=120)
    try:
        text_dot = open(dot).read()
        drawn = picture(text_dot)
        text, classes = leak_frame(open(page).read())
        said = report(text)
        dot_classes = sorted(f"{k} {s}" for k, s, _ in NODE.findall(text_dot))
    except (OSError, ValueError, AttributeError) as e:
        return [str(e)]
    problems = []
    if drawn != said:
        problems.append(f"picture {sorted(drawn)} != report {sorted(said)}")
    if ("No leaks" in text) != (not drawn):
        problems.append("the report says no leaks and the picture draws some, or not")
    if classes != dot_classes:
        problems.append(f"the timeline's leak frame {classes} != the picture {dot_classes}")
    return problems


def main():
    jobs = list(enumerate(runs()))
    # two at a time: most of a run is waiting for graphviz
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(check, jobs))
    passed = failed = 0
    for (_, (what, _)), problems in zip(jobs, results):
        if problems:
            print(f"FAIL: {what}: " + "; ".join(problems))
            failed += 1
        else:
            passed += 1
    if passed + failed < 54:
        print(f"FAIL: only {passed + failed} runs: are the lessons there?")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return failed != 0


if __name__ == "__main__":
    sys.exit(main())
