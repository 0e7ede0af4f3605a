#!/usr/bin/env python3
"""An emulated Bluetooth LE controller on /dev/vhci (the kernel's hci_vhci driver) for the radio lab.

It creates a primary controller (hciN), answers the HCI commands the kernel and a raw-socket scanner
send with Command Complete, and while scanning is enabled emits one LE Advertising Report per beacon
every --interval seconds (LE Extended Advertising Reports when the scan was enabled with the extended
commands, which it claims only with --extended). With --vanish-after it closes /dev/vhci that many
seconds after a scan was first enabled (the controller disappears) and reopens it --absent-for seconds later (a new controller appears), as a
radio that drops off the bus and comes back.

With --phone it also advertises a phone whose resolvable private address is made from a known
Identity Resolving Key and changes every --rotate-every seconds (Core Vol 6 Part B §1.3.2.2: 22
random bits under the top bits 01, then ah(IRK, prand), AES-128 by the openssl command), and with
--strangers N that many other phones whose private addresses no key of the test resolves, rotating
likewise. --rotations-file gets one line per address the phone takes: the wall-clock time it starts
advertising it and the address.

Standard library only. Exits 1 with a message when /dev/vhci cannot be opened or the kernel refuses
the controller; it runs until SIGTERM/SIGINT or --seconds.
"""

import argparse
import fcntl
import os
import random
import subprocess
import select
import signal
import socket
import struct
import sys
import threading
import time
import uuid

# H4 packet types and the vendor packet hci_vhci reads as "create a controller" (drivers/bluetooth/hci_vhci.c).
HCI_COMMAND_PKT, HCI_EVENT_PKT, HCI_VENDOR_PKT = 0x01, 0x04, 0xFF
HCI_PRIMARY = 0x00
EVT_CMD_COMPLETE, EVT_LE_META = 0x0E, 0x3E
LE_ADVERTISING_REPORT, LE_EXTENDED_ADVERTISING_REPORT = 0x02, 0x0D
STATUS_SUCCESS, STATUS_UNKNOWN_COMMAND = 0x00, 0x01
# include/net/bluetooth/hci_sock.h: HCIDEVUP = _IOW('H', 201, int)
HCIDEVUP = 0x400448C9

OP_LE_SET_SCAN_ENABLE, OP_LE_SET_EXT_SCAN_ENABLE = 0x200C, 0x2042


def supported_commands(extended):
    """Read Local Supported Commands bitmap (Core Vol 4, Part E, §6.27): one bit per command answered."""
    bits = bytearray(64)
    bits[5] = 0x40 | 0x80            # Set Event Mask, Reset
    bits[14] = 0x08 | 0x20 | 0x40 | 0x80  # Read Local Version, Features, Extended Features, Buffer Size
    bits[15] = 0x02                  # Read BD_ADDR
    bits[25] = 0xF7                  # LE Set Event Mask … LE Set Advertising Data (not bit 3, reserved)
    bits[26] = 0x01 | 0x02 | 0x04 | 0x08 | 0x40 | 0x80  # scan response/adv enable, scan params/enable, accept list size/clear
    bits[27] = 0x01 | 0x02           # LE Add/Remove Device To/From Accept List
    bits[28] = 0x08                  # LE Read Supported States
    if extended:
        bits[37] = 0x20 | 0x40       # LE Set Extended Scan Parameters, LE Set Extended Scan Enable
    return bytes(bits)


