"""Setting a site up from the admin page alone, in a real headless Chromium against the switchd
that scripts/browser-test started: scanners placed on the plan by a tap, one dragged, its height
and receive-offset override saved, one unplaced and placed again (each checked with
GET /v1/scanners/{id}/placement); a beacon added by a tap with content in two languages, dragged,
edited and another deleted; a tag made, marked missing, edited and deleted; a webhook made with
chosen event kinds (seen in GET /v1/webhooks), its deliveries shown, deleted. Then two rooms with a
location each made on the page, a webhook to a receiver in this test, and a tag that walks (its
sightings posted as the three scanners would) from one room into the other: its room changes on
the page and in GET /v1/tags/{id}/positions/latest, and the receiver gets the tag's `entered`; then
"Record here" records it where it stands, its progress shown while the scanners report it.
Names with markup (`<b>x</b>`) must show as text; refusals of switchd (422) must be shown with
the field they name; no other console error.

Exits non-zero on the first failed step, after a screenshot of it.
"""

import datetime
import http.server
import json
import math
import os
import sys
import threading
import urllib.error

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from admin_survey import SHOTS, AdminPage, api, close_and_judge, run_with_screenshot, token
from visit_and_dashboard import sign_in

MARKUP = "<b>x</b>"
# The floor has no plan image and no scale: 20 pixels a metre, origin top left (geometry.js).
PIXELS_PER_METRE = 20
SCANNERS = [("setup-a", 4.0, 4.0), ("setup-b", 26.0, 4.0), ("setup-c", 15.0, 22.0)]
UUID = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
REFUSED = []  # the URLs of requests the test makes switchd refuse: their console line is expected


def near(a, b, tolerance=0.3):
    return abs(a - b) <= tolerance


def placement(scanner_id):
    """The scanner's placement, or None when it is not placed."""
    return next((p for p in api("GET", "/v1/placements") if p["scannerID"] == scanner_id), None)


def drag(page, element_id, dx_metres, dy_metres):
    """Presses on the plan's mark `element_id`, moves it by the distance in metres and lets go.
    The mark is found and measured in one script (the page redraws it as tags move); the pointer
    is aimed from the plan itself, which is never replaced."""
    svg = page.by_id("plan")
    page.js("arguments[0].scrollIntoView({block: 'center'})", svg)
    offset, scale = page.js(
        """
        const svg = arguments[0];
        const mark = document.getElementById(arguments[1]).getBoundingClientRect();
        const box = svg.getBoundingClientRect();
        return [[mark.left + mark.width / 2 - (box.left + box.width / 2), mark.top + mark.height / 2 - (box.top + box.height / 2)],
                svg.getScreenCTM().a];
        """,
        svg, element_id,
    )
    dx, dy = dx_metres * PIXELS_PER_METRE * scale, dy_metres * PIXELS_PER_METRE * scale
    chain = ActionChains(page.driver).move_to_element_with_offset(svg, int(round(offset[0])), int(round(offset[1]))).click_and_hold()
    for _ in range(4):
        chain = chain.move_by_offset(int(round(dx / 4)), int(round(dy / 4)))
    chain.release().perform()


def press(page, xpath):
    """Clicks the button at `xpath`, found again if the page redrew its list in between."""
    def clicked():
        page.driver.find_element(By.XPATH, xpath).click()
        return True
    page.wait(f"to press {xpath}", clicked)


def choose(page, select_id, value):
    """Chooses `value` in a select whose options the page may be replacing."""
    def chosen():
        Select(page.by_id(select_id)).select_by_value(value)
        return page.by_id(select_id).get_attribute("value") == value
    page.wait(f"{value} chosen in {select_id}", chosen)


def posts_by_one_press(page, press_it, path, answered):
    """How many POSTs to `path` one press made: the requests one event's listeners send all
    leave before the first answer, so counting them once the page shows the answer is exact."""
    page.collect_logs()
    before = len(page.api_requests)
    press_it()
    page.wait("the page's answer", answered)
    page.collect_logs()
    return sum(1 for method, url, _ in page.api_requests[before:] if method == "POST" and url.endswith(path))


def fill(page, element_id, value):
    field = page.by_id(element_id)
    field.clear()
    field.send_keys(value)


