"""scripts/ha-test's side that speaks to Home Assistant: writes its configuration, reads what it
shows from its own registries and recorder, and measures how long a tag position takes from its
window's end to a subscriber. Run with the Home Assistant venv's Python (paho-mqtt 1.6.1 is in it).

    ha.py configure CONFIG --http-port N --mqtt-port N
    ha.py latency --mqtt-port N --out FILE          (until SIGTERM)
    ha.py check CONFIG --api URL --auth-header FILE --tag ID --moving ID --fixed ID,ID,... --rooms A,B
                --beacon ID --beacon-identity JSON --telemetry-from SCANNER --telemetry-token-file FILE --battery-low-mv N

Every wait polls for a state with a deadline; none is a fixed sleep.
"""

import argparse
import datetime
import json
import os
import signal
import sqlite3
import sys
import time
import urllib.error
import urllib.request
import uuid


def configure(args):
    """A config folder that listens on loopback only, skips onboarding, holds the MQTT config
    entry (the broker can no longer be set in YAML) and records every state within a second."""
    config = args.config
    os.makedirs(os.path.join(config, ".storage"), exist_ok=True)
    with open(os.path.join(config, "configuration.yaml"), "w") as f:
        f.write(f"""homeassistant:
  name: floorscan ha-test
  latitude: 51.5115
  longitude: -0.1167
  elevation: 20
  unit_system: metric
  time_zone: UTC
  country: GB
http:
  server_host: 127.0.0.1
  server_port: {args.http_port}
logger:
  default: warning
  logs:
    homeassistant.components.mqtt: info
recorder:
  commit_interval: 1
  db_url: sqlite:///{os.path.join(os.path.abspath(config), "ha.db")}
""")
    now = datetime.datetime.now(datetime.timezone.utc).isoformat()
    entry = {
        "created_at": now, "data": {"broker": "127.0.0.1", "port": args.mqtt_port, "discovery": True},
        "disabled_by": None, "discovery_keys": {}, "domain": "mqtt", "entry_id": uuid.uuid4().hex, "minor_version": 1,
        "modified_at": now, "options": {"discovery": True, "discovery_prefix": "homeassistant"}, "pref_disable_new_entities": False,
        "pref_disable_polling": False, "source": "user", "title": "127.0.0.1", "unique_id": None, "version": 1,
    }
    storage = {
        "core.config_entries": {"version": 1, "minor_version": 4, "key": "core.config_entries", "data": {"entries": [entry]}},
        "onboarding": {"version": 4, "minor_version": 1, "key": "onboarding", "data": {"done": ["user", "core_config", "analytics", "integration"]}},
    }
    for key, value in storage.items():
        with open(os.path.join(config, ".storage", key), "w") as f:
            json.dump(value, f, indent=2)


def latency(args):
    """Subscribes to every tag's position and writes, per message, the seconds from the
    position's time (its window's end) to its arrival here; retained ones (older) are skipped."""
    import paho.mqtt.client as mqtt

    out = open(args.out, "a", buffering=1)

    def on_connect(client, userdata, flags, rc):
        client.subscribe("floorscan/tags/+/position", qos=1)

    def on_message(client, userdata, message):
        arrived = time.time()
        if message.retain or not message.payload:
            return
        position = json.loads(message.payload)
        sent = parse_time(position["time"])
        out.write(f"{position['tagID']} {position['time']} {arrived - sent:.4f}\n")

    client = mqtt.Client(client_id=f"ha-test-latency-{os.getpid()}")
    client.on_connect = on_connect
    client.on_message = on_message
    client.connect("127.0.0.1", args.mqtt_port)
    signal.signal(signal.SIGTERM, lambda *_: client.disconnect())
    client.loop_forever()


