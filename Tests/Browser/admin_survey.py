"""The admin page in a real headless Chromium against a real switchd and a scannerd on the
simulated radio: sign in, floor and room, plan upload, scale, survey of two locations, link,
route, locate, a walk survey between the two locations. Run by scripts/browser-test, which starts the daemons and passes:

  FLOORSCAN_URL           switchd's base URL
  FLOORSCAN_TOKEN_FILE    <state-dir>/admin.token (used when it exists, else any token)
  FLOORSCAN_SCREENSHOTS   folder for the screenshots, one per step

Exits non-zero on the first failed step, after a screenshot of it.
"""

import json
import math
import os
import struct
import sys
import tempfile
import time
import urllib.request
import zlib

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE = os.environ["FLOORSCAN_URL"].rstrip("/")
TOKEN_FILE = os.environ.get("FLOORSCAN_TOKEN_FILE", "")
SHOTS = os.environ["FLOORSCAN_SCREENSHOTS"]

# The plan: 800 × 400 pixels for the simulated 40 m × 20 m floor, so 20 pixels a metre, with a
# 10 m scale bar from (40, 380) to (240, 380).
PLAN_SIZE = (800, 400)
BAR = ((40, 380), (240, 380), 10.0)
SPOTS = [(10.0, 6.0), (30.0, 14.0)]  # metres: the two surveyed locations
# The demo floor's corner beacons (scannerd's simulated radio), registered for locating.
BEACON_UUID = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"
BEACONS = [(1, 1, 1), (2, 39, 1), (3, 1, 19), (4, 39, 19)]


def token():
    if TOKEN_FILE and os.path.exists(TOKEN_FILE):
        with open(TOKEN_FILE, encoding="utf-8") as handle:
            return handle.read().strip()
    return "no-auth-on-this-switchd"


def plan_png(path):
    """A small floor plan drawn pixel by pixel: walls, a door gap, and the scale bar."""
    width, height = PLAN_SIZE
    pixels = [[(255, 255, 255)] * width for _ in range(height)]

    def box(x0, y0, x1, y1, colour):
        for y in range(max(0, y0), min(height, y1)):
            row = pixels[y]
            for x in range(max(0, x0), min(width, x1)):
                row[x] = colour

    wall = (40, 40, 48)
    box(0, 0, width, 6, wall)
    box(0, height - 6, width, height, wall)
    box(0, 0, 6, height, wall)
    box(width - 6, 0, width, height, wall)
    box(397, 0, 403, 150, wall)  # a wall with a door between y 150 and 250
    box(397, 250, 403, height, wall)
    (bx0, by), (bx1, _), _ = BAR
    box(bx0, by - 2, bx1, by + 2, (200, 40, 40))
    box(bx0, by - 10, bx0 + 3, by + 10, (200, 40, 40))
    box(bx1 - 3, by - 10, bx1, by + 10, (200, 40, 40))
    raw = b"".join(b"\x00" + bytes(c for pixel in row for c in pixel) for row in pixels)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as handle:
        handle.write(png)


