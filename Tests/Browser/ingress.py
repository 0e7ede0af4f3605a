"""The admin and visitor pages under a sub-path, as Home Assistant's ingress serves switchd: a
prefix-stripping reverse proxy (ingress_proxy.py) on 127.0.0.1 in front of the switchd that
scripts/browser-test started, and the page opened at /api/hassio_ingress/TESTTOKEN/admin (switchd
redirects to admin/, relative, so the browser stays under the prefix). Signs
in, lists the floors, loads a plan image, follows a tag's position live (the stream through the
proxy), makes a visitor link and opens it: the link and the visitor page's calls stay under the
prefix. Passes when every step does, the console has no error, every request the proxy got was
under the prefix, and every request the browser made went to it.

Exits non-zero on the first failed step, after a screenshot of it.
"""

import datetime
import os
import sys
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from admin_many_tags import upload_plan
from admin_survey import BASE, SHOTS, AdminPage, api, close_and_judge, run_with_screenshot, token
from admin_tags import heard_at, place_fixed_scanners
from ingress_proxy import IngressProxy

PREFIX = "/api/hassio_ingress/TESTTOKEN"
SCANNERS = [("ingress-a", 0.0, 0.0), ("ingress-b", 12.0, 0.0), ("ingress-c", 6.0, 10.0)]
IDENTITY = {"kind": "address", "address": "02:00:00:00:1a:05"}


def run(page, proxy, workdir):
    driver = page.driver
    ingress = proxy.url + PREFIX
    print(f"==> a floor with a plan, three fixed scanners and a tag (through the API); the page at {ingress}/admin/")
    floor = api("POST", "/v1/floors", {"name": "Ingress floor", "building": "Home"})
    upload_plan(floor["id"], workdir)
    place_fixed_scanners(floor["id"], SCANNERS)
    tag = api("POST", "/v1/tags", {"name": "Keys", "identity": IDENTITY, "txPower": -59, "height": 1})
    start = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    heard_at((3.0, 3.0), start, SCANNERS, IDENTITY)
    heard_at((3.0, 3.0), start + datetime.timedelta(seconds=1), SCANNERS, IDENTITY)  # closes the first window: a position

    # Opened without its slash: switchd's redirect to admin/ is relative, so it stays under the prefix.
    driver.get(ingress + "/admin")
    if driver.current_url != ingress + "/admin/":
        raise AssertionError(f"{ingress}/admin led to {driver.current_url}, not {ingress}/admin/")
    page.wait("the sign-in form", lambda: page.by_id("token").is_displayed())
    page.by_id("token").send_keys(token())
    page.by_id("sign-in").click()
    page.wait("the signed-in page", lambda: "Signed in" in page.text("status"))
    page.wait("the floor list", lambda: str(floor["id"]) in [o.get_attribute("value") for o in Select(page.by_id("floor-select")).options])
    Select(page.by_id("floor-select")).select_by_value(str(floor["id"]))
    page.wait("the plan image", lambda: page.js("return document.querySelector('#plan image')?.getAttribute('href')?.startsWith('blob:')"))
    page.wait("the tag on the plan", lambda: driver.find_elements(By.ID, f"tag-dot-{tag['id']}"))
    dot_x = lambda: page.js("return parseFloat(document.getElementById(arguments[0]).getAttribute('cx'))", f"tag-dot-{tag['id']}")  # noqa: E731
    before = dot_x()
    page.shot("ingress-admin")

    print("==> the tag moves: its positions arrive on the page's live stream through the proxy")
    for second in range(2, 5):
        heard_at((3.0 + 2 * second, 3.0), start + datetime.timedelta(seconds=second), SCANNERS, IDENTITY)
    page.wait("the tag's dot to move east live", lambda: dot_x() > before + 10)
    streams = [path for method, path in proxy.requests if "/v1/stream" in path]
    if not streams:
        raise AssertionError("the page's live stream did not go through the proxy")
    page.shot("ingress-tag-moved", show="plan")

    print("==> a visitor link made under the prefix, opened there")
    page.by_id("visitor-link-make").click()
    page.wait("the visitor link", lambda: "#token=" in (page.by_id("visitor-link").get_attribute("value") or ""))
    link = page.by_id("visitor-link").get_attribute("value")
    if not link.startswith(ingress + "/visit/#token="):
        raise AssertionError(f"the visitor link leaves the prefix: {link}")
    driver.switch_to.new_window("tab")
    driver.get(link)
    page.wait("the visitor page with its floors", lambda: page.by_id("visit-view").is_displayed() and Select(page.by_id("floor-select")).options)
    page.shot("ingress-visit")
    driver.close()
    driver.switch_to.window(driver.window_handles[0])


def main():
    os.makedirs(SHOTS, exist_ok=True)
    proxy = IngressProxy(BASE, PREFIX).start()
    page = AdminPage()

    def steps():
        with tempfile.TemporaryDirectory(prefix="floorscan-ingress-") as workdir:
            run(page, proxy, workdir)

    failed = run_with_screenshot(page, steps, name="INGRESS-FAILED")
    # The browser's own log of what it asked for, before the driver quits.
    try:
        page.collect_logs()
    except Exception:  # noqa: BLE001 - judged below through the proxy's log anyway
        pass
    status = close_and_judge(page, failed)
    proxy.stop()
    if status:
        return 1
    print(f"    {len(proxy.requests)} requests through the proxy, {len(page.api_requests)} API requests by the pages")
    escaped = proxy.escaped()
    for method, path in escaped[:10]:
        print(f"    outside the prefix: {method} {path}")
    elsewhere = [(method, url) for method, url, _ in page.api_requests if not url.startswith(proxy.url + PREFIX + "/")]
    for method, url in elsewhere[:10]:
        print(f"    not through the proxy: {method} {url}")
    if escaped or elsewhere or not page.api_requests:
        print("FAIL: every request of the pages must stay under the ingress prefix")
        return 1
    print("PASS: the admin and visitor pages under the ingress prefix; no console errors; no request left the prefix")
    return 0


if __name__ == "__main__":
    sys.exit(main())
