"""The visitor page and the admin dashboard in a real headless Chromium against the switchd and
the simulated scannerd that scripts/browser-test started (after admin_survey.py, whose helpers
this reuses; it does not depend on what that test left behind).

Visitor page: the link made on the admin page (a visitor token in the fragment, dropped from the
address once read), ?lang=fr, where am I from the scanner's live position, the nearest item in
French changing as the scanner walks, a room searched without its accent, the route's steps and
line, and a room one floor up (a stairs step, the plan of that floor). Dashboard: counts, recent activity and dwell match GET /v1/dashboard.

Exits non-zero on the first failed step, after a screenshot of it.
"""

import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from admin_survey import BASE, BEACON_UUID, BEACONS, AdminPage, Failure, api, close_and_judge, run_with_screenshot, token

# Two items on the simulated floor, beside the loop the scanner walks (8,6 → 32,6 → 32,14 → 8,14),
# on beacons of their own (minors 101, 102) that the simulated radio does not send.
ITEMS = [
    (101, 9.0, 5.0, {"name": "Old clock", "name.fr": "Vieille horloge", "content": "A clock from 1850.", "content.fr": "Une horloge de 1850."}),
    (102, 31.0, 15.0, {"name": "Fountain", "name.fr": "Fontaine", "content.en": "A stone fountain.", "content.fr": "Une fontaine de pierre."}),
]
DESTINATION = "Café Lumière"
UPSTAIRS = "Galerie Haute"


def setup():
    """The floor the simulated beacons are registered on (registering them on a new floor when
    none is), a corridor and a café joined by links, every other location there linked in, and
    the two items. Returns (floor, café room)."""
    beacons = api("GET", "/v1/beacons")["items"]
    corner = [b for b in beacons if b["uuid"].upper() == BEACON_UUID and b["major"] == 1 and b["minor"] in {m for m, _, _ in BEACONS}]
    if corner:
        floor = api("GET", f"/v1/floors/{corner[0]['floorID']}")
    else:
        floor = api("POST", "/v1/floors", {"name": "Visit floor", "building": "Visit building"})
        for minor, x, y in BEACONS:
            api("POST", "/v1/beacons", {"uuid": BEACON_UUID, "major": 1, "minor": minor, "floorID": floor["id"], "x": x, "y": y, "measuredPower": -59})
    hall = api("POST", "/v1/rooms", {"floorID": floor["id"], "name": "Entrance hall"})
    cafe = api("POST", "/v1/rooms", {"floorID": floor["id"], "name": DESTINATION})
    east = api("POST", "/v1/locations", {"roomID": hall["id"], "x": 8, "y": 6})
    west = api("POST", "/v1/locations", {"roomID": hall["id"], "x": 32, "y": 6})
    table = api("POST", "/v1/locations", {"roomID": cafe["id"], "x": 32, "y": 14})
    api("POST", "/v1/links", {"from": east["id"], "to": west["id"], "kind": "walk"})
    api("POST", "/v1/links", {"from": west["id"], "to": table["id"], "kind": "walk"})
    for location in api("GET", f"/v1/locations?floor={floor['id']}"):
        if location["id"] not in (east["id"], west["id"], table["id"]):
            linked = {l["from"] for l in api("GET", f"/v1/links?location={location['id']}")} | {
                l["to"] for l in api("GET", f"/v1/links?location={location['id']}")}
            if east["id"] not in linked:
                api("POST", "/v1/links", {"from": location["id"], "to": east["id"], "kind": "walk"})
    # One floor up in the same building: the stairs from the café's table to a landing, then a
    # walk to the gallery.
    upper = api("POST", "/v1/floors", {"name": "Mezzanine", "building": floor["building"], "level": floor["level"] + 1})
    landing_room = api("POST", "/v1/rooms", {"floorID": upper["id"], "name": "Landing"})
    gallery = api("POST", "/v1/rooms", {"floorID": upper["id"], "name": UPSTAIRS})
    landing = api("POST", "/v1/locations", {"roomID": landing_room["id"], "x": 32, "y": 14})
    painting = api("POST", "/v1/locations", {"roomID": gallery["id"], "x": 20, "y": 9})
    api("POST", "/v1/links", {"from": table["id"], "to": landing["id"], "kind": "stairs"})
    api("POST", "/v1/links", {"from": landing["id"], "to": painting["id"], "kind": "walk"})
    for minor, x, y, metadata in ITEMS:
        api("POST", "/v1/beacons", {"uuid": BEACON_UUID, "major": 2, "minor": minor, "floorID": floor["id"], "x": x, "y": y,
                                    "measuredPower": -59, "metadata": metadata})
    return floor, cafe, upper, gallery


