// Geo-referencing a floor from the admin page: tap a spot of the plan whose latitude and
// longitude you know (a corner of the building on a map), type them, repeat at least three
// times, and save: switchd fits the plan to WGS 84 and answers each point's residual.

import { toPixels } from './plan.js';

const SVG = 'http://www.w3.org/2000/svg';

export class GeoReferencePanel {
  /**
   * @param {import('./api.js').Api} api
   * @param {(id: string) => HTMLElement} $ the page's element lookup
   * @param {(text: string, isError?: boolean) => void} say the page's status line
   */
  constructor(api, $, say) {
    this.api = api;
    this.$ = $;
    this.say = say;
    this.floorID = null;
    this.points = [];
    this.pending = null;
  }

  /** Shows the floor's stored control points (none when it is not geo-referenced). */
  async load(floor) {
    this.floorID = floor?.id ?? null;
    this.points = [];
    this.pending = null;
    this.$('geo-form').hidden = true;
    if (this.floorID !== null) {
      const stored = await this.api.request('GET', `/v1/floors/${this.floorID}/georeference`);
      this.points = stored?.controlPoints ?? [];
    }
    this.render();
  }

  /** A tap on the plan at `metres`: asks for that spot's latitude and longitude. */
  mark(metres) {
    this.pending = { x: metres.x, y: metres.y };
    this.$('geo-form').hidden = false;
    this.$('geo-latitude').focus();
    this.say(`Point at (${metres.x.toFixed(2)} m, ${metres.y.toFixed(2)} m): type its latitude and longitude.`);
  }

  /** The typed latitude and longitude join the pending point to the list. */
  addTyped(event) {
    event.preventDefault();
    if (!this.pending) return;
    const latitude = Number.parseFloat(this.$('geo-latitude').value);
    const longitude = Number.parseFloat(this.$('geo-longitude').value);
    this.points.push({ ...this.pending, latitude, longitude });
    this.pending = null;
    this.$('geo-form').hidden = true;
    this.$('geo-form').reset();
    this.render();
  }

  async save() {
    const points = this.points.map(({ x, y, latitude, longitude }) => ({ x, y, latitude, longitude }));
    const fitted = await this.api.request('PUT', `/v1/floors/${this.floorID}/georeference`, { json: { controlPoints: points } });
    this.points = fitted.controlPoints;
    this.render();
    this.say(`Geo-referenced: residuals up to ${fitted.maxResidualMetres.toFixed(2)} m (RMS ${fitted.rmsResidualMetres.toFixed(2)} m).`);
  }

  async forget() {
    await this.api.request('DELETE', `/v1/floors/${this.floorID}/georeference`);
    await this.load({ id: this.floorID });
    this.say('The floor is no longer geo-referenced.');
  }

  render() {
    const list = this.$('geo-list');
    list.replaceChildren(...this.points.map((point, index) => {
      const item = document.createElement('li');
      const residual = point.residualMetres === undefined ? '' : `, residual ${point.residualMetres.toFixed(2)} m`;
      item.textContent = `${index + 1}: (${point.x.toFixed(2)} m, ${point.y.toFixed(2)} m) → ${point.latitude}, ${point.longitude}${residual}`;
      return item;
    }));
    this.$('geo-save').disabled = this.floorID === null || this.points.length < 3;
    this.$('geo-forget').disabled = this.floorID === null;
  }

  /** Draws the control points on the plan, over what plan.js drew. */
  drawOn(svg, geometry) {
    for (const point of this.points) {
      const pixel = toPixels(geometry, point.x, point.y);
      const mark = document.createElementNS(SVG, 'circle');
      mark.setAttribute('class', 'geo-mark');
      mark.setAttribute('cx', pixel.x);
      mark.setAttribute('cy', pixel.y);
      mark.setAttribute('r', 6);
      svg.appendChild(mark);
    }
  }
}
