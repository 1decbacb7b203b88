#!/usr/bin/python3
"""kconfig-why.py TREE ARCH CHANGED... -- SYMBOL...

Why each SYMBOL changed when the symbols CHANGED (every symbol a
scripts/diffconfig lists, without CONFIG_) did: the line of its Kconfig
entry, or of an "if" around it, that names a changed symbol ("depends
on", "if", "visible if"), or else an entry of a changed symbol that
selects or implies it. Reads the Kconfig files of TREE outside arch/,
and those of arch/ARCH. Prints "SYMBOL<TAB>file: line" per SYMBOL, or
"SYMBOL<TAB>" when no such line exists (the caller fails on that).
"""
import os
import re
import sys

ENTRY = re.compile(r'^(menu)?config\s+(\w+)\s*$')
# Keywords that end a config entry at the start of a line.
END = re.compile(r'^(menu)?config\s|^(choice|endchoice|menu|endmenu|if|endif|'
                 r'source|comment|mainmenu)\b')


def kconfig_files(tree, arch):
    for top, dirs, files in os.walk(tree):
        rel = os.path.relpath(top, tree)
        parts = rel.split(os.sep)
        if parts[0] in ('.git', '.pc', 'tools', 'Documentation'):
            dirs[:] = []
            continue
        if parts[0] == 'arch' and len(parts) > 1 and parts[1] != arch:
            dirs[:] = []
            continue
        for f in files:
            if f.startswith('Kconfig'):
                yield os.path.join(top, f), os.path.join(rel, f)


def entries(tree, arch):
    """(symbol, file, [condition lines], [select/imply targets])"""
    for path, rel in kconfig_files(tree, arch):
        with open(path, errors='replace') as f:
            lines = [l.rstrip('\n') for l in f]
        ifs = []
        cur = None
        help_indent = None	# inside a help text: its keyword's indent
        for line in lines:
            s = line.strip()
            indent = len(line.expandtabs()) - len(line.expandtabs().lstrip())
            if help_indent is not None:
                if not s or indent > help_indent:
                    continue
                help_indent = None
            if s in ('help', '---help---'):
                help_indent = indent
                continue
            if END.match(s) and cur:
                yield cur
                cur = None
            if s.startswith('if ') and not line[0].isspace():
                ifs.append(s)
            elif s == 'endif':
                ifs and ifs.pop()
            m = ENTRY.match(s)
            if m:
                cur = (m.group(2), rel, list(ifs), [])
            elif cur and re.match(r'(depends on|visible if)\s', s):
                cur[2].append(s)
            elif cur and re.match(r'(select|imply)\s+\w+', s):
                cur[3].append((s.split()[1], s))
        if cur:
            yield cur


def main():
    tree, arch = sys.argv[1], sys.argv[2]
    sep = sys.argv.index('--')
    changed = set(sys.argv[3:sep])
    wanted = sys.argv[sep + 1:]
    names = lambda cond: set(re.findall(r'\b[A-Z0-9_]+\b', cond))
    why = {}
    selectors = {}
    for sym, rel, conds, selects in entries(tree, arch):
        for target, line in selects:
            if sym in changed:
                selectors.setdefault(target, f'{rel}: config {sym}: {line}')
        if sym not in wanted or sym in why:
            continue
        for cond in conds:
            hit = sorted((names(cond) & changed) - {sym})
            if hit:
                why[sym] = f'{rel}: {cond}'
                break
    for sym in wanted:
        print(f'{sym}\t{why.get(sym) or selectors.get(sym, "")}')


if __name__ == '__main__':
    main()
