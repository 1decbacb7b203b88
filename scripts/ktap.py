#!/usr/bin/python3
"""ktap.py [--kselftest] TREE LOG JSON_OUT

Count the results of one boot's KTAP with the tree's own parser,
tools/testing/kunit/kunit.py parse, and print
"passed N failed N skipped N" for scripts/summary.sh.

LOG is the console (KUnit's KTAP among kernel messages) or, with
--kselftest, what the kselftest runner printed: its own plan and one
result per program, each program's KTAP indented under "# ". That
nesting is turned into KTAP's (four spaces) before kunit.py reads it.
kunit.py's text report goes beside JSON_OUT (.txt).

Counted as failures: every failed or crashed test case, every parse
error kunit.py reports (a plan that does not match the results, a
missing plan), a non-zero exit status of kunit.py with nothing else
failed, no KTAP at all, and, for kselftests, a program that printed no
KTAP of its own (an empty output).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HEADER = re.compile(r"^(K?TAP version \d+)")


RUN = re.compile(r"^# #  RUN +(\S+) ")
NAMELESS = re.compile(r"^# ((?:not )?ok \d+) (# .*)$")


def nest(lines):
    """The kselftest runner's "# "-prefixed program output as KTAP subtests.

    6.1's kselftest_harness.h leaves the name out of a skipped test's
    result ("ok 7 # SKIP reason"), which KTAP requires; it is taken from
    the harness's "RUN" line before it.
    """
    out, inside, name = [], False, "unnamed"
    for line in lines:
        run, nameless = RUN.match(line), NAMELESS.match(line)
        if run:
            name = run.group(1)
        if line.startswith("# selftests: "):
            inside = True
            out.append(line)
        elif re.match(r"^(not )?ok \d+ ", line):
            inside = False
            out.append(line)
        elif inside and nameless:
            out.append("    %s %s %s" % (nameless.group(1), name,
                                         nameless.group(2)))
        elif inside and (line.startswith("# ") or line == "#"):
            out.append("    " + line[2:])
        else:
            out.append(line)
    return out


def leaves(group, count):
    for case in group.get("test_cases", []):
        status = case["status"]
        count[status if status in ("PASS", "SKIP") else "FAIL"] += 1
    for sub in group.get("sub_groups", []):
        leaves(sub, count)


def main():
    args = sys.argv[1:]
    kselftest = args[0] == "--kselftest"
    if kselftest:
        args = args[1:]
    tree, log, json_out = args
    report = os.path.splitext(json_out)[0] + ".txt"
    for path in (json_out, report):
        if os.path.exists(path):
            os.remove(path)
    with open(log, errors="backslashreplace") as f:
        lines = f.read().splitlines()
    if kselftest:
        lines = nest(lines)
    with tempfile.NamedTemporaryFile("w", suffix=".ktap", delete=False) as t:
        t.write("\n".join(lines) + "\n")
    proc = subprocess.run(
        [sys.executable, os.path.join(tree, "tools/testing/kunit/kunit.py"),
         "parse", "--json=" + json_out, t.name],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    os.unlink(t.name)
    with open(report, "w") as f:
        f.write(proc.stdout)

    count = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    problems = []
    if not os.path.exists(json_out):
        problems.append("kunit.py wrote no results")
    else:
        with open(json_out) as f:
            root = json.load(f)
        if kselftest:
            # each program is a group of its own test cases
            for case in root.get("test_cases", []):
                problems.append("%s: the program printed no KTAP" % case["name"])
            root = dict(root, test_cases=[])
        leaves(root, count)
    errors = re.search(r"errors: (\d+)", proc.stdout)
    crashed = re.search(r"crashed: (\d+)", proc.stdout)
    if errors:
        problems += ["kunit.py: parse error"] * int(errors.group(1))
    if crashed:
        count["FAIL"] += int(crashed.group(1))
    if sum(count.values()) == 0:
        problems.append("no test results")
    if proc.returncode != 0 and count["FAIL"] == 0 and not problems:
        problems.append("kunit.py parse exited %d" % proc.returncode)
    for p in problems:
        print("not ok - %s: %s" % (log, p), file=sys.stderr)
    print("passed %d failed %d skipped %d" %
          (count["PASS"], count["FAIL"] + len(problems), count["SKIP"]))


if __name__ == "__main__":
    main()