def return_parameters(opcode, args, index):
    """The return parameters (after the status) of a command this controller answers, or None."""
    features = bytes([0, 0, 0, 0, 0x60, 0, 0, 0])   # byte 4: LE Supported (Controller), BR/EDR Not Supported
    answers = {
        0x0C03: b"",                                   # Reset
        0x0C01: b"",                                   # Set Event Mask
        0x1001: struct.pack("<BHBHH", 0x09 if args.extended else 0x06, 0, 0x09 if args.extended else 0x06, 0x05F1, 0),
        0x1002: supported_commands(args.extended),
        0x1003: features,
        0x1004: bytes([0, 0]) + features,              # Read Local Extended Features (page 0 of 0)
        0x1005: struct.pack("<HBHH", 1021, 0, 8, 0),   # Read Buffer Size
        0x1009: bytes([index, 0x00, 0x00, 0x0B, 0xAD, 0x0A]),  # Read BD_ADDR: 0A:AD:0B:00:00:<index>
        0x2001: b"",                                   # LE Set Event Mask
        0x2002: struct.pack("<HB", 27, 8),             # LE Read Buffer Size
        0x2003: bytes(8),                              # LE Read Local Supported Features
        0x2005: b"", 0x2006: b"", 0x2008: b"", 0x2009: b"", 0x200A: b"",
        0x2007: struct.pack("<b", 0),                  # LE Read Advertising Physical Channel TX Power
        0x200B: b"",                                   # LE Set Scan Parameters
        0x200C: b"",                                   # LE Set Scan Enable
        0x200F: bytes([8]),                            # LE Read Filter Accept List Size
        0x2010: b"", 0x2011: b"", 0x2012: b"",
        0x201C: bytes([0xFF] * 5 + [0x03, 0, 0]),      # LE Read Supported States
    }
    if args.extended:
        answers[0x2041] = b""                          # LE Set Extended Scan Parameters
        answers[0x2042] = b""                          # LE Set Extended Scan Enable
    return answers.get(opcode)


def ibeacon_data(beacon):
    """Flags plus Apple's iBeacon manufacturer data (company 0x004C, type 0x02, length 0x15)."""
    return (bytes([0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]) + beacon["uuid"].bytes
            + struct.pack(">HHb", beacon["major"], beacon["minor"], beacon["power"]))


# Flags plus Apple's "nearby" manufacturer data, what an idle iPhone sends beside its private address.
PHONE_DATA = bytes([0x02, 0x01, 0x1A, 0x0A, 0xFF, 0x4C, 0x00, 0x10, 0x05, 0x01, 0x18, 0x44, 0x6E, 0x1C])


def ah(irk, prand):
    """The Core random address hash ah(k, r) (Vol 3 Part H §2.2.2): the low 24 bits of AES-128 under
    `irk` (16 bytes, most significant first) of `prand` padded with zeros in front."""
    block = bytes(13) + prand.to_bytes(3, "big")
    encrypted = subprocess.run(["openssl", "enc", "-aes-128-ecb", "-nopad", "-nosalt", "-K", irk.hex()],
                               input=block, capture_output=True, check=True).stdout
    return int.from_bytes(encrypted[-3:], "big")


def private_address(irk, generator):
    """A fresh resolvable private address for `irk` (or, without a key, one whose hash is random:
    a stranger nobody here can resolve), as the 48-bit number."""
    prand = 0x400000 | generator.getrandbits(22)
    hash_ = ah(irk, prand) if irk else generator.getrandbits(24)
    return (prand << 24) | hash_


def address_text(address):
    return ":".join(f"{byte:02x}" for byte in address.to_bytes(6, "big"))


class Phone:
    """A device advertising under a resolvable private address that it changes every `rotate_every` s."""

    def __init__(self, irk, rssi, rotate_every, generator, rotations_file=None):
        self.irk, self.rssi, self.rotate_every = irk, rssi, rotate_every
        self.generator, self.rotations_file = generator, rotations_file
        self.rotated_at = None
        self.address = None

    def advertisement(self, now):
        """(address as 6 bytes least significant first, data, RSSI); a new address when it is time."""
        if self.rotated_at is None or now - self.rotated_at >= self.rotate_every:
            self.rotated_at = now
            self.address = private_address(self.irk, self.generator)
            if self.rotations_file:
                with open(self.rotations_file, "a") as rotations:
                    rotations.write(f"{time.time():.3f} {address_text(self.address)}\n")
        return self.address.to_bytes(6, "little"), PHONE_DATA, self.rssi


