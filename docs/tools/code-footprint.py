#!/usr/bin/env python3
"""The code a key runs, from a callgrind profile made with --dump-instr=yes (docs/tools/code-footprint.sh):
distinct 64-byte lines and 4 KiB pages of machine code executed, per object file, and instructions per key.
A key that arrives after the caches went elsewhere pays for every distinct line and page it touches (PERFORMANCE.md,
"How to profile"); the instruction count alone does not say that.
    code-footprint.py PROFILE KEYS [FUNCTIONS]"""
import collections
import re
import subprocess
import sys

path, keys = sys.argv[1], int(sys.argv[2])
shown = int(sys.argv[3]) if len(sys.argv) > 3 else 0
objects, functions = {}, {}
lines, pages = collections.defaultdict(set), collections.defaultdict(set)
function_lines, costs = collections.defaultdict(set), collections.Counter()
current_object = current_function = None
address, after_call = 0, False


def named(text, table):
    # callgrind compresses names: "(12) name" the first time, "(12)" after.
    match = re.match(r'\((\d+)\)(?: (.*))?', text)
    if not match:
        return text
    if match.group(2):
        table[match.group(1)] = match.group(2)
    return table[match.group(1)]


for line in open(path):
    line = line.rstrip('\n')
    if line.startswith('ob='):
        current_object = named(line[3:], objects)
    elif line.startswith('fn='):
        current_function = named(line[3:], functions)
    elif line.startswith('cob='):
        named(line[4:], objects)
    elif line.startswith('cfn='):
        named(line[4:], functions)
    elif line.startswith('calls='):
        after_call = True
    elif line and line[0] in '0123456789+-*':
        position = line.split()[0]
        if position.startswith('0x'):
            address = int(position, 16)
        elif position[0] in '+-':
            step = int(position[1:], 16) if position[1:].startswith('0x') else int(position[1:])
            address += step if position[0] == '+' else -step
        elif position != '*':
            continue
        lines[current_object].add(address >> 6)
        pages[current_object].add(address >> 12)
        function_lines[(current_object, current_function)].add(address >> 6)
        if after_call:  # the call's own line: the calling instruction, its cost is the callee's
            after_call = False
            continue
        fields = line.split()
        if len(fields) > 2:
            costs[current_object] += int(fields[2])

total_lines = sum(len(v) for v in lines.values())
total_pages = sum(len(v) for v in pages.values())
print(f'{total_lines} lines of code ({total_lines * 64 // 1024} KiB) on {total_pages} pages; '
      f'{sum(costs.values()) // keys} instructions a key')
for name in sorted(lines, key=lambda o: -len(lines[o])):
    print(f'  {len(lines[name]):6d} lines {len(pages[name]):5d} pages {costs[name] // keys:9d} instr/key  {name}')
if shown:
    biggest = sorted(function_lines, key=lambda k: -len(function_lines[k]))[:shown]
    demangled = subprocess.run(['swift', 'demangle', '--simplified'], input='\n'.join(k[1] for k in biggest),
                               capture_output=True, text=True).stdout.split('\n')
    for (name, _), readable in zip(biggest, demangled):
        print(f'  {len(function_lines[(name, _)]):5d} lines  {name.split("/")[-1][:16]:16s} {readable[:140]}')
