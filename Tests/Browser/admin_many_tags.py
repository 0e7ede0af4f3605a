"""The admin page on a real site: many tags (FLOORSCAN_TAGS, 50 by default) tracked by fixed
scanners, all moving, in a real headless Chromium against the switchd that scripts/browser-test
started. The page must sign in, load the floor's plan, show every tag and follow every tag's
moves live, each within a bounded wait for the page's own state (no fixed sleeps). A page that
opens one live stream per tag fails here from the seventh tag on: a browser allows six HTTP/1.1
connections per origin and the streams never end, so every later request waits forever.

Prints how long each step took (FLOORSCAN_TAGS=8 and 50 are the measured cases). Exits non-zero
on the first failed step, after a screenshot of it.
"""

import datetime
import math
import os
import sys
import tempfile
import time
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from admin_survey import BASE, SHOTS, AdminPage, api, close_and_judge, plan_png, run_with_screenshot, token
from admin_tags import place_fixed_scanners

TAGS = int(os.environ.get("FLOORSCAN_TAGS", "50"))
SCANNERS = [("many-a", 0.0, 0.0), ("many-b", 12.0, 0.0), ("many-c", 6.0, 10.0)]
# Each wait of the page is bounded: a page that starves its own requests fails, not hangs.
STEP_TIMEOUT = 30


def iso(moment):
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def identity(index):
    return {"kind": "address", "address": f"02:00:00:01:{index // 256:02x}:{index % 256:02x}"}


def spot(index, shift):
    """Where tag `index` is: a grid inside the scanners' triangle, `shift` metres east."""
    return (2.0 + (index % 8) * 1.0 + shift, 1.0 + (index // 8) * 0.8)


def heard_at(shift, end):
    """Every fixed scanner reports every tag for the window ending at `end`, `shift` metres east
    of its start (−59 dBm at 1 m, exponent 2): one batch per scanner."""
    for scanner_id, x, y in SCANNERS:
        sightings = []
        for index in range(TAGS):
            tx, ty = spot(index, shift)
            rssi = -59 - 20 * math.log10(max(math.hypot(tx - x, ty - y), 0.5))
            sightings.append({
                "identity": identity(index), "windowStart": iso(end - datetime.timedelta(seconds=1)), "windowEnd": iso(end),
                "count": 3, "medianRSSI": round(rssi, 1), "maxRSSI": round(rssi) + 1,
            })
        api("POST", "/v1/sightings", {"scannerID": scanner_id, "sightings": sightings})


def upload_plan(floor_id, workdir):
    path = os.path.join(workdir, "plan.png")
    plan_png(path)
    with open(path, "rb") as handle:
        request = urllib.request.Request(BASE + f"/v1/floors/{floor_id}/plan", data=handle.read(), method="PUT")
    request.add_header("Authorization", "Bearer " + token())
    request.add_header("Content-Type", "image/png")
    with urllib.request.urlopen(request, timeout=60):
        pass


def run(page, workdir):
    driver = page.driver
    print(f"==> a site of {TAGS} tags and {len(SCANNERS)} fixed scanners, set up through the API")
    floor = api("POST", "/v1/floors", {"name": "Many tags floor", "building": "Warehouse"})
    upload_plan(floor["id"], workdir)
    place_fixed_scanners(floor["id"], SCANNERS)
    tags = [api("POST", "/v1/tags", {"name": f"Tag {index}", "identity": identity(index), "txPower": -59, "height": 1}) for index in range(TAGS)]
    start = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    # Windows 1 and 2 are located once window 3 is reported: every tag has a position.
    for second in range(0, 3):
        heard_at(0.0, start + datetime.timedelta(seconds=second))
    page.wait("every tag located", lambda: all(api("GET", f"/v1/tags/{tag['id']}/positions?limit=1")["items"] for tag in tags))

    print("==> the admin page signs in, loads the plan and shows every tag")
    driver.get(BASE + "/admin/")
    page.wait("the sign-in form", lambda: page.by_id("token").is_displayed())
    page.by_id("token").send_keys(token())
    began = time.monotonic()
    page.by_id("sign-in").click()
    page.wait("the signed-in page", lambda: "Signed in" in page.text("status"), timeout=STEP_TIMEOUT)
    signed_in = time.monotonic() - began
    Select(page.by_id("floor-select")).select_by_value(str(floor["id"]))
    page.wait("the plan image", lambda: page.js("return document.querySelector('#plan image') !== null"), timeout=STEP_TIMEOUT)
    dots = lambda: driver.find_elements(By.CSS_SELECTOR, "#plan [id^='tag-dot-']")  # noqa: E731
    page.wait(f"all {TAGS} tags on the plan", lambda: len(dots()) == TAGS, timeout=STEP_TIMEOUT)
    all_shown = time.monotonic() - began
    # One script reads every dot at once: the page redraws dots as positions arrive, so an element
    # found by one call can be replaced before the next call reads it (a stale element).
    dot_xs = lambda: page.js(  # noqa: E731
        "const xs = {}; for (const dot of document.querySelectorAll(\"#plan [id^='tag-dot-']\")) "
        "xs[dot.id.slice('tag-dot-'.length)] = parseFloat(dot.getAttribute('cx')); return xs;")
    shown = dot_xs()
    before = {tag["id"]: shown[str(tag["id"])] for tag in tags}
    page.shot("many-tags-placed", show="plan")

    print("==> every tag moves 4 m east; the page follows each live")
    moved_at = time.monotonic()
    for second in range(3, 7):
        heard_at(4.0, start + datetime.timedelta(seconds=second))

    def all_moved():
        now = dot_xs()
        return all(now.get(str(tag_id), -math.inf) > before[tag_id] + 10 for tag_id in before)

    page.wait(f"all {TAGS} tags' dots to move east live", all_moved, timeout=STEP_TIMEOUT)
    moved = time.monotonic() - moved_at
    page.shot("many-tags-moved", show="plan")

    page.collect_logs()
    streams = [url for method, url, _ in page.api_requests if "/stream" in url]
    per_tag = [url for url in streams if "/v1/tags/" in url]
    if per_tag:
        raise AssertionError(f"the page opened {len(per_tag)} per-tag streams, e.g. {per_tag[0]}")
    print(f"    {TAGS} tags: 'Signed in.' after {signed_in:.2f} s, all tags shown after {all_shown:.2f} s, "
          f"all moves shown {moved:.2f} s after the sightings began; {len(streams)} stream requests")


def main():
    os.makedirs(SHOTS, exist_ok=True)
    page = AdminPage()

    def steps():
        with tempfile.TemporaryDirectory(prefix="floorscan-browser-") as workdir:
            run(page, workdir)

    failed = run_with_screenshot(page, steps, name="many-tags-FAILED")
    if close_and_judge(page, failed):
        return 1
    print(f"PASS: {TAGS} tags: signed in, plan loaded, every tag shown and followed live")
    return 0


if __name__ == "__main__":
    sys.exit(main())
