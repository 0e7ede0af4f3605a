"""The admin page's tags in a real headless Chromium against the switchd that scripts/browser-test
started: the fixed scanners drawn on the plan, a tag's dot moving live as the scanners' sightings
arrive (its position stream), and the tag's last sightings listed when asked for; then the
Scanners card: a fixed scanner's watched list too long for its switch answer shown there, and a
scanner deleted (asked first). The sightings
are posted through the API as three fixed scanners would (scannerd track's end-to-end test covers
scannerd itself).

Exits non-zero on the first failed step, after a screenshot of it.
"""

import datetime
import json
import math
import os
import re
import sys
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from admin_survey import BASE, SHOTS, AdminPage, api, close_and_judge, run_with_screenshot
from visit_and_dashboard import sign_in

SCANNERS = [("fixed-a", 0.0, 0.0), ("fixed-b", 12.0, 0.0), ("fixed-c", 6.0, 10.0)]
IDENTITY = {"kind": "address", "address": "02:00:00:00:0b:1e"}
BEACON_UUID = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"
BEACONS_PAST_THE_ANSWER = 900


def iso(moment):
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def place_fixed_scanners(floor_id, scanners):
    """Registers the fixed scanners (ID, x, y) and places them on the floor, 1 m up, exponent 2."""
    for scanner_id, x, y in scanners:
        api("POST", "/v1/scanners", {"id": scanner_id})
        api("PUT", f"/v1/scanners/{scanner_id}/placement", {"floorID": floor_id, "x": x, "y": y, "height": 1, "pathLossExponent": 2})


def heard_at(spot, end, scanners=SCANNERS, identity=IDENTITY):
    """Every fixed scanner reports the window ending at `end`, at the RSSI of the tag at `spot`
    (−59 dBm at 1 m, exponent 2)."""
    for scanner_id, x, y in scanners:
        rssi = -59 - 20 * math.log10(max(math.hypot(spot[0] - x, spot[1] - y), 0.5))
        api("POST", "/v1/sightings", {"scannerID": scanner_id, "sightings": [{
            "identity": identity, "windowStart": iso(end - datetime.timedelta(seconds=1)), "windowEnd": iso(end),
            "count": 3, "medianRSSI": round(rssi, 1), "maxRSSI": round(rssi) + 1,
        }]})


def located(tag_id):
    """Whether switchd has a position for the tag yet (404 until its first window closes)."""
    try:
        api("GET", f"/v1/tags/{tag_id}/positions/latest")
        return True
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return False
        raise


