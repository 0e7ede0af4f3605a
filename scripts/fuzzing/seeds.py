#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets: OUT/hci, OUT/advertising, OUT/netlink.

Seeds come from the real captures in DATA (ble-hci-captures/*: the whole btsnoop files and every HCI
event in them, the advertising data of every one-report LE Advertising Report; nl80211-captures/*.dat:
the attribute stream, and the same wrapped in netlink + generic netlink headers) and from the byte
arrays written as plain hex literals in the test sources under TESTS (every seed goes to every
corpus: libFuzzer keeps what adds coverage). Standard library only; a missing DATA folder only
means fewer seeds (said on stderr).
"""

import hashlib
import pathlib
import re
import struct
import sys


def btsnoop_events(data):
    """HCI event packets (without the H4 type byte) of a btsnoop capture; none if it is not one."""
    if not data.startswith(b"btsnoop\0") or len(data) < 16:
        return
    datalink = struct.unpack_from(">I", data, 12)[0]
    offset = 16
    while offset + 24 <= len(data):
        _, included, flags, _, _ = struct.unpack_from(">IIIIq", data, offset)
        packet = data[offset + 24:offset + 24 + included]
        offset += 24 + included
        if datalink == 1001 and flags & 0x02 and flags & 0x01:
            yield packet                                  # HCI: command/event flag, received
        elif datalink == 1002 and packet[:1] == b"\x04":
            yield packet[1:]                              # H4: event packet type
        elif datalink == 2001 and flags & 0xFFFF == 3:
            yield packet                                  # monitor: opcode 3, event


def advertising_data(event):
    """The data of a one-report LE Advertising Report event, or None."""
    if len(event) >= 14 and event[0] == 0x3E and event[2] == 0x02 and event[3] == 1:
        length = event[12]
        return event[13:13 + length]
    return None


def hex_arrays(source):
    """Byte arrays written only as hex literals (and comments) in Swift source."""
    for match in re.finditer(r"\[UInt8\]\s*=\s*\[(.*?)\]", source, re.S):
        body = re.sub(r"//[^\n]*", "", match.group(1))
        values = [token.strip() for token in body.split(",") if token.strip()]
        if values and all(re.fullmatch(r"0x[0-9A-Fa-f]{1,2}", value) for value in values):
            yield bytes(int(value, 16) for value in values)


def main(data_dir, tests_dir, out_dir):
    corpora = {name: pathlib.Path(out_dir, name) for name in ("hci", "advertising", "netlink")}
    for path in corpora.values():
        path.mkdir(parents=True, exist_ok=True)

    def seed(corpus, data):
        if data:
            (corpora[corpus] / hashlib.sha1(data).hexdigest()).write_bytes(data)

    captures = pathlib.Path(data_dir)
    if not captures.is_dir():
        print(f"seeds: no data folder at {captures}; seeding from the test sources only", file=sys.stderr)
    for capture in sorted(captures.glob("ble-hci-captures/*")):
        data = capture.read_bytes()
        if not data.startswith(b"btsnoop"):
            continue
        seed("hci", data)
        for event in btsnoop_events(data):
            seed("hci", event)
            seed("advertising", advertising_data(event))
    for capture in sorted(captures.glob("nl80211-captures/*.dat")):
        attributes = capture.read_bytes()
        seed("netlink", attributes)
        generic = bytes([34, 1, 0, 0]) + attributes          # NL80211_CMD_NEW_SCAN_RESULTS, version 1
        seed("netlink", struct.pack("<IHHII", 16 + len(generic), 0x1C, 0x02, 1, 0) + generic)
    for source in sorted(pathlib.Path(tests_dir).rglob("*.swift")):
        for array in hex_arrays(source.read_text(errors="replace")):
            for corpus in corpora:
                seed(corpus, array)
    for corpus, path in corpora.items():
        print(f"seeds: {corpus}: {len(list(path.iterdir()))} inputs", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: seeds.py DATA-FOLDER TESTS-FOLDER OUT-FOLDER")
    main(*sys.argv[1:])
