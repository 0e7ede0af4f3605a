// The contract every panel of the admin page keeps, so main.js only wires them:
//
//   mount(context)  once, after sign-in: wire the panel's controls (context below);
//   refresh()       read what the panel shows from switchd again and draw it (a floor chosen,
//                   something changed); may be called any time after mount;
//   unmount()       on sign-out: drop listeners, timers and streams, empty what it shows.
//
// context: { api, $, say(text, isError), guard(action), plan } where plan is
//   { floor() (the chosen floor or null), floors(), roomName(id) (a room of the chosen floor, or
//     null), geometry() (geometry.js), redraw(), reload() (the floor's contents read again and
//     redrawn) }.
// A panel may also offer `drawOn(view)` to add what it shows to the plan's view (plan.js).

/** The page's panels, mounted, refreshed and unmounted together. */
export class Panels {
  constructor() {
    this.panels = [];
    this.context = null;
  }

  add(panel) {
    this.panels.push(panel);
    return panel;
  }

  mount(context) {
    if (this.context) return;
    this.context = context;
    for (const panel of this.panels) panel.mount(context);
  }

  /** Refreshes every panel; one panel's failure is shown, the others still refresh. */
  async refresh() {
    const results = await Promise.allSettled(this.panels.map((panel) => panel.refresh()));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed && this.context) this.context.say(`Not all panels could be read: ${failed.reason.message}`, true);
  }

  unmount() {
    for (const panel of this.panels) panel.unmount();
    this.context = null;
  }
}

/**
 * What a panel shares: mount keeps the context and calls `wire()`, whose listeners (added with
 * `on`) last until unmount, which drops them and calls `clear()`. A panel overrides wire, clear
 * and refresh.
 */
export class Panel {
  mount(context) {
    this.context = context;
    this.wiring = new AbortController();
    this.wire();
  }

  wire() {}

  async refresh() {}

  unmount() {
    this.wiring?.abort();
    this.wiring = null;
    this.clear();
  }

  clear() {}

  /** Runs `action` on `event` of the element `id` until unmount; its failure is shown (guard). */
  on(id, event, action) {
    this.context.$(id).addEventListener(event, this.context.guard(action), { signal: this.wiring.signal });
  }

  /** `on` for a form: its submit, not sent by the browser, runs `action`. */
  onSubmit(id, action) {
    this.on(id, 'submit', (event) => {
      event.preventDefault();
      return action();
    });
  }
}