def sign_in(page):
    page.driver.get(BASE + "/admin/")
    page.wait("the sign-in form", lambda: page.by_id("token").is_displayed())
    page.by_id("token").send_keys(token())
    page.by_id("sign-in").click()
    page.wait("the signed-in page", lambda: "Signed in" in page.text("status"))


def run(page):
    driver = page.driver
    print("==> visitor page: setup through the API, locating on")
    floor, cafe, upper, gallery = setup()
    api("PATCH", "/v1/scanners/default/switch", {"scanning": True, "mode": "locate", "storeData": False, "locationID": None, "roomID": None, "stopAfter": None})

    print("==> the admin page makes a visitor link")
    sign_in(page)
    page.wait("the dashboard's counts", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#dashboard-counts li")) == 4)
    page.by_id("visitor-link-make").click()
    page.wait("the visitor link", lambda: "/visit/#token=" in (page.by_id("visitor-link").get_attribute("value") or ""))
    link = page.by_id("visitor-link").get_attribute("value")
    visitor_token = link.split("#token=", 1)[1]
    page.shot("visit-link-made", show="visitor-link")
    issued = [t for t in api("GET", "/v1/tokens") if t["name"] == "visitor"]
    if not issued or issued[-1]["role"] != "visitor":
        raise Failure(f"the visitor link's token is not a visitor token named visitor: {issued}")

    page.collect_logs()
    page.api_requests = []  # from here on, the visitor page's requests only
    print("==> without the link the page says what it needs")
    driver.switch_to.new_window("tab")
    driver.get(BASE + "/visit/")
    page.wait("the no-link notice", lambda: page.by_id("no-link-view").is_displayed())

    print("==> the visitor opens the link (French, following scanner default)")
    driver.get(link.replace("/visit/#", "/visit/?lang=fr&scanner=default#"))
    page.wait("the visitor page", lambda: page.by_id("visit-view").is_displayed() and Select(page.by_id("floor-select")).options)
    if "token" in driver.current_url:
        raise Failure(f"the token stays in the address bar: {driver.current_url}")
    if page.js("return localStorage.length") != 0:
        raise Failure("the visitor page wrote to localStorage")
    where = page.by_id("where-text")
    page.wait("where am I", lambda: int(where.get_attribute("data-count") or 0) >= 1
              and page.js("return document.getElementById('position-dot') !== null"), timeout=90)
    print(f"    {where.text}")
    items = {b["id"]: b for b in api("GET", "/v1/beacons")["items"] if b["major"] == 2}
    seen = set()

    def nearest_moves():
        # One read of the box, which the page redraws at every position.
        item_id, text, box, marked = page.js("""
            const box = document.getElementById('nearest-item');
            const content = document.getElementById('nearest-content');
            const id = box.dataset.itemId || '';
            const marked = id !== '' && document.querySelector(`#item-dot-${id}.nearest`) !== null;
            return [id, content ? content.textContent : '', box.textContent, marked];
            """)
        if item_id:
            beacon = items.get(int(item_id))
            if beacon is None or text != beacon["metadata"]["content.fr"]:
                raise Failure(f"nearest item {item_id} shows {text!r}, not its French content")
            if beacon["metadata"]["name.fr"] not in box:
                raise Failure(f"nearest item {item_id} not named in French: {box!r}")
            if marked:  # the map is redrawn after the box, once a new floor's plan has loaded
                seen.add(item_id)
        return len(seen) == 2

    page.wait("the nearest item to change as the scanner walks", nearest_moves, timeout=120)
    print(f"    nearest items seen: {sorted(seen)}")
    page.shot("visit-nearest-item", show="nearest-item")

    print("==> search a room without its accent, and go there")
    page.by_id("search-input").send_keys("cafe")
    page.by_id("search-go").click()
    button = f"#search-results button[data-room-id='{cafe['id']}']"
    page.wait("the café in the results", lambda: driver.find_elements(By.CSS_SELECTOR, button))
    if len(driver.find_elements(By.CSS_SELECTOR, "#search-results button")) != 1:
        raise Failure(f"searching 'cafe' found more than the café: {page.text('search-results')!r}")
    driver.find_element(By.CSS_SELECTOR, button).click()
    summary = page.by_id("route-summary")
    page.wait("the route", lambda: summary.get_attribute("data-room-id") == str(cafe["id"]))
    steps = [(li.get_attribute("data-kind"), li.text) for li in driver.find_elements(By.CSS_SELECTOR, "#route-steps li")]
    print(f"    {summary.text} " + " / ".join(text for _, text in steps))
    if len(steps) < 2 or steps[-1] != ("arrive", f"Arrive at {DESTINATION}") or not any(kind == "walk" and " m" in text for kind, text in steps):
        raise Failure(f"route steps {steps}")
    if not page.js("return document.querySelector('#plan .route') !== null && document.getElementById('destination-dot') !== null"):
        raise Failure("the route is not drawn on the plan")
    page.shot("visit-route", show="route-steps")

    print("==> a room one floor up: the steps climb, and its floor shows the rest of the route")
    search = page.by_id("search-input")
    search.clear()
    search.send_keys("galerie")
    page.by_id("search-go").click()
    button = f"#search-results button[data-room-id='{gallery['id']}']"
    page.wait("the gallery in the results", lambda: driver.find_elements(By.CSS_SELECTOR, button))
    driver.find_element(By.CSS_SELECTOR, button).click()
    page.wait("the route upstairs", lambda: summary.get_attribute("data-room-id") == str(gallery["id"]))
    steps = [(li.get_attribute("data-kind"), li.text) for li in driver.find_elements(By.CSS_SELECTOR, "#route-steps li")]
    print("    " + " / ".join(text for _, text in steps))
    if steps[-1] != ("arrive", f"Arrive at {UPSTAIRS}") or not any(kind == "stairs" and "up one floor" in text for kind, text in steps):
        raise Failure(f"route steps upstairs {steps}")
    Select(page.by_id("floor-select")).select_by_value(str(upper["id"]))
    page.wait("the destination on the upper floor's plan", lambda: page.js(
        "return document.getElementById('destination-dot') !== null && document.querySelectorAll('#plan .route').length === 1"))
    page.shot("visit-route-upstairs", show="route-steps")
    page.collect_logs()
    visitor_requests = [(m, u, a) for m, u, a in page.api_requests if "/v1/" in u]
    page.api_requests = []
    api("PATCH", "/v1/scanners/default/switch", {"scanning": False})

    print("==> the dashboard matches GET /v1/dashboard")
    driver.close()
    driver.switch_to.window(driver.window_handles[0])
    before = api("GET", "/v1/dashboard")
    page.by_id("dashboard-refresh").click()
    page.wait("the refreshed dashboard", lambda: (page.by_id("dashboard").get_attribute("data-loaded") or "") >= before["time"])
    after = api("GET", "/v1/dashboard")
    driver.find_element(By.CSS_SELECTOR, "#dashboard-details summary").click()

    def shown(key):
        return driver.find_element(By.CSS_SELECTOR, f"#dashboard-counts li[data-count='{key}'] strong").text

    positions = int(shown("positions-today"))
    if not before["counts"]["positionsToday"] <= positions <= after["counts"]["positionsToday"] or positions == 0:
        raise Failure(f"positions today shown {positions}, API {before['counts']['positionsToday']}..{after['counts']['positionsToday']}")
    if shown("locations-surveyed") != f"{after['counts']['locationsSurveyed']} of {after['counts']['locations']}":
        raise Failure(f"locations surveyed shown {shown('locations-surveyed')!r}, API {after['counts']}")
    if not driver.find_elements(By.CSS_SELECTOR, "#dashboard-recent li[data-kind='switch']"):
        raise Failure("recent activity lists no switch change")
    for table, key in (("dwell-rooms", "rooms"), ("dwell-items", "items")):
        rows = {int(r.get_attribute("data-id")) for r in driver.find_elements(By.CSS_SELECTOR, f"#{table} tr")}
        low = {p["id"] for p in before["dwell"][key]}
        high = {p["id"] for p in after["dwell"][key]}
        if not low <= rows <= high:
            raise Failure(f"{table} shows {sorted(rows)}, API {sorted(low)}..{sorted(high)}")
        print(f"    {key} with visits: {sorted(rows)}")
    page.shot("dashboard", show="dashboard")
    return visitor_token, visitor_requests


def main():
    page = AdminPage()
    outcome = {}

    def steps():
        outcome["token"], outcome["requests"] = run(page)

    failed = run_with_screenshot(page, steps, name="visit-FAILED")
    if close_and_judge(page, failed):
        return 1
    wrong = [(m, u) for m, u, a in outcome["requests"] if a != "Bearer " + outcome["token"]]
    print(f"    {len(outcome['requests'])} API requests by the visitor page, {len(wrong)} without the visitor token")
    if wrong or not outcome["requests"]:
        print("FAIL: every API request of the visitor page must carry the visitor link's token")
        return 1
    print(f"PASS: visitor page and dashboard; {page.shot_number} screenshots")
    return 0


if __name__ == "__main__":
    sys.exit(main())
