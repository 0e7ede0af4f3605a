#!/usr/bin/env python3
"""Writes the position streams PresenceTests replays (fixed seed: the output never changes).

Each line is one position as a scanner in locate mode posts it, every 2 s with 0-300 ms of
jitter: t (seconds from the start), room ("hall", "office" or null for the corridor), x, y in
metres on the ground floor; the office's wall with the hall is at x = 5.
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


for name, lines in [("doorway-wobble", doorway_wobble()), ("stops", stops())]:
    with open(f"{name}.jsonl", "w") as out:
        for line in lines:
            out.write(json.dumps(line) + "\n")
