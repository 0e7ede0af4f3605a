#!/usr/bin/env python3
"""Writes the position streams PresenceTests replays (fixed seed: the output never changes).

Each line of the scanner streams is one position as a scanner in locate mode posts it, every 2 s
with 0-300 ms of jitter: t (seconds from the start), room ("hall", "office" or null for the
corridor), x, y in metres on the ground floor; the office's wall with the hall is at x = 5.

The tag streams (tag-*.jsonl, TagPresenceTests) are a tag's positions as switchd stores them,
one per closed 1 s window (t on whole seconds), room being the room of the nearest location; a
smoothed estimate near a wall crosses it in runs of a few windows.
"""
import json
import random

random.seed(14)


def point(t, room, x, y):
    return {"t": round(t, 3), "room": room, "x": round(x, 2), "y": round(y, 2)}


def doorway_wobble():
    """Standing in the hall, then 60 s in the doorway (the estimate crosses the wall in runs of at
    most 3 positions, 4 s), then walking into the office and staying."""
    lines, t = [], 0.0
    for _ in range(8):
        lines.append(point(t, "hall", 2 + random.uniform(-0.4, 0.4), 3 + random.uniform(-0.4, 0.4)))
        t += 2 + random.uniform(0, 0.3)
    side, run = "office", 0
    for _ in range(30):
        run_limit = random.choice([1, 2, 3])
        if run >= run_limit:
            side, run = ("hall" if side == "office" else "office"), 0
        x = 5 + (random.uniform(0.05, 0.6) if side == "office" else -random.uniform(0.05, 0.6))
        lines.append(point(t, side, x, 3 + random.uniform(-0.3, 0.3)))
        run += 1
        t += 2 + random.uniform(0, 0.3)
    for _ in range(8):
        lines.append(point(t, "office", 7 + random.uniform(-0.4, 0.4), 3 + random.uniform(-0.4, 0.4)))
        t += 2 + random.uniform(0, 0.3)
    return lines


def stops():
    """Ten positions in the office, then the scanner falls silent."""
    lines, t = [], 0.0
    for _ in range(10):
        lines.append(point(t, "office", 7 + random.uniform(-0.4, 0.4), 3 + random.uniform(-0.4, 0.4)))
        t += 2 + random.uniform(0, 0.3)
    return lines


def tag_doorway_wobble():
    """A visitor's badge 15 s in the hall, then 40 s at the office door (the estimate crosses
    the wall in runs of at most 4 windows, 4 s), then 15 s in the office."""
    lines, t = [], 0
    for _ in range(15):
        lines.append(point(t, "hall", 2.5 + random.uniform(-0.3, 0.3), 3 + random.uniform(-0.3, 0.3)))
        t += 1
    side, run = "office", 0
    for _ in range(40):
        run_limit = random.choice([1, 2, 3, 4])
        if run >= run_limit:
            side, run = ("hall" if side == "office" else "office"), 0
        x = 5 + (random.uniform(0.05, 0.4) if side == "office" else -random.uniform(0.05, 0.4))
        lines.append(point(t, side, x, 3 + random.uniform(-0.2, 0.2)))
        run += 1
        t += 1
    for _ in range(15):
        lines.append(point(t, "office", 7 + random.uniform(-0.3, 0.3), 3 + random.uniform(-0.3, 0.3)))
        t += 1
    return lines


def tag_goes_silent():
    """A bike's tag 12 s in the office, then no scanner hears it any more."""
    return [point(t, "office", 7 + random.uniform(-0.3, 0.3), 3 + random.uniform(-0.3, 0.3)) for t in range(12)]


def tag_comes_back():
    """The same tag heard again ten minutes later, in the hall, for 8 s."""
    return [point(600 + t, "hall", 2 + random.uniform(-0.3, 0.3), 3 + random.uniform(-0.3, 0.3)) for t in range(8)]


for name, lines in [
    ("doorway-wobble", doorway_wobble()), ("stops", stops()), ("tag-doorway-wobble", tag_doorway_wobble()),
    ("tag-goes-silent", tag_goes_silent()), ("tag-comes-back", tag_comes_back()),
]:
    with open(f"{name}.jsonl", "w") as out:
        for line in lines:
            out.write(json.dumps(line) + "\n")