def refused(page, what, field):
    """Waits for the status line to show switchd's refusal naming `field`."""
    page.wait(f"the refusal of {what} shown", lambda: "invalid_field" in page.text("status") and field in page.text("status")
              and "error" in page.by_id("status").get_attribute("class"))
    print(f"    shown: {page.text('status')}")


def scanners_on_the_plan(page, floor):
    driver = page.driver
    print("==> scanners placed on the plan by a tap")
    for scanner_id, x, y in SCANNERS:
        choose(page, "placement-scanner", scanner_id)
        fill(page, "placement-height", "2.5")
        page.tool("scanner")
        page.tap_plan(x * PIXELS_PER_METRE, y * PIXELS_PER_METRE)
        page.wait(f"{scanner_id} placed", lambda: placement(scanner_id) is not None)
        got = api("GET", f"/v1/scanners/{scanner_id}/placement")
        if got["floorID"] != floor["id"] or not near(got["x"], x) or not near(got["y"], y) or got["height"] != 2.5:
            raise AssertionError(f"{scanner_id} placed as {got}")
        page.wait(f"{scanner_id}'s square", lambda: driver.find_elements(By.ID, f"fixed-scanner-{scanner_id}"))
    page.shot("setup-scanners-placed", show="plan")
    names = page.js("return [...document.querySelectorAll('#placement-scanner option')].map(o => o.textContent)")
    if not any(name.startswith(MARKUP) for name in names):
        raise AssertionError(f"the scanner named with markup is listed as {names}")

    print("==> a scanner dragged on the plan")
    page.tool("select")
    drag(page, "fixed-scanner-setup-a", 5, 3)
    page.wait("setup-a moved by the drag", lambda: near(placement("setup-a")["x"], 9, 0.5) and near(placement("setup-a")["y"], 7, 0.5))
    if placement("setup-a")["height"] != 2.5:
        raise AssertionError("the drag changed the height")
    page.shot("setup-scanner-dragged", show="plan")

    print("==> its receive offset overridden, then a height switchd refuses")
    choose(page, "placement-scanner", "setup-b")
    fill(page, "placement-offset", "3")
    page.by_id("placement-save").click()
    page.wait("the override saved", lambda: (placement("setup-b") or {}).get("receiveOffsetOverride") == 3)
    page.wait("the offset shown", lambda: "overridden: +3.0 dB" in page.text("placement-info"))
    if placement("setup-b")["receiveOffset"] != 3:
        raise AssertionError("the override is not the offset in use")
    page.shot("setup-offset-override", show="placement-form")
    fill(page, "placement-height", "500")
    REFUSED.append("/v1/scanners/setup-b/placement")
    page.by_id("placement-save").click()
    refused(page, "a height of 500 m", "height")
    if placement("setup-b")["height"] != 2.5:
        raise AssertionError("a refused height changed the placement")
    page.shot("setup-placement-refused")
    fill(page, "placement-height", "2.5")
    fill(page, "placement-offset", "")
    page.by_id("placement-save").click()
    page.wait("the override cleared", lambda: "receiveOffsetOverride" not in placement("setup-b"))

    print("==> a scanner unplaced (asked first) and placed again")
    choose(page, "placement-scanner", "setup-c")
    page.by_id("placement-remove").click()
    page.wait("the confirmation", lambda: page.by_id("confirm-dialog").is_displayed())
    page.by_id("confirm-ok").click()
    page.wait("setup-c unplaced", lambda: placement("setup-c") is None)
    page.wait("its square gone", lambda: not driver.find_elements(By.ID, "fixed-scanner-setup-c"))
    page.tool("scanner")
    page.tap_plan(15 * PIXELS_PER_METRE, 22 * PIXELS_PER_METRE)
    page.wait("setup-c placed again", lambda: placement("setup-c") is not None)


