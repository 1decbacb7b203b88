#!/usr/bin/python3
"""ktap.py [--kselftest] [--skips ALLOWED] TREE LOG JSON_OUT

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
KTAP of its own (an empty output), and every skip whose name
("program/case" for a kselftest, "suite/case" for KUnit) is not a line
of the file ALLOWED (boot-tests/skips, cut to this boot by
scripts/boot-test.sh; without --skips, no skip is allowed).

For kselftests the runner's own line on each program counts too, beside
the program's cases: "ok N selftests: devkmem: P" is a pass, "not ok"
(a TIMEOUT, a signal, a non-zero exit) a failure even when every case
passed, "# SKIP" a skip, and a program that started without such a
line (the boot ended inside it) a failure.
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
STARTED = re.compile(r"^# selftests: \S+: (\S+)$")
VERDICT = re.compile(r"^(not )?ok \d+ selftests: \S+: (\S+)(?: # (.*))?$")


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
            inside, name = True, "unnamed"
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


def leaves(group, count, named, prefix=""):
    """Count the cases; named["SKIP"] and named["FAIL"] get their names."""
    for case in group.get("test_cases", []):
        status = case["status"]
        status = status if status in ("PASS", "SKIP") else "FAIL"
        count[status] += 1
        named[status].append(prefix + case["name"])
    for sub in group.get("sub_groups", []):
        # "selftests: devkmem: kmem-offline" -> "kmem-offline/"
        leaves(sub, count, named, sub["name"].split(": ")[-1] + "/")


def verdicts(lines, count, problems, skipped):
    """Count the kselftest runner's result line of each program."""
    started = []
    for line in lines:
        line = line.rstrip()  # the serial console's "\r\n"
        start, verdict = STARTED.match(line), VERDICT.match(line)
        if start:
            started.append(start.group(1))
        if not verdict:
            continue
        prog, directive = verdict.group(2), verdict.group(3) or ""
        if prog in started:
            started.remove(prog)
        if verdict.group(1):
            problems.append("%s: the runner says not ok%s" %
                            (prog, " (%s)" % directive if directive else ""))
        elif directive.upper().startswith("SKIP"):
            count["SKIP"] += 1
            skipped.append(prog)
        else:
            count["PASS"] += 1
    for prog in started:
        problems.append("%s: started, and the runner gave no verdict" % prog)


def main():
    args = sys.argv[1:]
    kselftest = args[0] == "--kselftest"
    if kselftest:
        args = args[1:]
    allowed = set()
    if args[0] == "--skips":
        with open(args[1]) as f:
            allowed = set(line.strip() for line in f if line.strip())
        args = args[2:]
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
    named = {"PASS": [], "FAIL": [], "SKIP": []}
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
            verdicts(lines, count, problems, named["SKIP"])
        leaves(root, count, named)
    for name in named["FAIL"]:
        print("not ok - %s: %s failed" % (log, name), file=sys.stderr)
    for name in named["SKIP"]:
        if name not in allowed:
            problems.append("%s: skipped, and boot-tests/skips does not "
                            "allow it in this boot" % name)
    # kunit.py's own summary, its last such line (a test's log may hold
    # the words too)
    errors = re.findall(r"errors: (\d+)", proc.stdout)
    crashed = re.findall(r"crashed: (\d+)", proc.stdout)
    if errors:
        problems += ["kunit.py: parse error"] * int(errors[-1])
    if crashed:
        count["FAIL"] += int(crashed[-1])
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