def parse_time(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def percentile(values, p):
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


class HomeAssistant:
    """What Home Assistant shows, read from its own files."""

    def __init__(self, config):
        self.config = config

    def registry(self, name):
        path = os.path.join(self.config, ".storage", name)
        try:
            with open(path) as f:
                return json.load(f)["data"]
        except (FileNotFoundError, json.JSONDecodeError):
            return None  # not written yet, or being written

    def entities(self):
        data = self.registry("core.entity_registry")
        return {e["unique_id"]: e for e in data["entities"] if e.get("platform") == "mqtt"} if data else {}

    def devices(self):
        data = self.registry("core.device_registry")
        return data["devices"] if data else []

    def history(self, entity_id):
        """Every state the recorder holds of the entity, oldest first: (time, state, attributes)."""
        path = os.path.join(self.config, "ha.db")
        if not os.path.exists(path):
            return []
        database = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            rows = database.execute(
                """SELECT s.last_updated_ts, s.state, a.shared_attrs FROM states s
                   JOIN states_meta m ON m.metadata_id = s.metadata_id
                   LEFT JOIN state_attributes a ON a.attributes_id = s.attributes_id
                   WHERE m.entity_id = ? ORDER BY s.last_updated_ts, s.state_id""",
                (entity_id,),
            ).fetchall()
        except sqlite3.OperationalError:
            return []  # the recorder has not made its tables yet
        finally:
            database.close()
        return [(ts, state, json.loads(attrs) if attrs else {}) for ts, state, attrs in rows]

    def latest(self, entity_id):
        history = self.history(entity_id)
        return history[-1] if history else None


def wait_for(what, deadline, probe, every=0.5, seen=None):
    """Polls `probe` until it returns something truthy; fails naming `what` at `deadline`, with
    what `seen()` says was there instead when given."""
    start = time.monotonic()
    while True:
        result = probe()
        if result:
            print(f"    ok after {time.monotonic() - start:5.1f} s: {what}", flush=True)
            return result
        if time.monotonic() >= deadline:
            instead = f"; instead: {seen()}" if seen else ""
            raise SystemExit(f"FAIL: {what} (gave up after {time.monotonic() - start:.0f} s{instead})")
        time.sleep(every)


def node(scanner):
    """Discovery.nodeID(of:): every byte outside A-Z a-z 0-9 - as _ and its hex code."""
    return "floorscan_" + "".join(c if c.isascii() and (c.isalnum() or c == "-") else f"_{ord(c):X}" for c in scanner)


def check(args):
    ha = HomeAssistant(args.config)
    rooms = args.rooms.split(",")
    fixed = args.fixed.split(",")
    tag_node = f"floorscan_tag_{args.tag}"
    moving = node(args.moving)
    beacon_node = f"floorscan_beacon_{args.beacon}"
    battery_ok, battery_low = args.battery_low_mv + 300, args.battery_low_mv - 300
    start = time.monotonic()

    print(f"==> receiver {args.telemetry_from} forwards beacon {args.beacon}'s Eddystone-TLM: battery {battery_ok} mV"
          f" (threshold {args.battery_low_mv} mV)")
    post_telemetry(args, battery_ok)

    print("==> Home Assistant's entity registry: the moving scanner's tracker, three receivers, the tag's tracker, the beacon's battery")
    wanted = [f"{moving}_location", f"{tag_node}_location", f"{tag_node}_room_probability"] + [f"{node(s)}_connected" for s in fixed]
    wanted += [f"{beacon_node}_battery_voltage", f"{beacon_node}_battery_low"]
    entities = wait_for(
        "every expected entity is registered", start + args.timeout,
        lambda: (lambda found: found if all(w in found for w in wanted) else None)(ha.entities()),
    )
    trackers = sorted(e for e in entities if e.endswith("_location"))
    for scanner in fixed:
        if f"{node(scanner)}_location" in entities:
            raise SystemExit(f"FAIL: the fixed scanner {scanner} is announced as a tracker: {trackers}")
    print(f"    fixed scanners have no tracker (trackers: {', '.join(trackers)})")

    def entity_id(unique_id):
        return ha.entities()[unique_id]["entity_id"]

    print("==> the moving scanner's tracker shows its room, with latitude and longitude")
    moving_tracker = entity_id(f"{moving}_location")
    state = wait_for(
        f"{moving_tracker} is in a room with latitude/longitude", time.monotonic() + args.timeout,
        lambda: (lambda s: s if s and s[1] in rooms and "latitude" in s[2] and "longitude" in s[2] and "gps_accuracy" in s[2] else None)(
            ha.latest(moving_tracker)),
    )
    print(f"    {moving_tracker} = {state[1]!r} at {state[2]['latitude']}, {state[2]['longitude']} ±{state[2]['gps_accuracy']} m")

    print("==> the fixed scanners are receivers, connected")
    for scanner in fixed:
        connected = entity_id(f"{node(scanner)}_connected")
        wait_for(f"{connected} is on", time.monotonic() + args.timeout, lambda: (ha.latest(connected) or (0, ""))[1] == "on")

    check_battery(ha, args, beacon_node, battery_ok, battery_low)

    print(f"==> the tag's tracker follows it from {rooms[0]!r} to {rooms[1]!r}")
    tag_tracker = entity_id(f"{tag_node}_location")

    def moved():
        changes = state_changes(ha.history(tag_tracker))
        names = [state for _, state in changes]
        if rooms[0] in names and rooms[1] in names[names.index(rooms[0]):]:
            return changes
        return None

    changes = wait_for(f"{tag_tracker} went from {rooms[0]!r} to {rooms[1]!r}", time.monotonic() + args.tag_timeout, moved)
    latest = ha.latest(tag_tracker)
    attributes = latest[2]
    for key in ["latitude", "longitude", "gps_accuracy", "roomProbabilities"]:
        if key not in attributes:
            raise SystemExit(f"FAIL: {tag_tracker} has no attribute {key}: {sorted(attributes)}")
    print(f"    attributes: latitude {attributes['latitude']}, longitude {attributes['longitude']}, gps_accuracy {attributes['gps_accuracy']},"
          f" roomProbabilities {attributes['roomProbabilities']}")

    print("==> the entities Home Assistant shows (entity registry; state from the recorder)")
    for unique_id, entity in sorted(ha.entities().items(), key=lambda item: item[1]["entity_id"]):
        state = ha.latest(entity["entity_id"])
        print(f"    {entity['entity_id']:55} {(entity.get('original_name') or '(device name)'):26} {state[1] if state else '-'}")
    print(f"==> the tag's room changes (recorder, {tag_tracker})")
    for ts, state in changes:
        print(f"    {datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime('%H:%M:%S.%f')[:-3]}Z  {state}")

    print(f"==> deleting tag {args.tag} through switchd (DELETE /v1/tags/{args.tag}) removes its entities and device")
    admin_call(args, "DELETE", f"/v1/tags/{args.tag}", expect=204)
    wait_for(
        f"no entity of {tag_node} is left in the entity registry", time.monotonic() + args.timeout,
        lambda: not any(u.startswith(tag_node + "_") for u in ha.entities()),
    )
    wait_for(
        f"the device {tag_node} is gone from the device registry", time.monotonic() + args.timeout,
        lambda: ha.registry("core.device_registry") is not None
        and not any(["mqtt", tag_node] in d["identifiers"] for d in ha.devices()),
    )
    print(f"==> Home Assistant checks passed in {time.monotonic() - start:.0f} s")


def admin_call(args, method, path, body=None, expect=200):
    """switchd's answer (JSON, or None when empty) to an admin request; fails on another status."""
    with open(args.auth_header) as f:
        name, value = f.read().strip().split(": ", 1)
    headers = {name: value, "Content-Type": "application/json"}
    request = urllib.request.Request(f"{args.api}{path}", method=method, headers=headers, data=json.dumps(body).encode() if body else None)
    try:
        with urllib.request.urlopen(request) as response:
            if response.status != expect:
                raise SystemExit(f"FAIL: {method} {path} answered {response.status}, not {expect}")
            text = response.read()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        raise SystemExit(f"FAIL: {method} {path} answered {error.code}: {error.read().decode(errors='replace')}")


def post_telemetry(args, millivolts):
    """POST /v1/sightings with the scanner token of `args.telemetry_from`, as that listening
    receiver forwards the latest TLM of a registered beacon: a batch with `telemetry` and no
    sightings (made-up RSSI from a placed receiver would move its receive-offset calibration)."""
    with open(args.telemetry_token_file) as f:
        token = f.readline().strip()
    heard_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    batch = {"scannerID": args.telemetry_from, "sightings": [], "telemetry": [{
        "identity": json.loads(args.beacon_identity), "heardAt": heard_at, "batteryMillivolts": millivolts,
        "temperatureCelsius": 21.5, "advertisementCount": 123456, "uptimeSeconds": 86400.0,
    }]}
    request = urllib.request.Request(
        f"{args.api}/v1/sightings", method="POST", data=json.dumps(batch).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request) as response:
            if response.status != 201:
                raise SystemExit(f"FAIL: POST /v1/sightings with telemetry answered {response.status}")
    except urllib.error.HTTPError as error:
        raise SystemExit(f"FAIL: POST /v1/sightings with telemetry answered {error.code}: {error.read().decode(errors='replace')}")


def check_battery(ha, args, beacon_node, battery_ok, battery_low):
    """The beacon's voltage sensor shows what its TLM said, in mV; its battery binary_sensor is
    off (not low), then on once a report crosses below the threshold, and nothing else between."""
    entities = ha.entities()
    voltage, low = entities[f"{beacon_node}_battery_voltage"], entities[f"{beacon_node}_battery_low"]
    for entity, device_class in ((voltage, "voltage"), (low, "battery")):
        if entity.get("original_device_class") != device_class:
            raise SystemExit(f"FAIL: {entity['entity_id']} has device class {entity.get('original_device_class')!r}, not {device_class!r}")
    voltage_id, low_id = voltage["entity_id"], low["entity_id"]
    print(f"==> the beacon's battery: {voltage_id} (device class voltage) shows {battery_ok} mV, {low_id} (device class battery) is off")

    def shows(entity_id, state, **attributes):
        latest = ha.latest(entity_id)
        return latest if latest and latest[1] == state and all(latest[2].get(k) == v for k, v in attributes.items()) else None

    def seen(entity_id):
        return lambda: (lambda latest: f"{latest[1]!r} {latest[2]}" if latest else "no state recorded")(ha.latest(entity_id))

    def voltage_shows(millivolts):
        """The voltage sensor's latest state is `millivolts` ("2800" or "2800.0"), in mV."""
        def probe():
            latest = ha.latest(voltage_id)
            if latest and is_number(latest[1]) and float(latest[1]) == millivolts:
                return shows(voltage_id, latest[1], unit_of_measurement="mV", device_class="voltage")
            return None
        return probe

    wait_for(f"{voltage_id} = {battery_ok} mV", time.monotonic() + args.timeout, voltage_shows(battery_ok), seen=seen(voltage_id))
    wait_for(f"{low_id} is off", time.monotonic() + args.timeout, lambda: shows(low_id, "off", device_class="battery"), seen=seen(low_id))

    print(f"==> receiver {args.telemetry_from} forwards {battery_low} mV: below {args.battery_low_mv} mV, {low_id} turns on (low)")
    post_telemetry(args, battery_low)
    wait_for(f"{voltage_id} = {battery_low} mV", time.monotonic() + args.timeout, voltage_shows(battery_low), seen=seen(voltage_id))
    wait_for(f"{low_id} is on", time.monotonic() + args.timeout, lambda: shows(low_id, "on", device_class="battery"), seen=seen(low_id))
    for entity_id in (voltage_id, low_id):
        changes = state_changes(ha.history(entity_id))
        print(f"    {entity_id}: " + ", ".join(
            f"{state} at {datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime('%H:%M:%S.%f')[:-3]}Z" for ts, state in changes))
    states = [state for _, state in state_changes(ha.history(low_id))]
    if states != ["off", "on"]:
        raise SystemExit(f"FAIL: {low_id} went {states}, not off then on")

    renamed = "Lobby beacon"
    print(f"==> renaming beacon {args.beacon} {renamed!r} (PUT /v1/beacons/{args.beacon}, name metadata) renames its device")
    beacon = admin_call(args, "GET", f"/v1/beacons/{args.beacon}")
    new = {key: beacon[key] for key in ("uuid", "major", "minor", "floorID", "x", "y", "z", "measuredPower")}
    new["metadata"] = {**beacon.get("metadata", {}), "name": renamed}
    admin_call(args, "PUT", f"/v1/beacons/{args.beacon}", new)

    def device_name():
        return next((d["name"] for d in ha.devices() if ["mqtt", beacon_node] in d["identifiers"]), None)

    wait_for(f"the device {beacon_node} is named {renamed!r} in the device registry", time.monotonic() + args.timeout,
             lambda: device_name() == renamed, seen=lambda: repr(device_name()))


def is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def state_changes(history):
    """(time, state) each time the state changed, unavailable and unknown left out."""
    changes = []
    for ts, state, _ in history:
        if state in ("unavailable", "unknown"):
            continue
        if not changes or changes[-1][1] != state:
            changes.append((ts, state))
    return changes


def report_latency(args):
    values, tags = [], set()
    with open(args.file) as f:
        for line in f:
            tag, _, seconds = line.split()
            tags.add(tag)
            values.append(float(seconds))
    if not values:
        raise SystemExit("FAIL: no tag position reached the subscriber")
    print(f"==> tag position → MQTT subscriber latency over {len(values)} positions of {len(tags)} tags (window end → arrival;"
          f" a window is located when the next one is reported, 1 s later):"
          f" p50 {percentile(values, 50) * 1000:.0f} ms, p99 {percentile(values, 99) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms")


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("configure")
    p.add_argument("config")
    p.add_argument("--http-port", type=int, required=True)
    p.add_argument("--mqtt-port", type=int, required=True)
    p.set_defaults(run=configure)
    p = commands.add_parser("latency")
    p.add_argument("--mqtt-port", type=int, required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(run=latency)
    p = commands.add_parser("latency-report")
    p.add_argument("file")
    p.set_defaults(run=report_latency)
    p = commands.add_parser("check")
    p.add_argument("config")
    p.add_argument("--api", required=True)
    p.add_argument("--auth-header", required=True)
    p.add_argument("--tag", required=True)
    p.add_argument("--moving", required=True)
    p.add_argument("--fixed", required=True)
    p.add_argument("--rooms", required=True)
    p.add_argument("--timeout", type=float, default=120, help="seconds each wait may take")
    p.add_argument("--beacon", type=int, required=True, help="the registered beacon whose telemetry is forwarded")
    p.add_argument("--beacon-identity", required=True, help="its identity as a sightings batch names it (JSON)")
    p.add_argument("--telemetry-from", required=True, help="the receiver (scanner ID) that forwards it")
    p.add_argument("--telemetry-token-file", required=True, help="that receiver's scanner token")
    p.add_argument("--battery-low-mv", type=int, required=True, help="switchd's --battery-low-millivolts")
    p.add_argument("--tag-timeout", type=float, default=180, help="seconds the tag's walk may take to show")
    p.set_defaults(run=check)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    sys.exit(main())