def advertising_report(beacon, extended):
    """One LE Meta event holding one report of `beacon` (random static address c0:ff:ee:00:00:NN)."""
    address = bytes([beacon["number"], 0x00, 0x00, 0xEE, 0xFF, 0xC0])
    return report_event(address, ibeacon_data(beacon), beacon["rssi"], extended)


def report_event(address, data, rssi, extended):
    """One LE Meta event holding one report of a random `address` (6 bytes, least significant first)."""
    if extended:
        # Event_Type: legacy ADV_NONCONN_IND (bit 4), data complete; PHY 1M/none; no SID; TX power n/a.
        subevent = LE_EXTENDED_ADVERTISING_REPORT
        report = (struct.pack("<HB", 0x0010, 0x01) + address
                  + struct.pack("<BBBbbHB", 0x01, 0x00, 0xFF, 127, rssi, 0, 0x00) + bytes(6)
                  + bytes([len(data)]) + data)
    else:
        subevent = LE_ADVERTISING_REPORT
        report = bytes([0x03, 0x01]) + address + bytes([len(data)]) + data + struct.pack("<b", rssi)
    return bytes([EVT_LE_META, len(report) + 2, subevent, 1]) + report


def command_complete(opcode, status, parameters):
    body = struct.pack("<BHB", 1, opcode, status) + parameters
    return bytes([EVT_CMD_COMPLETE, len(body)]) + body


class Controller:
    """One open /dev/vhci: the controller exists while the file is open."""

    def __init__(self, args):
        self.args = args
        try:
            self.fd = os.open("/dev/vhci", os.O_RDWR)
        except OSError as error:
            sys.exit(f"vhci-controller: cannot open /dev/vhci ({error}); is hci_vhci loaded?")
        os.write(self.fd, bytes([HCI_VENDOR_PKT, HCI_PRIMARY]))
        reply = os.read(self.fd, 16)
        if len(reply) < 4 or reply[0] != HCI_VENDOR_PKT:
            sys.exit(f"vhci-controller: unexpected answer to the create request: {reply.hex()}")
        self.index = struct.unpack_from("<H", reply, 2)[0]
        self.scanning = None  # None, "legacy" or "extended"
        log(f"created hci{self.index} ({'extended' if args.extended else 'legacy'} scanning)")
        if args.bring_up:
            self.bring_up()
        if args.ready_file:
            with open(args.ready_file, "w") as ready:
                ready.write(f"hci{self.index}\n")

    def close(self):
        os.close(self.fd)
        log(f"removed hci{self.index}")

    def handle(self, packet):
        if len(packet) < 4 or packet[0] != HCI_COMMAND_PKT:
            return
        opcode, length = struct.unpack_from("<HB", packet, 1)
        parameters = packet[4:4 + length]
        answer = return_parameters(opcode, self.args, self.index)
        if opcode == OP_LE_SET_SCAN_ENABLE and parameters:
            self.scanning = "legacy" if parameters[0] else None
        elif opcode == OP_LE_SET_EXT_SCAN_ENABLE and parameters and answer is not None:
            self.scanning = "extended" if parameters[0] else None
        if opcode in (OP_LE_SET_SCAN_ENABLE, OP_LE_SET_EXT_SCAN_ENABLE):
            log(f"hci{self.index}: scanning {self.scanning or 'off'}")
        status = STATUS_SUCCESS if answer is not None else STATUS_UNKNOWN_COMMAND
        self.send(command_complete(opcode, status, answer or b""))

    def advertise(self, beacons, phones=()):
        if self.scanning:
            extended = self.scanning == "extended"
            for beacon in beacons:
                self.send(advertising_report(beacon, extended))
            now = time.monotonic()
            for phone in phones:
                self.send(report_event(*phone.advertisement(now), extended))

    def send(self, event):
        os.write(self.fd, bytes([HCI_EVENT_PKT]) + event)

    def bring_up(self):
        """Powers the controller on as bluetoothd would (HCIDEVUP), so the kernel's auto-off does not
        take it down. Runs in a thread: the ioctl waits for the kernel's init, which this process answers."""
        threading.Thread(target=self._bring_up, daemon=True).start()

    def _bring_up(self):
        with socket.socket(socket.AF_BLUETOOTH, socket.SOCK_RAW, socket.BTPROTO_HCI) as control:
            for _ in range(50):
                try:
                    fcntl.ioctl(control, HCIDEVUP, self.index)
                    log(f"hci{self.index}: up")
                    return
                except OSError as error:
                    if error.errno == 114:  # EALREADY: already up
                        return
                    time.sleep(0.1)  # the kernel is still initialising it (EBUSY)
            log(f"hci{self.index}: could not bring it up")