def api(method, path, body=None):
    """A direct API call, for what the page does not do (registering the simulated beacons)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("Authorization", "Bearer " + token())
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read() or b"null")


class Failure(Exception):
    pass


class AdminPage:
    def __init__(self):
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1180,820", "--disable-gpu"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.shot_number = 0
        self.console = []
        self.api_requests = []  # (method, url, Authorization header) of every /v1/ request the page made

    def shot(self, name, show=None):
        """A screenshot, after scrolling the element `show` (an ID) into view when given."""
        if show:
            self.js("arguments[0].scrollIntoView({block: 'center'})", self.by_id(show))
        self.shot_number += 1
        path = os.path.join(SHOTS, f"{self.shot_number:02d}-{name}.png")
        self.driver.save_screenshot(path)
        print(f"    screenshot {path}")

    def by_id(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def wait(self, what, condition, timeout=60):
        try:
            # The page redraws its lists; an element read just before a redraw is stale, so ask again.
            waiting = WebDriverWait(self.driver, timeout, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,))
            return waiting.until(lambda _: condition())
        except TimeoutException:
            status = self.text("status")
            raise Failure(f"timed out after {timeout} s waiting for {what} (page status: {status!r})") from None

    def text(self, element_id):
        try:
            return self.by_id(element_id).text
        except Exception:  # noqa: BLE001 - only for messages
            return ""

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def tap_plan(self, px, py):
        """A pointer tap at pixel (px, py) of the plan image."""
        svg = self.by_id("plan")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", svg)
        offset = self.js(
            """
            const svg = arguments[0];
            const point = svg.createSVGPoint();
            point.x = arguments[1]; point.y = arguments[2];
            const screen = point.matrixTransform(svg.getScreenCTM());
            const box = svg.getBoundingClientRect();
            return [screen.x - (box.left + box.width / 2), screen.y - (box.top + box.height / 2)];
            """,
            svg, px, py,
        )
        ActionChains(self.driver).move_to_element_with_offset(svg, int(round(offset[0])), int(round(offset[1]))).click().perform()

    def tool(self, name):
        self.driver.find_element(By.CSS_SELECTOR, f'input[name="tool"][value="{name}"]').click()

    def collect_logs(self):
        self.console += self.driver.get_log("browser")
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") != "Network.requestWillBeSent":
                continue
            request = message["params"]["request"]
            if "/v1/" in request["url"]:
                headers = {name.lower(): value for name, value in request.get("headers", {}).items()}
                self.api_requests.append((request["method"], request["url"], headers.get("authorization")))

    def location_items(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "#location-list li")


def run(page, workdir):
    driver = page.driver
    print("==> sign in")
    driver.get(BASE + "/admin/")
    page.wait("the sign-in form", lambda: page.by_id("token").is_displayed())
    page.shot("sign-in")
    page.by_id("token").send_keys(token())
    page.by_id("sign-in").click()
    page.wait("the signed-in page", lambda: page.by_id("app-view").is_displayed() and "Signed in" in page.text("status"))
    if page.js("return sessionStorage.getItem('floorscan.adminToken')") != token():
        raise Failure("the token is not kept in sessionStorage")
    if page.js("return localStorage.length") != 0:
        raise Failure("the page wrote to localStorage")
    page.shot("signed-in")

    print("==> integrations: MQTT not configured, a webhook to a receiver that is not there")
    api("POST", "/v1/webhooks", {"url": "http://127.0.0.1:1/floorscan-hook"})
    page.by_id("integrations-refresh").click()
    page.wait("the webhook listed", lambda: "127.0.0.1:1/floorscan-hook" in page.text("webhook-list"))
    if page.text("mqtt-status") != "MQTT: not configured.":
        raise Failure(f"the MQTT line says {page.text('mqtt-status')!r}")

    print("==> create a floor and a room, rename the room")
    driver.find_element(By.CSS_SELECTOR, "#floor-new-details summary").click()
    page.by_id("floor-name").send_keys("Ground floor")
    page.by_id("floor-building").send_keys("Test building")
    page.by_id("floor-create").click()
    page.wait("the new floor", lambda: "Ground floor" in Select(page.by_id("floor-select")).first_selected_option.text)
    page.by_id("room-name").send_keys("Office")
    page.by_id("room-create").click()
    page.wait("the new room", lambda: "Office" in page.text("room-list"))
    driver.find_element(By.XPATH, "//ul[@id='room-list']/li//button[text()='Rename']").click()
    page.wait("the rename prompt", lambda: page.by_id("prompt-dialog").is_displayed())
    field = page.by_id("prompt-input")
    field.clear()
    field.send_keys("Open office")
    page.shot("rename-room")
    page.by_id("prompt-ok").click()
    page.wait("the renamed room", lambda: "Open office" in page.text("room-list"))

    print("==> upload the plan and set its scale")
    plan = os.path.join(workdir, "plan.png")
    plan_png(plan)
    page.by_id("plan-file").send_keys(plan)
    page.wait("the plan image", lambda: "Plan uploaded" in page.text("status")
              and page.js("return document.querySelector('#plan image') !== null"))
    view_box = page.js("return document.getElementById('plan').getAttribute('viewBox')")
    if view_box != f"0 0 {PLAN_SIZE[0]} {PLAN_SIZE[1]}":
        raise Failure(f"the plan is drawn at {view_box}, not the image's size")
    page.shot("plan-uploaded")
    page.tool("scale")
    (ax, ay), (bx, by), metres = BAR
    page.tap_plan(ax, ay)
    page.tap_plan(bx, by)
    page.wait("the distance field", lambda: page.by_id("scale-form").is_displayed())
    page.by_id("scale-distance").send_keys(str(metres))
    page.shot("scale-marked", show="scale-form")
    page.by_id("scale-save").click()
    page.wait("the saved scale", lambda: "Scale saved" in page.text("status"))
    driver.find_element(By.CSS_SELECTOR, "#scale-typed-details summary").click()
    typed = [page.by_id(i).get_attribute("value") for i in ("scale-ppm", "origin-x", "origin-y")]
    if abs(float(typed[0]) - 20) > 0.5 or typed[1:] != ["0", "0"]:
        raise Failure(f"the typed-scale form shows {typed}, expected about 20 pixels a metre and origin 0, 0")
    page.by_id("origin-y").send_keys(Keys.ENTER)  # the same scale again, from the keyboard
    page.wait("the typed scale saved", lambda: "Scale and origin saved" in page.text("status"))
    floor = api("GET", "/v1/floors")[0]
    scale = floor.get("scale") or {}
    if abs(scale.get("metresPerPixel", 0) - 0.05) > 0.002:
        raise Failure(f"stored scale {scale}, expected 0.05 m a pixel")

    print("==> add two locations on the plan")
    page.tool("add")
    for number, (x, y) in enumerate(SPOTS, start=1):
        page.tap_plan(x * 20, y * 20)
        page.wait(f"location {number}", lambda n=number: len(page.location_items()) == n)
    locations = sorted(api("GET", f"/v1/locations?floor={floor['id']}"), key=lambda l: l["id"])
    for location, (x, y) in zip(locations, SPOTS):
        if math.hypot(location["x"] - x, location["y"] - y) > 0.3:
            raise Failure(f"location {location['id']} stored at ({location['x']}, {location['y']}), tapped at ({x}, {y})")
    page.shot("locations-added", show="location-list")

    print("==> geo-reference the floor: tap three spots, type their latitude and longitude, save")
    page.tool("geo")
    geo_points = [((1, 1), (51.5116, -0.117)), ((10, 1), (51.5116, -0.11687)), ((1, 8), (51.511537, -0.117))]
    for number, ((x, y), (latitude, longitude)) in enumerate(geo_points, start=1):
        page.tap_plan(x * 20, y * 20)
        page.wait(f"the latitude and longitude form for point {number}", lambda: page.by_id("geo-form").is_displayed())
        page.by_id("geo-latitude").send_keys(str(latitude))
        page.by_id("geo-longitude").send_keys(str(longitude))
        page.by_id("geo-add").click()
        page.wait(f"geo point {number} listed", lambda n=number: len(page.driver.find_elements(By.CSS_SELECTOR, "#geo-list li")) == n)
    page.by_id("geo-save").click()
    page.wait("the saved geo-reference", lambda: "Geo-referenced" in page.text("status"))
    stored = api("GET", f"/v1/floors/{floor['id']}/georeference")
    for point, ((x, y), (latitude, longitude)) in zip(stored["controlPoints"], geo_points):
        if math.hypot(point["x"] - x, point["y"] - y) > 0.3 or (point["latitude"], point["longitude"]) != (latitude, longitude):
            raise Failure(f"stored control point {point}, tapped at ({x}, {y}) with {latitude}, {longitude}")
    if page.js("return document.querySelectorAll('#plan .geo-mark').length") != 3:
        raise Failure("the three control points are not drawn on the plan")
    located = api("GET", f"/v1/locations/{locations[0]['id']}")
    if "latitude" not in located or abs(located["latitude"] - 51.5116) > 0.001:
        raise Failure(f"a location of the geo-referenced floor carries no plausible latitude: {located}")
    page.shot("georeferenced", show="geo-h")

    print("==> before any survey: the legend, and a location marked but not surveyed is where to survey next")
    if "Expected error" not in page.text("quality-legend") or "survey next" not in page.text("quality-legend"):
        raise Failure(f"the legend: {page.text('quality-legend')!r}")
    page.wait("a suggestion of an unsurveyed location", lambda: page.by_id("survey-next").get_attribute("data-location-id")
              in {str(l["id"]) for l in locations} and page.js("return document.getElementById('survey-next-mark') !== null"))

    print("==> survey both locations")
    page.tool("select")
    scanners = [o.get_attribute("value") for o in Select(page.by_id("scanner-select")).options]
    if "default" not in scanners:
        raise Failure(f"scanner 'default' not offered: {scanners}")
    for index, location in enumerate(locations):
        if index == 0:
            page.tap_plan(SPOTS[0][0] * 20, SPOTS[0][1] * 20)  # by pointer on the plan
        else:
            choose = driver.find_element(By.XPATH, f"//ul[@id='location-list']/li[@data-location-id='{location['id']}']//button[text()='Choose']")
            choose.send_keys(Keys.ENTER)  # by keyboard from the list
        page.wait("the chosen location", lambda l=location: page.text("chosen-location") == l["name"])
        stop = page.by_id("stop-scans")
        stop.clear()
        stop.send_keys("4")
        page.by_id("scan-here").click()
        progress = page.by_id("survey-progress")
        page.wait("live survey progress", lambda l=location: progress.get_attribute("data-location-id") == str(l["id"])
                  and int(progress.get_attribute("data-samples") or 0) > 0, timeout=60)
        page.shot(f"survey-{index + 1}-progress", show="survey-text")
        page.wait("the survey's end", lambda: progress.get_attribute("data-state") == "done", timeout=90)
        if "Done" not in page.text("survey-text") or "access points" not in page.text("survey-text"):
            raise Failure(f"survey text after the end: {page.text('survey-text')!r}")
        item = f"//ul[@id='location-list']/li[@data-location-id='{location['id']}']"
        page.wait("the location coloured as surveyed", lambda x=item: driver.find_element(By.XPATH, x).get_attribute("data-coverage") != "none")
        page.shot(f"survey-{index + 1}-done", show="survey-text")
        samples = int(progress.get_attribute("data-samples"))
        stored = api("GET", f"/v1/measurements?location={location['id']}&limit=1000")["items"]
        print(f"    location {location['id']}: page counted {samples} samples, switchd stored {len(stored)}")
        if samples == 0 or samples > len(stored):
            raise Failure(f"the page counted {samples} samples, switchd stored {len(stored)}")
    dots = page.js("return [...document.querySelectorAll('#plan .location')].map(d => d.getAttribute('class'))")
    if len(dots) != 2 or any(" none" in d for d in dots):
        raise Failure(f"coverage colours after the survey: {dots}")

    print("==> each location coloured by its expected error; where to survey next")
    def expected_errors():
        return [page.js(f"return document.querySelector('#location-list li[data-location-id=\"{l['id']}\"]').dataset.expectedError || null")
                for l in locations]
    page.wait("an expected error for both locations", lambda: all(expected_errors()))
    dots = page.js("return [...document.querySelectorAll('#plan .location')].map(d => d.getAttribute('class'))")
    if not all(any(band in d.split() for band in ("low", "mid", "high")) for d in dots):
        raise Failure(f"colours by expected error: {dots} (expected errors {expected_errors()})")
    if not page.text("survey-next").startswith("Survey next:") or not page.js("return document.getElementById('survey-next-mark') !== null"):
        raise Failure(f"no suggestion after the survey: {page.text('survey-next')!r}")
    print(f"    expected errors {expected_errors()} m; {page.text('survey-next')}")
    page.shot("survey-quality", show="survey-next")

    print("==> heat map of one access point")
    emitters = [o.get_attribute("value") for o in Select(page.by_id("emitter-select")).options if o.get_attribute("value")]
    access_point = next((e for e in emitters if e.startswith("ap:")), None)
    if access_point is None:
        raise Failure(f"no access point to draw a heat map of: {emitters}")
    Select(page.by_id("emitter-select")).select_by_value(access_point)
    page.wait("the heat map", lambda: page.js("return document.getElementById('heatmap') !== null"))
    page.shot("coverage-heatmap", show="coverage-summary")

    print("==> link the two locations on the plan and ask for the route")
    page.tool("link")
    page.tap_plan(SPOTS[0][0] * 20, SPOTS[0][1] * 20)
    page.tap_plan(SPOTS[1][0] * 20, SPOTS[1][1] * 20)
    page.wait("the link", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#link-list li")) == 1
              and page.js("return document.querySelectorAll('#plan .link').length") == 1)
    Select(page.by_id("link-from")).select_by_value(str(locations[0]["id"]))
    Select(page.by_id("link-to")).select_by_value(str(locations[1]["id"]))
    page.by_id("route-show").click()
    page.wait("the route", lambda: "on foot" in page.text("route-result"))
    result = page.by_id("route-result")
    distance = float(result.get_attribute("data-distance"))
    eta = float(result.get_attribute("data-eta"))
    expected = math.hypot(SPOTS[1][0] - SPOTS[0][0], SPOTS[1][1] - SPOTS[0][1])
    if abs(distance - expected) > 0.5 or f"{distance:.1f} m" not in result.text:
        raise Failure(f"route shows {result.text!r} (distance {distance}), expected about {expected:.1f} m")
    if not (eta > 0 and f"about {round(eta)} s" in result.text):
        raise Failure(f"route ETA {eta} not shown in {result.text!r}")
    if not page.js("return document.getElementById('route-line') !== null"):
        raise Failure("the route is not drawn on the plan")
    print(f"    {result.text}")
    page.shot("route", show="route-result")

    print("==> a second floor, a location typed in, a stairs link to the first floor and a route across")
    driver.find_element(By.CSS_SELECTOR, "#floor-new-details summary").click()
    page.by_id("floor-name").send_keys("First floor")
    page.by_id("floor-building").send_keys("Test building")
    level = page.by_id("floor-level")
    level.clear()
    level.send_keys("1")
    page.by_id("floor-create").click()
    page.wait("the second floor", lambda: "First floor" in Select(page.by_id("floor-select")).first_selected_option.text)
    page.by_id("room-name").send_keys("Landing")
    page.by_id("room-name").send_keys(Keys.ENTER)  # submits the form from the keyboard
    page.wait("the landing", lambda: "Landing" in page.text("room-list"))
    page.by_id("location-x").send_keys("30")
    page.by_id("location-y").send_keys("14")
    page.by_id("location-add").click()
    page.wait("the landing's location", lambda: len(page.location_items()) == 1)
    upstairs = page.js("return document.querySelector('#location-list li').dataset.locationId")
    Select(page.by_id("link-from")).select_by_value(upstairs)
    Select(page.by_id("link-to")).select_by_value(str(locations[1]["id"]))
    page.by_id("link-create").click()
    page.wait("the stairs link", lambda: "stairs" in page.text("link-list") and "(Ground floor)" in page.text("link-list"))
    Select(page.by_id("link-from")).select_by_value(str(locations[0]["id"]))
    Select(page.by_id("link-to")).select_by_value(upstairs)
    page.by_id("route-show").click()
    page.wait("the route upstairs", lambda: "1 floor change." in page.text("route-result"))
    print(f"    {page.text('route-result')}")
    page.shot("route-to-another-floor", show="route-result")
    Select(page.by_id("floor-select")).select_by_value(str(floor["id"]))
    page.wait("the ground floor again", lambda: len(page.location_items()) == 2)

    print("==> locate: the live position on the plan")
    for minor, x, y in BEACONS:
        api("POST", "/v1/beacons", {"uuid": BEACON_UUID, "major": 1, "minor": minor, "floorID": floor["id"], "x": x, "y": y, "measuredPower": -59})
    page.by_id("locate-start").click()
    text = page.by_id("locate-text")
    page.wait("the first position", lambda: int(text.get_attribute("data-count") or 0) >= 1
              and page.js("return document.getElementById('position-dot') !== null"), timeout=90)
    page.shot("locate-first-position", show="locate-text")
    seen = set()
    first = int(text.get_attribute("data-count"))

    def moved():
        seen.add((text.get_attribute("data-x"), text.get_attribute("data-y"),
                  page.js("const d = document.getElementById('position-dot'); return d && d.getAttribute('cx') + ',' + d.getAttribute('cy')")))
        return int(text.get_attribute("data-count")) >= first + 3 and len(seen) >= 2

    page.wait("the position to update and move", moved, timeout=90)
    if not page.js("const a = document.getElementById('position-accuracy'); return a !== null && Number(a.getAttribute('r')) > 0"):
        raise Failure("no accuracy circle around the position")
    print(f"    {text.text}")
    page.shot("locate-moving", show="locate-text")
    page.by_id("locate-stop").click()
    page.wait("locating stopped", lambda: "Not locating" in text.text)

    print("==> integrations: the positions' presence events failed to reach the webhook")

    def failure_listed():
        page.by_id("integrations-refresh").click()
        return "attempts" in page.text("webhook-failures")

    page.wait("a failed delivery listed", failure_listed, timeout=60)
    print(f"    {page.text('webhook-failures').splitlines()[0]}")
    page.shot("integrations", show="integrations-h")

    print("==> a walk survey from the first location to the second")
    page.tool("select")
    driver.find_element(By.XPATH, f"//ul[@id='location-list']/li[@data-location-id='{locations[0]['id']}']//button[text()='Choose']").click()
    page.wait("the walk's start chosen", lambda: page.text("chosen-location") == locations[0]["name"])
    Select(page.by_id("walk-to")).select_by_value(str(locations[1]["id"]))
    page.by_id("walk-start").click()
    page.wait("the walk under way", lambda: "Walking" in page.text("walk-text"))
    walk = next(w for w in api("GET", "/v1/walks") if w["state"] == "walking")

    def walk_cycles():
        stored = api("GET", f"/v1/measurements?location={locations[0]['id']}&limit=1000")["items"]
        return {m.get("scan") for m in stored if m["switchRevision"] == walk["switchRevision"]}

    page.wait("two scan cycles of the walk stored", lambda: len(walk_cycles()) >= 2, timeout=90)
    page.shot("walk-under-way", show="walk-text")
    page.by_id("walk-arrived").click()
    page.wait("the walk's points placed", lambda: "points placed" in page.text("status") and "Not walking" in page.text("walk-text"))
    placed = int(page.text("status").split(" points placed")[0].split()[-1])
    # The scanner's last upload may come after the arrival: switchd places it then, as more points.
    done = api("GET", f"/v1/walks/{walk['id']}")
    points = [l for l in api("GET", f"/v1/locations?floor={floor['id']}") if l.get("walkID") == walk["id"]]
    if done["state"] != "done" or placed < 1 or done["points"] < placed or len(points) != done["points"]:
        raise Failure(f"walk after arrival: {done} (the page said {placed} points), its points {points}")
    ax, ay, bx, by = done["startX"], done["startY"], done["endX"], done["endY"]
    for point in points:  # on the segment between the two locations
        cross = (bx - ax) * (point["y"] - ay) - (by - ay) * (point["x"] - ax)
        if abs(cross) > 1e-6 * math.hypot(bx - ax, by - ay) or not min(ax, bx) <= point["x"] <= max(ax, bx):
            raise Failure(f"walk point off the segment: {point}")
    page.wait("the walk points on the plan", lambda: page.js("return document.querySelectorAll('#plan .location').length") >= 2 + placed)
    if len(page.location_items()) != 2:
        raise Failure("walk points are listed among the locations")
    print(f"    {page.text('status')}")
    page.shot("walk-arrived", show="walk-text")
    # The later steps (and the visitor test after this one) expect the two spot-surveyed locations only.
    api("DELETE", f"/v1/walks/{walk['id']}")

    print("==> a destructive action asks first")
    driver.find_element(By.XPATH, "//ul[@id='room-list']/li//button[text()='Clear data…']").click()
    page.wait("the confirmation", lambda: page.by_id("confirm-dialog").is_displayed())
    page.shot("confirm-clear")
    page.by_id("confirm-cancel").click()
    page.wait("the dialog closed", lambda: not page.by_id("confirm-dialog").is_displayed())
    if len(api("GET", f"/v1/measurements?location={locations[0]['id']}&limit=1")["items"]) != 1:
        raise Failure("cancelling the clear deleted measurements")


def run_with_screenshot(page, steps, name="FAILED"):
    """Runs `steps()`; a failure is returned (not raised) after a screenshot named `name`."""
    try:
        steps()
    except Exception as error:  # noqa: BLE001 - report any failure with a screenshot
        try:
            page.shot(name)
        except Exception:  # noqa: BLE001
            pass
        return error
    return None


def close_and_judge(page, failed):
    """Collects the browser's logs, quits it and prints its console; 1 when a step failed or the
    console has an error, else 0."""
    try:
        page.collect_logs()
    finally:
        page.driver.quit()
    for entry in page.console:
        print(f"    console {entry.get('level')}: {entry.get('message')}")
    if failed is not None:
        print(f"FAIL: {type(failed).__name__}: {failed}")
        return 1
    # Chromium logs every 4xx answer as an error, so normal use of the page must get none: no
    # console error is allowed at all.
    errors = [entry for entry in page.console if entry.get("level") == "SEVERE"]
    if errors:
        print(f"FAIL: {len(errors)} console errors")
        return 1
    return 0


def main():
    os.makedirs(SHOTS, exist_ok=True)
    for name in os.listdir(SHOTS):
        if name.endswith(".png"):
            os.remove(os.path.join(SHOTS, name))
    page = AdminPage()

    def steps():
        with tempfile.TemporaryDirectory(prefix="floorscan-browser-") as workdir:
            run(page, workdir)

    failed = run_with_screenshot(page, steps)
    if close_and_judge(page, failed):
        return 1
    unauthorised = [(method, url) for method, url, authorization in page.api_requests if authorization != "Bearer " + token()]
    print(f"    {len(page.api_requests)} API requests by the page, {len(unauthorised)} without the admin token")
    for method, url in unauthorised[:10]:
        print(f"    without the token: {method} {url}")
    if unauthorised or not page.api_requests:
        print("FAIL: every API request must carry the admin token")
        return 1
    print(f"PASS: every step; {page.shot_number} screenshots in {SHOTS}; no console errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