def beacons_on_the_plan(page, floor):
    driver = page.driver
    print("==> a beacon added by a tap, with content in two languages and a name with markup")
    fill(page, "beacon-uuid", UUID)
    fill(page, "beacon-major", "7")
    fill(page, "beacon-minor", "1")
    fill(page, "beacon-content", f"name = {MARKUP}\ncontent = A clock from 1850.\ncontent.fr = Une horloge de 1850.")
    page.tool("beacon")
    page.tap_plan(10 * PIXELS_PER_METRE, 12 * PIXELS_PER_METRE)
    beacon_of = lambda minor: next((b for b in api("GET", f"/v1/beacons?uuid={UUID}")["items"] if b["minor"] == minor), None)  # noqa: E731
    page.wait("the beacon registered", lambda: beacon_of(1) is not None)
    beacon = beacon_of(1)
    if beacon["floorID"] != floor["id"] or not near(beacon["x"], 10) or not near(beacon["y"], 12):
        raise AssertionError(f"the beacon is {beacon}")
    if beacon["metadata"] != {"name": MARKUP, "content": "A clock from 1850.", "content.fr": "Une horloge de 1850."}:
        raise AssertionError(f"its content is {beacon['metadata']}")
    item = f"#beacon-list li[data-beacon-id='{beacon['id']}']"
    page.wait("the beacon listed", lambda: driver.find_elements(By.CSS_SELECTOR, item))
    shown = page.js("const li = document.querySelector(arguments[0]); return [li.textContent, li.querySelectorAll('b').length]", item)
    if MARKUP not in shown[0] or shown[1] != 0 or "content in default, fr" not in shown[0]:
        raise AssertionError(f"the beacon is listed as {shown}")
    page.shot("setup-beacon-added", show="plan")

    print("==> its battery reported low (Eddystone-TLM forwarded by a placed scanner)")
    api("POST", "/v1/sightings", {"scannerID": SCANNERS[0][0], "sightings": [], "telemetry": [{
        "identity": {"kind": "ibeacon", "uuid": UUID, "major": 7, "minor": 1},
        "heardAt": iso(datetime.datetime.now(datetime.timezone.utc)), "batteryMillivolts": 2100,
        "advertisementCount": 4321, "uptimeSeconds": 3600.0,
    }]})
    page.wait("switchd keeps the battery", lambda: (beacon_of(1).get("telemetry") or {}).get("batteryMillivolts") == 2100)

    print("==> the beacon dragged, then edited: measured power")
    page.tool("select")
    drag(page, f"beacon-{beacon['id']}", 4, 0)
    page.wait("the beacon moved by the drag", lambda: near(beacon_of(1)["x"], 14, 0.5) and near(beacon_of(1)["y"], 12, 0.5))
    # The page has read the beacons again (its Edit then starts from where the beacon is now).
    page.wait("the move shown on the page", lambda: "moved to" in page.text("status"))
    press(page, f"//li[@data-beacon-id='{beacon['id']}']//button[text()='Edit']")
    page.wait("the beacon in the form", lambda: page.by_id("beacon-form").get_attribute("data-beacon-id") == str(beacon["id"]))
    fill(page, "beacon-power", "-65")
    page.by_id("beacon-save").click()
    page.wait("the new power saved", lambda: beacon_of(1)["measuredPower"] == -65)
    if beacon_of(1)["metadata"]["content.fr"] != "Une horloge de 1850." or not near(beacon_of(1)["x"], 14, 0.5):
        raise AssertionError("editing the power lost the content or the place")
    # The Beacons card read again by the save: the beacon says its battery, and its event is listed.
    page.wait("the low battery in the beacon's line", lambda: "battery 2100 mV (low)" in page.driver.find_element(By.CSS_SELECTOR, item).text)
    if "warning" not in (page.driver.find_element(By.CSS_SELECTOR, item).get_attribute("class") or ""):
        raise AssertionError("the beacon with a low battery is not marked for attention")
    page.wait("its batteryLow event listed", lambda: driver.find_elements(
        By.CSS_SELECTOR, f"#beacon-events li[data-event-kind='batteryLow'][data-beacon-id='{beacon['id']}']"))
    page.shot("setup-beacon-edited", show="beacons")

    print("==> the dashboard's fleet health names the beacon")
    page.by_id("dashboard-refresh").click()
    page.wait("the beacon in the fleet health", lambda: driver.find_elements(
        By.CSS_SELECTOR, f"#dashboard-health li[data-health='beacon'][data-id='{beacon['id']}']"))
    line = driver.find_element(By.CSS_SELECTOR, f"#dashboard-health li[data-health='beacon'][data-id='{beacon['id']}']").text
    if "battery 2100 mV (low)" not in line:
        raise AssertionError(f"the dashboard says {line!r} of the beacon")
    page.shot("setup-dashboard-health", show="dashboard")

    print("==> a second beacon added (the next minor) and deleted, asked first")
    page.by_id("beacon-new").click()
    page.tool("beacon")
    page.tap_plan(20 * PIXELS_PER_METRE, 12 * PIXELS_PER_METRE)
    page.wait("the second beacon registered", lambda: beacon_of(2) is not None)
    second = beacon_of(2)
    page.wait("it listed", lambda: driver.find_elements(By.CSS_SELECTOR, f"#beacon-list li[data-beacon-id='{second['id']}']"))
    press(page, f"//li[@data-beacon-id='{second['id']}']//button[text()='Delete…']")
    page.wait("the confirmation", lambda: page.by_id("confirm-dialog").is_displayed())
    page.by_id("confirm-ok").click()
    page.wait("the second beacon deleted", lambda: beacon_of(2) is None)
    page.wait("its diamond gone", lambda: not driver.find_elements(By.ID, f"beacon-{second['id']}"))
    page.tool("select")


