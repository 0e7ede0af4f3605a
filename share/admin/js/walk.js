// Walk survey from the admin page (docs/survey-quality.md, "Walk survey"): with a location chosen
// as the start, pick the end, press "Start walk", walk there at a steady pace while the scanner
// scans, press "Arrived". switchd places each scan cycle on the segment by its time; the points
// then show on the plan like any surveyed location.

export class WalkPanel {
  /**
   * @param {import('./api.js').Api} api
   * @param {(id: string) => HTMLElement} $ the page's element lookup
   * @param {(text: string, isError?: boolean) => void} say the page's status line
   * @param {() => Promise<void>} reload reloads the floor's locations and radio map
   */
  constructor(api, $, say, reload) {
    this.api = api;
    this.$ = $;
    this.say = say;
    this.reload = reload;
    this.walk = null;
  }

  /** Fills the end choices with the floor's marked locations other than `startID` (walk points left out). */
  render(locations, startID, surveying) {
    const select = this.$('walk-to');
    const current = select.value;
    const ends = locations.filter((location) => !location.walkID && location.id !== startID);
    select.replaceChildren(...ends.map((location) => {
      const option = document.createElement('option');
      option.value = String(location.id);
      option.textContent = location.name;
      return option;
    }));
    if (ends.some((location) => String(location.id) === current)) select.value = current;
    this.$('walk-start').disabled = this.walk !== null || surveying || startID === null || ends.length === 0;
    this.$('walk-arrived').disabled = this.walk === null;
    this.$('walk-text').textContent = this.walk
      ? `Walking from (${this.walk.startX}, ${this.walk.startY}) to (${this.walk.endX}, ${this.walk.endY}) m: press Arrived there.`
      : 'Not walking.';
  }

  /** Starts a walk of `scannerID` from `startID` to the chosen end. */
  async start(scannerID, startID) {
    const to = Number.parseInt(this.$('walk-to').value, 10);
    this.walk = await this.api.post('/v1/walks', { scannerID, fromLocationID: startID, toLocationID: to });
    this.say(`Walk ${this.walk.id} started: walk steadily to the end, then press Arrived.`);
  }

  /** Ends the walk under way now; its points appear once the map is reloaded. */
  async arrived() {
    if (!this.walk) return;
    const done = await this.api.post(`/v1/walks/${this.walk.id}/arrived`, {});
    this.walk = null;
    this.say(`Walk ${done.id} arrived: ${done.points} points placed, ${done.droppedCycles} scan cycles outside the walk left out.`);
    await this.reload();
  }
}
