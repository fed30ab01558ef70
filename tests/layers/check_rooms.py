#!/usr/bin/env python3
"""The rooms of a layer, held to their declared order.

A folder of src/ may be split into rooms (subfolders) declared top-down in src/CMakeLists.txt
(FB_ROOMS). A file may include its own room and the rooms declared below its room; rooms declared
together (one quoted group) are peers and may not include each other; a file at the folder's top
level (the folder's entries) may include every room; no room may include the folder's top level.
A subfolder that is not declared is an error, so that a new room cannot escape the order.

  check_rooms.py SRC_DIR FOLDER "ROOM ROOM" "ROOM" ... [-- FOLDER "ROOM" ...]
Exit 0 when every include keeps the order, 1 with one line per include that does not.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def parse(argv):
    """[(folder, [[room, ...] tier by tier, top first])] from the command line."""
    groups, current = [], []
    for arg in argv:
        if arg == "--":
            groups.append(current)
            current = []
        else:
            current.append(arg)
    groups.append(current)
    return [(g[0], [tier.split() for tier in g[1:]]) for g in groups if g]


def room_of(path_in_folder):
    parts = path_in_folder.split("/")
    return parts[0] if len(parts) > 1 else ""  # "" is the folder's top level


def check_folder(src, folder, tiers):
    tier_of = {room: i for i, tier in enumerate(tiers) for room in tier}
    tier_of[""] = -1  # the top level: above every room
    problems = []
    base = os.path.join(src, folder)
    for name in sorted(os.listdir(base)):
        if os.path.isdir(os.path.join(base, name)) and name not in tier_of:
            problems.append(f"{folder}/{name}/: a room that is not declared in FB_ROOMS ({folder}, src/CMakeLists.txt)")
    for root, _, files in os.walk(base):
        for file in sorted(files):
            path = os.path.join(root, file)
            mine = room_of(os.path.relpath(path, base))
            if mine not in tier_of:
                continue
            with open(path, encoding="utf-8", errors="replace") as text:
                for number, line in enumerate(text, 1):
                    m = INCLUDE.match(line)
                    if not m or not m.group(1).startswith(folder + "/"):
                        continue
                    theirs = room_of(m.group(1)[len(folder) + 1:])
                    if theirs == mine or theirs not in tier_of:
                        continue
                    if tier_of[theirs] <= tier_of[mine]:
                        where = "the folder's top level" if theirs == "" else f"room {theirs}/"
                        why = "a peer" if tier_of[theirs] == tier_of[mine] else "above it"
                        problems.append(f"{os.path.relpath(path, src)}:{number}: room {mine or '(top)'}/ includes "
                                        f"{m.group(1)} ({where}, {why}): against the order of FB_ROOMS ({folder}, src/CMakeLists.txt)")
    return problems


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    src = sys.argv[1]
    problems = []
    for folder, tiers in parse(sys.argv[2:]):
        problems += check_folder(src, folder, tiers)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