def tags(page):
    driver = page.driver
    print("==> a tag made on the page, its name with markup shown as text")
    tag_named = lambda name: next((t for t in api("GET", "/v1/tags")["items"] if t["name"] == name), None)  # noqa: E731
    name = f"{MARKUP} bike"
    fill(page, "tag-name", name)
    choose(page, "tag-kind", "address")
    fill(page, "tag-identity", "zz:00")
    REFUSED.append("/v1/tags")
    page.by_id("tag-save").click()
    refused(page, "a malformed address", "identity")
    fill(page, "tag-identity", "02:00:00:00:5e:70")
    page.by_id("tag-save").click()
    page.wait("the tag made", lambda: tag_named(name) is not None)
    tag = tag_named(name)
    if tag["identity"] != {"kind": "address", "address": "02:00:00:00:5e:70"} or tag["missing"]:
        raise AssertionError(f"the tag is {tag}")
    item = f"#tag-list li[data-tag-id='{tag['id']}']"
    page.wait("the tag listed", lambda: driver.find_elements(By.CSS_SELECTOR, item))
    shown = page.js("const li = document.querySelector(arguments[0]); return [li.textContent, li.querySelectorAll('b').length]", item)
    if not shown[0].startswith(name) or shown[1] != 0:
        raise AssertionError(f"the tag is listed as {shown}")
    page.shot("setup-tag-made", show="tags")

    print("==> the tag marked missing, then renamed")
    press(page, f"//li[@data-tag-id='{tag['id']}']//button[text()='Mark missing']")
    page.wait("the tag missing", lambda: api("GET", f"/v1/tags/{tag['id']}")["missing"])
    page.wait("shown missing", lambda: page.js("return document.querySelector(arguments[0])?.dataset.missing", item) == "true")
    press(page, f"//li[@data-tag-id='{tag['id']}']//button[text()='Edit']")
    page.wait("the tag in the form", lambda: page.by_id("tag-form").get_attribute("data-tag-id") == str(tag["id"]))
    fill(page, "tag-name", "Cargo bike")
    page.by_id("tag-save").click()
    page.wait("the tag renamed", lambda: api("GET", f"/v1/tags/{tag['id']}")["name"] == "Cargo bike")
    if not api("GET", f"/v1/tags/{tag['id']}")["missing"]:
        raise AssertionError("renaming forgot that the tag is missing")
    page.shot("setup-tag-missing", show="tags")

    print("==> the tag deleted, asked first")
    press(page, f"//li[@data-tag-id='{tag['id']}']//button[text()='Delete…']")
    page.wait("the confirmation", lambda: page.by_id("confirm-dialog").is_displayed())
    page.by_id("confirm-ok").click()
    page.wait("the tag gone", lambda: tag_named("Cargo bike") is None)
    page.wait("its line gone", lambda: not driver.find_elements(By.CSS_SELECTOR, item))


