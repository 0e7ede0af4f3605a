// "Scan here" under Survey (a panel, panel.js): the chosen scanner's switch goes to survey mode
// for the chosen location with "stop after N scans"; its readings and switch changes arrive on
// the page's one stream (live.js) and show as progress (survey-state.js) until the switch turns
// itself off; then the coverage is read again.

import { Panel } from './panel.js';
import { applySwitch, countReading, newSurvey, progress } from './survey-state.js';

/** After the switch turns itself off, the last batch may still be on its way. */
const SETTLE_MS = 2000;
/** How long to wait for the streams to open before switching the scanner anyway. */
const OPEN_WAIT_MS = 5000;

export class SurveyPanel extends Panel {
  /**
   * @param {import('./live.js').LiveFeed} live
   * @param {{ chosen: () => object|undefined, changed: () => void, reloadCoverage: () => Promise<void> }} page
   *        the chosen location; what to redraw when a survey starts or ends; the coverage read again
   */
  constructor(live, page) {
    super();
    Object.assign(this, { live, page });
    this.survey = null;
    this.controller = null;
  }

  wire() {
    this.on('scan-here', 'click', () => this.scanHere());
    this.on('scan-stop', 'click', () => this.stopScanning());
  }

  clear() {
    this.controller?.abort();
    this.controller = null;
    this.survey = null;
  }

  scannerID() {
    return this.context.$('scanner-select').value;
  }

  /** Whether a survey is on (started and not settled yet). */
  busy() {
    return this.survey !== null;
  }

  /** The location being surveyed now, or null. */
  surveyingLocation() {
    return this.survey && !this.survey.done ? this.survey.location.id : null;
  }

  show() {
    const s = this.survey;
    if (!s) return;
    const { $ } = this.context;
    const { scans, text } = progress(s);
    $('survey-bar').max = s.target;
    $('survey-bar').value = scans;
    $('survey-text').textContent = text;
    const element = $('survey-progress');
    element.dataset.state = s.done ? 'done' : 'surveying';
    element.dataset.samples = String(s.samples);
    element.dataset.locationId = String(s.location.id);
  }

  /** The switch changed: the survey's progress, or its end (coverage read again after a pause). */
  switchChanged(s, controller) {
    if (!applySwitch(s)) {
      this.show();
      return;
    }
    this.show();
    this.page.changed();
    this.context.say(`Survey of ${s.location.name} finished.`);
    setTimeout(this.context.guard(async () => {
      if (this.survey === s) {
        controller.abort();
        this.survey = null;
      }
      await this.page.reloadCoverage();
      this.show();
    }), SETTLE_MS);
  }

  async scanHere() {
    const { api, say } = this.context;
    const location = this.page.chosen();
    const scannerID = this.scannerID();
    if (!location || !scannerID) throw new Error('Choose a scanner and a location first.');
    const target = Math.max(1, Number.parseInt(this.context.$('stop-scans').value, 10) || 4);
    this.controller?.abort();
    const controller = new AbortController();
    const s = newSurvey(location, target);
    this.controller = controller;
    this.survey = s;
    this.page.changed();
    const { signal } = controller;
    const measurements = this.live.follow({ feed: 'measurement', scannerID }, (event, m) => {
      if (countReading(s, m)) this.show();
    }, { signal });
    const switches = this.live.follow({ feed: 'switch', scannerID }, (event, sw) => {
      s.latestSwitch = sw;
      this.switchChanged(s, controller);
    }, { signal });
    await Promise.race([
      Promise.all([measurements.opened, switches.opened]),
      new Promise((resolve) => { setTimeout(resolve, OPEN_WAIT_MS); }),
    ]);
    const sw = await api.patch(`/v1/scanners/${encodeURIComponent(scannerID)}/switch`, {
      scanning: true, mode: 'survey', locationID: location.id, storeData: true, stopAfter: { scans: target },
    });
    s.revision = sw.revision;
    this.show();
    this.switchChanged(s, controller);
    say(`Scanner ${scannerID} surveys ${location.name} for ${target} scans.`);
  }

  async stopScanning() {
    const scannerID = this.scannerID();
    if (!scannerID) return;
    await this.context.api.patch(`/v1/scanners/${encodeURIComponent(scannerID)}/switch`, { scanning: false });
    this.context.say(`Scanner ${scannerID} turned off.`);
  }
}
