// The Locate card (a panel, panel.js): the scanner chosen under Survey switches to locate mode
// and its positions arrive live (the page's one stream, live.js) as a dot with its accuracy
// circle on the plan.

import { Panel } from './panel.js';

/** How long to wait for the stream to open before switching the scanner anyway. */
const OPEN_WAIT_MS = 5000;

export class LocatePanel extends Panel {
  /**
   * @param {import('./live.js').LiveFeed} live
   * @param {() => string} scannerID the scanner chosen under Survey
   * @param {() => Promise<void>} stopScanning turns that scanner's switch off
   */
  constructor(live, scannerID, stopScanning) {
    super();
    Object.assign(this, { live, scannerID, stopScanning });
    this.locating = null;
    this.position = null;
  }

  wire() {
    this.on('locate-start', 'click', () => this.start());
    this.on('locate-stop', 'click', () => this.stop());
  }

  clear() {
    this.locating?.controller.abort();
    this.locating = null;
    this.position = null;
  }

  /** The latest position when it is on `floor`, for the plan; else null. */
  onPlan(floor) {
    return this.position && floor && this.position.floor === floor.id ? this.position : null;
  }

  floorName(id) {
    const floor = this.context.plan.floors().find((f) => f.id === id);
    return floor ? floor.name : `floor ${id}`;
  }

  async start() {
    const { api, $, say, plan } = this.context;
    const scannerID = this.scannerID();
    if (!scannerID) throw new Error('Choose a scanner first (under Survey).');
    this.locating?.controller.abort();
    const l = { controller: new AbortController(), count: 0 };
    this.locating = l;
    const positions = this.live.follow({ feed: 'position', scannerID }, (event, p) => {
      l.count += 1;
      this.position = p;
      const floor = plan.floor();
      const where = floor && p.floor === floor.id ? '' : ` on ${this.floorName(p.floor)}`;
      const text = $('locate-text');
      text.textContent = `Position ${l.count}${where}: (${p.x.toFixed(1)} m, ${p.y.toFixed(1)} m) ± ${p.accuracyMetres.toFixed(1)} m by ${p.method}.`;
      text.dataset.count = String(l.count);
      text.dataset.x = String(p.x);
      text.dataset.y = String(p.y);
      plan.redraw();
    }, {
      signal: l.controller.signal,
      onState: (text) => { if (text !== 'live') $('locate-text').textContent = `Position feed ${text}.`; },
    });
    await Promise.race([positions.opened, new Promise((resolve) => { setTimeout(resolve, OPEN_WAIT_MS); })]);
    await api.patch(`/v1/scanners/${encodeURIComponent(scannerID)}/switch`, {
      scanning: true, mode: 'locate', storeData: false, locationID: null, roomID: null, stopAfter: null,
    });
    $('locate-text').textContent = `Locating scanner ${scannerID}: waiting for its first position…`;
    say(`Scanner ${scannerID} locates itself; its positions appear on the plan.`);
  }

  async stop() {
    this.locating?.controller.abort();
    this.locating = null;
    await this.stopScanning();
    this.context.$('locate-text').textContent = 'Not locating.';
    this.context.say('Locating stopped.');
  }
}