def scanner_settings(page):
    driver = page.driver
    print("==> a scanner's settings edited on the Scanners card: a window over the interval refused naming it, then saved")
    item = "//ul[@id='scanner-list']/li[@data-scanner-id='setup-a']"
    press(page, f"{item}//summary")
    page.wait("the settings form open", lambda: page.by_id("settings-setup-a-bleWindowMs").is_displayed())
    fill(page, "settings-setup-a-bleIntervalMs", "100")
    fill(page, "settings-setup-a-bleWindowMs", "150")
    REFUSED.append("/v1/scanners/setup-a")
    press(page, f"{item}//button[text()='Save settings']")
    refused(page, "a window over the interval", "settings.bleWindowMs")
    if "settingsRevision" in api("GET", "/v1/scanners/setup-a"):
        raise AssertionError("a refused change was stored")
    fill(page, "settings-setup-a-bleWindowMs", "50")
    choose(page, "settings-setup-a-bleScan", "active")
    press(page, f"{item}//button[text()='Save settings']")
    page.wait("the settings saved", lambda: api("GET", "/v1/scanners/setup-a").get("settings") == {
        "bleScan": "active", "bleIntervalMs": 100, "bleWindowMs": 50,
    })
    page.wait("the card shows the revision asked", lambda: "settings revision" in driver.find_element(
        By.CSS_SELECTOR, "#scanner-list li[data-scanner-id='setup-a'] .settings").text)
    print("==> the fleet's defaults edited on the card")
    press(page, "//ul[@id='scanner-list']/li[@class='fleet-settings']//summary")
    choose(page, "settings-fleet-logLevel", "debug")
    press(page, "//ul[@id='scanner-list']/li[@class='fleet-settings']//button[text()='Save settings']")
    page.wait("the fleet's defaults saved", lambda: api("GET", "/v1/scanners/*")["settings"] == {"logLevel": "debug"})
    page.shot("setup-scanner-settings", show="scanners")


def webhooks(page):
    driver = page.driver
    print("==> a webhook made in the Integrations card: some event kinds, tags only")
    url = "http://127.0.0.1:1/setup-hook"
    hook_of = lambda: next((w for w in api("GET", "/v1/webhooks")["items"] if w["url"] == url), None)  # noqa: E731
    fill(page, "webhook-url", url)
    for value in ["away", "back"]:
        driver.find_element(By.CSS_SELECTOR, f'input[name="webhook-event"][value="{value}"]').click()
    driver.find_element(By.CSS_SELECTOR, 'input[name="webhook-subject"][value="scanners"]').click()
    page.by_id("webhook-create").click()
    page.wait("the webhook in GET /v1/webhooks", lambda: hook_of() is not None)
    hook = hook_of()
    if sorted(hook["events"]) != ["entered", "left", "missingTagHeard"] or hook["subjects"] != ["tags"]:
        raise AssertionError(f"the webhook is {hook}")
    page.wait("its secret shown once", lambda: page.text("webhook-secret-value").startswith("whsec_"))
    item = f"#webhook-list li[data-webhook-id='{hook['id']}']"
    page.wait("the webhook listed", lambda: driver.find_elements(By.CSS_SELECTOR, item))
    press(page, f"//li[@data-webhook-id='{hook['id']}']//button[text()='Deliveries']")
    page.wait("its deliveries shown", lambda: page.by_id("webhook-deliveries").get_attribute("data-webhook-id") == str(hook["id"]))
    page.shot("setup-webhook-made", show="webhook-list")
    press(page, f"//li[@data-webhook-id='{hook['id']}']//button[text()='Delete…']")
    page.wait("the confirmation", lambda: page.by_id("confirm-dialog").is_displayed())
    page.by_id("confirm-ok").click()
    page.wait("the webhook deleted", lambda: hook_of() is None)
    page.wait("its line gone", lambda: not driver.find_elements(By.CSS_SELECTOR, item))


class Receiver:
    """A webhook receiver on loopback: keeps every delivery's JSON body, answers 204."""

    def __init__(self):
        self.bodies = []
        bodies = self.bodies

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                bodies.append(json.loads(self.rfile.read(length) or b"null"))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/floorscan-hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def iso(moment):
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def heard_at(identity, spot, end):
    """Every placed scanner reports the window ending at `end`, at the RSSI of a tag carried 1 m
    high at `spot` (−59 dBm at 1 m, exponent 2, the scanners 2.5 m high)."""
    for scanner in api("GET", "/v1/placements"):
        if scanner["scannerID"] not in {name for name, _, _ in SCANNERS}:
            continue
        distance = math.sqrt((spot[0] - scanner["x"]) ** 2 + (spot[1] - scanner["y"]) ** 2 + (scanner["height"] - 1.0) ** 2)
        rssi = -59 - 20 * math.log10(max(distance, 0.5))
        api("POST", "/v1/sightings", {"scannerID": scanner["scannerID"], "sightings": [{
            "identity": identity, "windowStart": iso(end - datetime.timedelta(seconds=1)), "windowEnd": iso(end),
            "count": 3, "medianRSSI": round(rssi, 1), "maxRSSI": round(rssi) + 1,
        }]})


