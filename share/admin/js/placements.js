// Scanners on the plan (a panel, panel.js): place a scanner where the admin taps ("places the
// chosen scanner"), move it by dragging its square, set its height, see its estimated receive
// offset and override it, unplace it. PUT/GET/DELETE /v1/scanners/{id}/placement, GET /v1/placements.

import { confirmAction } from './dialogs.js';
import { el, fillSelect, option } from './dom.js';
import { offsetText, scannerLabel } from './format.js';
import { Panel } from './panel.js';

/** The antenna's height switchd assumes when none is given (NewScannerPlacement). */
const DEFAULT_HEIGHT = 1.2;

export class PlacementPanel extends Panel {
  constructor() {
    super();
    this.scanners = [];
    this.placements = new Map();
  }

  wire() {
    this.on('placement-scanner', 'change', () => this.showChosen(true));
    this.onSubmit('placement-form', () => this.saveForm());
    this.on('placement-remove', 'click', () => this.unplace());
  }

  clear() {
    this.scanners = [];
    this.placements = new Map();
  }

  async refresh() {
    const { api, $ } = this.context;
    const [scanners, placements] = await Promise.all([api.all('/v1/scanners'), api.get('/v1/placements')]);
    this.scanners = scanners;
    this.placements = new Map(placements.map((placement) => [placement.scannerID, placement]));
    const before = $('placement-scanner').value;
    fillSelect($('placement-scanner'), scanners.map((scanner) => option(scanner.id, this.placements.has(scanner.id) ? `${scannerLabel(scanner)} — placed` : scannerLabel(scanner))));
    this.showChosen($('placement-scanner').value !== before);
  }

  /** This floor's fixed scanners, for the plan. */
  onPlan(floor) {
    return floor ? [...this.placements.values()].filter((placement) => placement.floorID === floor.id) : [];
  }

  chosenID() {
    return this.context.$('placement-scanner').value;
  }

  /** Chooses the scanner (a tap on its square) and shows its placement. */
  choose(scannerID) {
    this.context.$('placement-scanner').value = scannerID;
    this.showChosen(true);
    this.context.say(`Scanner ${scannerID} chosen: drag its square to move it, or change its height and offset under Scanners.`);
  }

  /** The chosen scanner's placement in words; `fill`: its values into the form too. */
  showChosen(fill) {
    const { $ } = this.context;
    const id = this.chosenID();
    const placement = this.placements.get(id);
    const info = $('placement-info');
    info.dataset.scannerId = id || '';
    info.dataset.placed = String(Boolean(placement));
    $('placement-remove').disabled = !placement;
    $('placement-save').disabled = !id;
    if (!id) {
      info.textContent = 'No scanners yet: add a Pi first.';
      return;
    }
    if (!placement) {
      info.textContent = `${id} is not placed: choose "places the chosen scanner" and tap the plan where it stands.`;
    } else {
      const floor = this.context.plan.floors().find((f) => f.id === placement.floorID);
      const where = `${id} stands on ${floor ? floor.name : `floor ${placement.floorID}`} at (${placement.x.toFixed(2)} m, ${placement.y.toFixed(2)} m), ${placement.height.toFixed(2)} m high.`;
      info.replaceChildren(where, el('br'), offsetText(placement));
    }
    if (!fill) return;
    $('placement-x').value = placement ? String(placement.x) : '';
    $('placement-y').value = placement ? String(placement.y) : '';
    $('placement-height').value = String(placement ? placement.height : DEFAULT_HEIGHT);
    $('placement-offset').value = placement?.receiveOffsetOverride !== undefined ? String(placement.receiveOffsetOverride) : '';
  }

  /** The body of a PUT: the form's height and override, the placement's exponent kept. */
  body(floorID, x, y) {
    const { $ } = this.context;
    const existing = this.placements.get(this.chosenID());
    const body = { floorID, x, y };
    const height = $('placement-height').value.trim();
    if (height !== '') body.height = Number(height);
    const offset = $('placement-offset').value.trim();
    if (offset !== '') body.receiveOffsetOverride = Number(offset);
    if (existing) body.pathLossExponent = existing.pathLossExponent;
    return body;
  }

  async put(scannerID, body, verb) {
    const placement = await this.context.api.request('PUT', `/v1/scanners/${encodeURIComponent(scannerID)}/placement`, { json: body });
    this.placements.set(scannerID, placement);
    await this.refresh();
    await this.context.plan.reload();
    this.context.say(`Scanner ${scannerID} ${verb} at (${placement.x.toFixed(2)} m, ${placement.y.toFixed(2)} m). ${offsetText(placement)}`);
  }

  /** A tap with "places the chosen scanner": the chosen scanner stands there. */
  async placeAt(metres) {
    const id = this.chosenID();
    const floor = this.context.plan.floor();
    if (!id) throw new Error('Choose the scanner to place under Scanners first.');
    await this.put(id, this.body(floor.id, metres.x, metres.y), 'placed');
  }

  /** A scanner's square dropped at `metres`: everything else of its placement stays. */
  async move(scannerID, metres) {
    const existing = this.placements.get(scannerID);
    if (!existing) return;
    const body = { floorID: existing.floorID, x: metres.x, y: metres.y, height: existing.height, pathLossExponent: existing.pathLossExponent };
    if (existing.receiveOffsetOverride !== undefined) body.receiveOffsetOverride = existing.receiveOffsetOverride;
    this.context.$('placement-scanner').value = scannerID;
    await this.put(scannerID, body, 'moved');
    this.showChosen(true);
  }

  async saveForm() {
    const { $ } = this.context;
    const id = this.chosenID();
    const existing = this.placements.get(id);
    const floorID = existing ? existing.floorID : this.context.plan.floor()?.id;
    if (!id || floorID === undefined) throw new Error('Choose a scanner and a floor first.');
    const x = $('placement-x').value.trim();
    const y = $('placement-y').value.trim();
    if (x === '' || y === '') throw new Error('Give x and y in metres, or tap the plan with "places the chosen scanner".');
    await this.put(id, this.body(floorID, Number(x), Number(y)), 'saved');
    this.showChosen(true);
  }

  async unplace() {
    const id = this.chosenID();
    if (!await confirmAction(`Unplace scanner "${id}"? It roams again; its sightings stay.`)) return;
    await this.context.api.delete(`/v1/scanners/${encodeURIComponent(id)}/placement`);
    await this.refresh();
    this.showChosen(true);
    await this.context.plan.reload();
    this.context.say(`Scanner ${id} unplaced.`);
  }
}