def run(page):
    driver = page.driver
    floor = api("POST", "/v1/floors", {"name": "Bike store floor", "building": "Tags building"})
    place_fixed_scanners(floor["id"], SCANNERS)
    tag = api("POST", "/v1/tags", {"name": "Bike", "identity": IDENTITY, "txPower": -59, "height": 1})
    start = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    heard_at((3.0, 3.0), start)
    # switchd locates a window once it closes: here on its clock, no later window being posted.
    # The page then loads with the tag's latest position (asked before, it would answer 404).
    page.wait("the first window located", lambda: located(tag["id"]))

    sign_in(page)
    Select(page.by_id("floor-select")).select_by_value(str(floor["id"]))
    page.wait("the three fixed scanners on the plan", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#plan rect.fixed-scanner")) == 3)
    page.wait("the tag on the plan", lambda: driver.find_elements(By.ID, f"tag-dot-{tag['id']}"))
    # Read in one script: the page may redraw the dot between a find and a read (a stale element).
    dot_x = lambda: page.js("return parseFloat(document.getElementById(arguments[0]).getAttribute('cx'))", f"tag-dot-{tag['id']}")  # noqa: E731
    before = dot_x()
    page.shot("tag-placed", show="plan")

    for second in range(1, 4):
        heard_at((3.0 + 2 * second, 3.0), start + datetime.timedelta(seconds=second))
    page.wait("the tag's dot to move east live", lambda: dot_x() > before + 10)
    page.shot("tag-moved", show="plan")

    item = f"#tag-list li[data-tag-id='{tag['id']}']"
    page.wait("the tag in the Tags card", lambda: driver.find_elements(By.CSS_SELECTOR, item))
    driver.find_element(By.CSS_SELECTOR, f"{item} button").click()
    page.wait("its last sightings, newest first", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#tag-sightings li[data-scanner-id]")) == 10)
    scanners = set(page.js("return [...document.querySelectorAll('#tag-sightings li[data-scanner-id]')].map(li => li.dataset.scannerId)"))
    if scanners != {name for name, _, _ in SCANNERS}:
        raise AssertionError(f"sightings from {scanners}")
    page.shot("tag-last-seen", show="tags")

    print("==> the visitor page follows the badge (?tag=): where it is, the nearest item, a route")
    hall = api("POST", "/v1/rooms", {"floorID": floor["id"], "name": "Bike hall"})
    shop = api("POST", "/v1/rooms", {"floorID": floor["id"], "name": "Repair shop"})
    door = api("POST", "/v1/locations", {"roomID": hall["id"], "x": 8, "y": 3})
    bench = api("POST", "/v1/locations", {"roomID": shop["id"], "x": 10, "y": 8})
    api("POST", "/v1/links", {"from": door["id"], "to": bench["id"], "kind": "walk"})
    api("POST", "/v1/beacons", {"uuid": BEACON_UUID, "major": 4, "minor": 1, "floorID": floor["id"], "x": 9, "y": 4,
                                "measuredPower": -59, "metadata": {"name": "Penny-farthing", "content": "A bicycle from 1880."}})
    reader = api("POST", "/v1/tokens", {"name": "visitor", "role": "reader"})["token"]
    driver.switch_to.new_window("tab")
    driver.get(f"{BASE}/visit/?tag={tag['id']}#token={reader}")
    page.wait("the page following the badge", lambda: f"badge {tag['id']}" in page.text("where-text"))
    for second in range(4, 7):
        heard_at((9.0, 3.0), start + datetime.timedelta(seconds=second))
    where = page.by_id("where-text")
    page.wait("where the badge is", lambda: int(where.get_attribute("data-count") or 0) >= 1
              and page.js("return document.getElementById('position-dot') !== null"), timeout=60)
    page.wait("the item nearest the badge", lambda: "Penny-farthing" in page.text("nearest-item"))
    page.by_id("search-input").send_keys("repair")
    page.by_id("search-go").click()
    button = f"#search-results button[data-room-id='{shop['id']}']"
    page.wait("the shop in the results", lambda: driver.find_elements(By.CSS_SELECTOR, button))
    driver.find_element(By.CSS_SELECTOR, button).click()
    page.wait("the route from the badge", lambda: page.by_id("route-summary").get_attribute("data-room-id") == str(shop["id"]))
    print(f"    {where.text} / {page.text('route-summary')}")
    page.shot("visit-follows-badge", show="route-steps")
    driver.close()
    driver.switch_to.window(driver.window_handles[0])

    print("==> a watched list too long for the switch answer is shown on its fixed scanner")
    card = "#scanner-list li[data-scanner-id='fixed-a']"
    page.wait("the fixed scanners in the Scanners card", lambda: driver.find_elements(By.CSS_SELECTOR, card))
    if not driver.find_elements(By.CSS_SELECTOR, f"{card} .health.offline"):
        raise AssertionError("a scanner that never reported is not shown offline in the Scanners card")
    if driver.find_elements(By.CSS_SELECTOR, f"{card} .left-out"):
        raise AssertionError("a watched list that fits shows beacons left out")
    # More beacons in the building than a 64 KiB switch answer lists (about 700 fit).
    for minor in range(1, BEACONS_PAST_THE_ANSWER + 1):
        api("POST", "/v1/beacons", {
            "uuid": BEACON_UUID, "major": 3, "minor": minor, "floorID": floor["id"],
            "x": 20 + (minor % 30) * 0.5, "y": 20 + (minor // 30) * 0.5, "z": 1, "measuredPower": -59,
        })
    left_out = api("GET", "/v1/scanners/fixed-a/switch?watched=")["watchedLeftOut"]
    page.by_id("scanners-refresh").click()
    page.wait("the beacons left out shown on the fixed scanner", lambda: driver.find_elements(By.CSS_SELECTOR, f"{card} .left-out"))
    shown = driver.find_element(By.CSS_SELECTOR, f"{card} .left-out").text
    if shown != f"{left_out} beacons left out of the watched list":
        raise AssertionError(f"the card says {shown!r}; switchd leaves out {left_out}")
    page.wait("its square outlined on the plan", lambda: "left-out" in page.by_id("fixed-scanner-fixed-a").get_attribute("class"))
    page.shot("scanner-left-out", show="scanners")

    print("==> a scanner deleted from the Scanners card, asked first")
    delete = "//ul[@id='scanner-list']/li[@data-scanner-id='fixed-c']//button[text()='Delete…']"
    driver.find_element(By.XPATH, delete).click()
    page.wait("the confirmation", lambda: page.by_id("confirm-dialog").is_displayed())
    page.by_id("confirm-cancel").click()
    page.wait("the dialog closed", lambda: not page.by_id("confirm-dialog").is_displayed())
    if "fixed-c" not in {s["id"] for s in api("GET", "/v1/scanners")["items"]}:
        raise AssertionError("cancelling deleted the scanner")
    driver.find_element(By.XPATH, delete).click()
    page.wait("the confirmation", lambda: page.by_id("confirm-dialog").is_displayed())
    page.by_id("confirm-ok").click()
    page.wait("the scanner gone from the card", lambda: not driver.find_elements(By.CSS_SELECTOR, "#scanner-list li[data-scanner-id='fixed-c']"))
    if "fixed-c" in {s["id"] for s in api("GET", "/v1/scanners")["items"]}:
        raise AssertionError("the scanner is still registered")
    page.wait("its square gone from the plan", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#plan rect.fixed-scanner")) == 2)
    if "fixed-c" in [o.get_attribute("value") for o in Select(page.by_id("scanner-select")).options]:
        raise AssertionError("the deleted scanner is still offered under Survey")
    page.shot("scanner-deleted", show="scanners")

    print("==> a Pi added from the Scanners card: a one-time code and the command for the Pi")
    page.by_id("enrol-scanner").send_keys("pi-enrolled")
    page.by_id("enrol-make").click()
    page.wait("the command for the Pi", lambda: page.js("return !document.getElementById('enrol-result').hidden"))
    command = page.text("enrol-command")
    code = page.js("return document.getElementById('enrol-command').dataset.code")
    if not re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}", code or "") or f"sudo scannerd enrol {BASE} {code}" not in command:
        raise AssertionError(f"the command shown: {command!r} (code {code!r})")
    page.wait("the new scanner in the card", lambda: driver.find_elements(By.CSS_SELECTOR, "#scanner-list li[data-scanner-id='pi-enrolled']"))
    page.shot("pi-enrol-code", show="scanners")
    # The code shown is the one switchd made: it enrols pi-enrolled, once.
    request = urllib.request.Request(BASE + "/v1/enrol", data=json.dumps({"code": code}).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as response:
        if json.loads(response.read())["scannerID"] != "pi-enrolled":
            raise AssertionError("the code enrolled another scanner")
    print(f"    {command}")


def main():
    os.makedirs(SHOTS, exist_ok=True)
    page = AdminPage()
    failed = run_with_screenshot(page, lambda: run(page), name="tags-FAILED")
    if close_and_judge(page, failed):
        return 1
    print(f"PASS: fixed scanners, the tag moving live, its last sightings, beacons left out, a scanner deleted; {page.shot_number} screenshots")
    return 0


if __name__ == "__main__":
    sys.exit(main())