def outline_of(room_id):
    """The room's outline from the API, or None when it has none."""
    try:
        return api("GET", f"/v1/rooms/{room_id}/outline")["outline"]
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return None
        raise


def draw_outlines(page, rooms):
    """Both rooms' outlines drawn on the page corner by corner and saved; one corner dragged. The
    halls meet at x = 12 m, so a tag at 15 m is in East hall by its outline although West hall's
    location (6 m) is nearer than East hall's (27 m)."""
    shapes = {"West hall": [[0.5, 2], [12, 2], [12, 18], [0.5, 18]], "East hall": [[12, 2], [36, 2], [36, 18], [12, 18]]}
    for name, corners in shapes.items():
        print(f"==> the outline of {name} drawn on the plan")
        choose(page, "room-select", str(rooms[name]))
        page.tool("outline")
        for x, y in corners:
            page.tap_plan(x * PIXELS_PER_METRE, y * PIXELS_PER_METRE)
        page.wait("four corners drawn", lambda: "4 corners" in page.text("outline-draft-text"))
        page.by_id("outline-save").click()
        page.wait(f"{name}'s outline stored", lambda: outline_of(rooms[name]) is not None)
        got = outline_of(rooms[name])
        if len(got) != 4 or not all(near(a[0], b[0]) and near(a[1], b[1]) for a, b in zip(got, corners)):
            raise AssertionError(f"{name}'s outline is {got}, drawn {corners}")
        page.wait(f"{name}'s outline on the plan", lambda: page.js(
            "return document.querySelector(`#plan polygon.room-outline[data-outline-room-id='${arguments[0]}']`) !== null", rooms[name]))
    print("==> a corner of West hall dragged 1 m right and 1 m down")
    drag(page, f"outline-corner-{rooms['West hall']}-0", 1, 1)
    page.wait("the corner moved (API)", lambda: near(outline_of(rooms["West hall"])[0][0], 1.5) and near(outline_of(rooms["West hall"])[0][1], 3))
    page.wait("the outline redrawn with it", lambda: 'Corner 1 of room "West hall" moved.' in page.text("status"))
    if page.by_id("outline-draft").is_displayed():
        raise AssertionError("the empty draft's line is shown")
    page.shot("setup-room-outlines", show="plan")


