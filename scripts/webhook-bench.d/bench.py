"""The measurement of scripts/webhook-bench: starts switchd with a fresh state folder, a receiver
on loopback, posts positions alternating between two rooms (no dwell, so each gives events) and
times the signed deliveries."""
import argparse
import base64
import hashlib
import hmac
import http.server
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import datetime, timedelta, timezone


class Receiver(http.server.ThreadingHTTPServer):
    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.lock = threading.Condition()
        self.accepting = True
        self.received = []  # (arrival time, webhook-id, body)
        self.secret = None
        self.bad_signatures = 0


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        server = self.server
        with server.lock:
            if not server.accepting:
                self.answer(503)
                return
            key = base64.b64decode(server.secret.removeprefix("whsec_"))
            signed = f"{self.headers['webhook-id']}.{self.headers['webhook-timestamp']}.".encode() + body
            expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
            if not any(hmac.compare_digest(expected, s) for s in self.headers["webhook-signature"].split()):
                server.bad_signatures += 1
            server.received.append((time.monotonic(), self.headers["webhook-id"], body))
            server.lock.notify_all()
        self.answer(204)

    def answer(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class Switchd:
    def __init__(self, binary, state):
        port_file = os.path.join(state, "port")
        self.process = subprocess.Popen(
            [binary, "--webhook-allow-private", "--port", "0", "--port-file", port_file, "--state-dir", state, "--presence-dwell", "0",
             "--away-after", "36000", "--log-level", "error"],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while not (os.path.exists(port_file) and open(port_file).read().strip()):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise SystemExit("switchd did not start")
            time.sleep(0.05)
        self.base = f"http://127.0.0.1:{open(port_file).read().strip()}"
        self.token = open(os.path.join(state, "admin.token")).read().strip()

    def call(self, method, path, value=None):
        data = None if value is None else json.dumps(value).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/json",
        })
        with urllib.request.urlopen(request) as response:
            text = response.read()
            return json.loads(text) if text else None

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def wait_for(receiver, count, timeout):
    with receiver.lock:
        if not receiver.lock.wait_for(lambda: len(receiver.received) >= count, timeout=timeout):
            raise SystemExit(f"only {len(receiver.received)} of {count} deliveries arrived in {timeout} s")


def event_count(switchd):
    total, cursor = 0, None
    while True:
        page = switchd.call("GET", "/v1/events?limit=1000" + (f"&cursor={cursor}" if cursor else ""))
        total += len(page["items"])
        cursor = page.get("nextCursor")
        if not cursor:
            return total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--live", type=int, default=200, help="positions posted with the receiver up")
    parser.add_argument("--rate", type=float, default=20, help="positions a second in the live phase")
    parser.add_argument("--backlog", type=int, default=2000, help="positions posted with the receiver down")
    options = parser.parse_args()

    receiver = Receiver()
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    state = tempfile.mkdtemp(prefix="webhook-bench-")
    switchd = Switchd(options.bin, state)
    try:
        floor = switchd.call("POST", "/v1/floors", {"name": "Bench"})
        rooms = [switchd.call("POST", "/v1/rooms", {"floorID": floor["id"], "name": name})["id"] for name in ("A", "B")]
        hook = switchd.call("POST", "/v1/webhooks", {"url": f"http://127.0.0.1:{receiver.server_address[1]}/hook"})
        receiver.secret = hook["secret"]
        start = datetime(2026, 11, 23, tzinfo=timezone.utc)
        posted = {}  # position id -> monotonic time of the POST's answer

        def post(i):
            time_text = (start + timedelta(seconds=i)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
            position = switchd.call("POST", "/v1/positions", {
                "scannerID": "default", "time": time_text, "building": floor["building"], "floor": floor["id"],
                "x": 1.0, "y": 1.0, "roomID": rooms[i % 2], "accuracyMetres": 1.0, "method": "bench",
            })
            posted[position["id"]] = time.monotonic()

        # Live: the receiver is up; latency from the position stored to its last event delivered.
        began = time.monotonic()
        for i in range(options.live):
            time.sleep(max(0, began + i / options.rate - time.monotonic()))
            post(i)
        live_events = event_count(switchd)
        wait_for(receiver, live_events, 120)
        with receiver.lock:
            live = list(receiver.received)
        latencies = []
        for arrival, _, body in live:
            position_id = json.loads(body)["data"].get("positionID")
            if position_id in posted:
                latencies.append((arrival - posted[position_id]) * 1000)

        # Backlog: the receiver is down while the positions come in, then up; drain rate.
        with receiver.lock:
            receiver.accepting = False
        for i in range(options.live, options.live + options.backlog):
            post(i)
        total = event_count(switchd)
        with receiver.lock:
            receiver.accepting = True
        wait_for(receiver, total, 600)
        with receiver.lock:
            drained = receiver.received[live_events:]
            ids = [int(message_id.removeprefix("evt_")) for _, message_id, _ in receiver.received]
        seconds = drained[-1][0] - drained[0][0]
        in_order = ids == sorted(ids) and len(set(ids)) == len(ids) == total
        quantiles = statistics.quantiles(latencies, n=100)
        print(json.dumps({
            "livePositionsPerSecond": options.rate,
            "liveEvents": live_events,
            "latencyMsP50": round(statistics.median(latencies), 2),
            "latencyMsP99": round(quantiles[98], 2),
            "backlogEvents": len(drained),
            "drainEventsPerSecond": round((len(drained) - 1) / seconds, 1) if seconds > 0 else None,
            "everyEventOnceInOrder": in_order,
            "badSignatures": receiver.bad_signatures,
        }, indent=2))
        if not in_order or receiver.bad_signatures:
            sys.exit(1)
    finally:
        switchd.stop()
        receiver.shutdown()


if __name__ == "__main__":
    main()