def log(message):
    print(f"vhci-controller: {message}", file=sys.stderr, flush=True)


def parse_beacon(text, number):
    """UUID:MAJOR:MINOR:POWER:RSSI, e.g. e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:2:-59:-60."""
    fields = text.split(":")
    if len(fields) != 5:
        raise argparse.ArgumentTypeError(f"--beacon {text}: expected UUID:MAJOR:MINOR:POWER:RSSI")
    return {"uuid": uuid.UUID(fields[0]), "major": int(fields[1]), "minor": int(fields[2]),
            "power": int(fields[3]), "rssi": int(fields[4]), "number": number}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beacon", action="append", default=[], help="UUID:MAJOR:MINOR:POWER:RSSI (repeatable)")
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between advertising rounds")
    parser.add_argument("--extended", action="store_true", help="claim and answer the LE extended scan commands")
    parser.add_argument("--bring-up", action="store_true", help="power the controller on (HCIDEVUP) after creating it")
    parser.add_argument("--vanish-after", type=float, help="close /dev/vhci this many seconds after scanning is first enabled")
    parser.add_argument("--absent-for", type=float, default=2.0, help="seconds before reopening it")
    parser.add_argument("--return-rssi-shift", type=int, default=0,
                        help="dB added to every beacon's RSSI once the controller is back (tells its reports apart)")
    parser.add_argument("--phone", help="IRK:RSSI: a phone whose private address is made with this key "
                        "(32 hex digits, most significant first, as the Core specification prints it)")
    parser.add_argument("--strangers", type=int, default=0, help="this many phones no key here resolves")
    parser.add_argument("--rotate-every", type=float, default=5.0, help="seconds between a phone's address changes")
    parser.add_argument("--rotations-file", help="append 'TIME ADDRESS' here each time the --phone's address changes")
    parser.add_argument("--ready-file", help="write hciN here once the controller exists")
    parser.add_argument("--seconds", type=float, help="exit after this many seconds")
    args = parser.parse_args()
    beacons = [parse_beacon(text, number + 1) for number, text in enumerate(args.beacon)]
    generator = random.Random(7)
    phones = [Phone(None, -70 - number % 10, args.rotate_every, generator) for number in range(args.strangers)]
    if args.phone:
        key, _, rssi = args.phone.partition(":")
        phones.append(Phone(bytes.fromhex(key), int(rssi or -65), args.rotate_every, generator, args.rotations_file))

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    started = time.monotonic()
    controller = Controller(args)
    next_round = time.monotonic()
    vanish_at = None
    vanish_pending = args.vanish_after is not None
    while args.seconds is None or time.monotonic() - started < args.seconds:
        if vanish_pending and vanish_at is None and controller.scanning:
            vanish_at = time.monotonic() + args.vanish_after
        if vanish_at is not None and time.monotonic() >= vanish_at:
            controller.close()
            time.sleep(args.absent_for)
            controller = Controller(args)
            vanish_at, vanish_pending = None, False
            for beacon in beacons:
                beacon["rssi"] += args.return_rssi_shift
        readable, _, _ = select.select([controller.fd], [], [], max(0.0, next_round - time.monotonic()))
        if readable:
            controller.handle(os.read(controller.fd, 4096))
        if time.monotonic() >= next_round:
            controller.advertise(beacons, phones)
            next_round += args.interval


if __name__ == "__main__":
    main()