def a_tag_walks(page, floor):
    """Two rooms, their locations and their outlines made on the page, a webhook on the page to a receiver here,
    and a tag that walks from one room into the other: its room changes on the page and in
    GET /v1/tags/{id}/positions/latest, and the webhook gets the tag's `entered`."""
    driver = page.driver
    print("==> two rooms, a location in each, made on the page")
    rooms = {}
    for name, x, y in [("West hall", 6, 10), ("East hall", 27, 10)]:
        fill(page, "room-name", name)
        page.by_id("room-create").click()
        page.wait(f"room {name}", lambda: any(r["name"] == name for r in api("GET", f"/v1/rooms?floor={floor['id']}")))
        rooms[name] = next(r["id"] for r in api("GET", f"/v1/rooms?floor={floor['id']}") if r["name"] == name)
        choose(page, "room-select", str(rooms[name]))
        page.tool("add")
        page.tap_plan(x * PIXELS_PER_METRE, y * PIXELS_PER_METRE)
        page.wait(f"a location in {name}", lambda: any(loc["roomID"] == rooms[name] for loc in api("GET", f"/v1/locations?floor={floor['id']}")))
    draw_outlines(page, rooms)
    page.tool("select")

    receiver = Receiver()
    try:
        print("==> a webhook to a receiver here, for tags' 'entered', made on the page")
        fill(page, "webhook-url", receiver.url)
        for value in ["left", "away", "back", "missingTagHeard"]:
            box = driver.find_element(By.CSS_SELECTOR, f'input[name="webhook-event"][value="{value}"]')
            if box.is_selected():
                box.click()
        for value, wanted in [("scanners", False), ("tags", True)]:
            box = driver.find_element(By.CSS_SELECTOR, f'input[name="webhook-subject"][value="{value}"]')
            if box.is_selected() != wanted:
                box.click()
        page.js("document.getElementById('webhook-secret').hidden = true")
        posts = posts_by_one_press(page, page.by_id("webhook-create").click, "/v1/webhooks", lambda: page.by_id("webhook-secret").is_displayed())
        if posts != 1:
            raise AssertionError(f"one press sent {posts} POST /v1/webhooks: a panel wired twice")
        page.wait("the receiver's webhook", lambda: any(w["url"] == receiver.url for w in api("GET", "/v1/webhooks")["items"]))

        print("==> a tag made on the page walks from West hall into East hall")
        identity = {"kind": "address", "address": "02:00:00:00:7a:1c"}
        fill(page, "tag-name", "Walker")
        choose(page, "tag-kind", "address")
        fill(page, "tag-identity", identity["address"])
        posts = posts_by_one_press(page, page.by_id("tag-save").click, "/v1/tags", lambda: 'Tag "Walker" saved.' in page.text("status"))
        if posts != 1:
            raise AssertionError(f"one press sent {posts} POST /v1/tags: a panel wired twice")
        page.wait("the tag made", lambda: any(t["name"] == "Walker" for t in api("GET", "/v1/tags")["items"]))
        tag = next(t for t in api("GET", "/v1/tags")["items"] if t["name"] == "Walker")
        item = f"#tag-list li[data-tag-id='{tag['id']}']"
        room_on_page = lambda: page.js("return document.querySelector(arguments[0])?.dataset.roomId ?? null", item)  # noqa: E731

        def latest_room():
            page_of = api("GET", f"/v1/tags/{tag['id']}/positions?limit=1")
            return api("GET", f"/v1/tags/{tag['id']}/positions/latest").get("roomID") if page_of["items"] else None

        start = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
        # It stops at 15 m: in East hall by the outlines, though West hall's location is nearer.
        path = [(6.0, 10.0)] * 4 + [(6.0 + step, 10.0) for step in range(1, 9)] + [(15.0, 10.0)] * 6
        second = 0
        for spot in path[:4]:
            heard_at(identity, spot, start + datetime.timedelta(seconds=second))
            second += 1
        page.wait("the tag in West hall (API)", lambda: latest_room() == rooms["West hall"])
        page.wait("the tag in West hall on the page", lambda: room_on_page() == str(rooms["West hall"]))
        page.shot("setup-tag-in-west-hall", show="plan")
        for spot in path[4:]:
            heard_at(identity, spot, start + datetime.timedelta(seconds=second))
            second += 1
        page.wait("the tag in East hall (API)", lambda: latest_room() == rooms["East hall"])
        page.wait("the tag in East hall on the page", lambda: room_on_page() == str(rooms["East hall"]))
        text = page.js("return document.querySelector(arguments[0]).textContent", item)
        if "in East hall" not in text:
            raise AssertionError(f"the tag is listed as {text!r}")
        page.shot("setup-tag-in-east-hall", show="plan")

        def entered_east():
            return any(body.get("type") == "presence.entered" and body["data"].get("tagID") == tag["id"]
                       and body["data"].get("roomID") == rooms["East hall"] for body in receiver.bodies)
        page.wait("the webhook made on the page to get the tag's 'entered' East hall", entered_east)
        print(f"    {len(receiver.bodies)} deliveries received: {[b['type'] + ' ' + str(b['data'].get('roomID')) for b in receiver.bodies]}")
        page.by_id("integrations-refresh").click()
        hook = next(w for w in api("GET", "/v1/webhooks")["items"] if w["url"] == receiver.url)
        line = f"#webhook-list li[data-webhook-id='{hook['id']}']"
        page.wait("the deliveries counted on the page", lambda: page.js(
            "const li = document.querySelector(arguments[0]); return li !== null && !li.textContent.includes(': 0 delivered')", line))
        page.shot("setup-webhook-delivered", show="webhook-list")

        print("==> the tag recorded where it stands, on the page: progress while scanners report it")
        press(page, f"//li[@data-tag-id='{tag['id']}']//button[text()='Record here']")
        page.wait("the tag chosen for recording", lambda: "Hold Walker still" in page.text("tag-recording"))
        page.tap_plan(15.0 * PIXELS_PER_METRE, 10.0 * PIXELS_PER_METRE)
        page.wait("the recording made (API)", lambda: len(api("GET", f"/v1/tags/{tag['id']}/references")) == 1)
        reference = api("GET", f"/v1/tags/{tag['id']}/references")[0]
        if reference["state"] != "recording" or not near(reference["x"], 15.0) or not near(reference["y"], 10.0):
            raise AssertionError(f"the recording is {reference}")
        page.wait("the progress shown", lambda: "0 of 5 windows" in page.text("tag-recording"))
        for _ in range(2):
            heard_at(identity, (15.0, 10.0), start + datetime.timedelta(seconds=second))
            second += 1
        page.wait("two windows shown", lambda: "2 of 5 windows" in page.text("tag-recording"))
        page.shot("setup-tag-recording", show="tags")
        for _ in range(3):
            heard_at(identity, (15.0, 10.0), start + datetime.timedelta(seconds=second))
            second += 1
        page.wait("the recording done (API)", lambda: api("GET", f"/v1/tags/{tag['id']}/references")[0]["state"] == "done")
        page.wait("and on the page", lambda: "Walker recorded at (" in page.text("tag-recording") and ": 5 windows, heard by" in page.text("tag-recording"))
        page.wait("the spot listed", lambda: page.driver.find_elements(By.CSS_SELECTOR, f"#tag-references li[data-reference-id='{reference['id']}']"))
        page.shot("setup-tag-recorded", show="tags")
        page.tool("select")

        print("==> East hall's outline deleted on the page")
        press(page, f"//li[@data-room-id='{rooms['East hall']}']//button[text()='Delete outline…']")
        page.wait("the confirmation", lambda: page.by_id("confirm-dialog").is_displayed())
        page.by_id("confirm-ok").click()
        page.wait("East hall's outline gone (API)", lambda: outline_of(rooms["East hall"]) is None)
        page.wait("and from the plan", lambda: page.js(
            "return document.querySelector(`#plan polygon.room-outline[data-outline-room-id='${arguments[0]}']`) === null", rooms["East hall"]))
    finally:
        receiver.close()


def run(page):
    floor = api("POST", "/v1/floors", {"name": "Setup floor", "building": "Setup building"})
    for scanner_id, _, _ in SCANNERS:
        body = {"id": scanner_id, "name": MARKUP} if scanner_id == "setup-c" else {"id": scanner_id}
        api("POST", "/v1/scanners", body)
    sign_in(page)
    choose(page, "floor-select", str(floor["id"]))
    page.wait("the floor shown", lambda: page.by_id("placement-scanner").find_elements(By.CSS_SELECTOR, "option[value='setup-a']"))
    scanners_on_the_plan(page, floor)
    beacons_on_the_plan(page, floor)
    tags(page)
    scanner_settings(page)
    webhooks(page)
    print("==> signed out and in again: the panels unmount and mount once more (one listener each)")
    page.by_id("sign-out").click()
    page.wait("the sign-in form", lambda: page.by_id("token").is_displayed())
    # On the same page, not reloaded: the panels mounted before must have let go of their controls.
    page.by_id("token").send_keys(token())
    page.by_id("sign-in").click()
    page.wait("signed in again", lambda: "Signed in" in page.text("status"))
    choose(page, "floor-select", str(floor["id"]))
    page.wait("the floor shown again", lambda: page.driver.find_elements(By.ID, "fixed-scanner-setup-a"))
    a_tag_walks(page, floor)


def expected(entry):
    """A console line for a refusal the test asked for (Chromium logs every 4xx as an error)."""
    message = entry.get("message", "")
    return "422" in message and any(path in message for path in REFUSED)


def main():
    os.makedirs(SHOTS, exist_ok=True)
    page = AdminPage()
    failed = run_with_screenshot(page, lambda: run(page), name="setup-FAILED")
    page.collect_logs()
    page.console = [entry for entry in page.console if not expected(entry)]
    if close_and_judge(page, failed):
        return 1
    print(f"PASS: scanners placed, dragged, overridden and unplaced; beacons; a tag; scanner settings; a webhook; a tag walking into another room, its 'entered' delivered; the tag recorded where it stands; {page.shot_number} screenshots")
    return 0


if __name__ == "__main__":
    sys.exit(main())
