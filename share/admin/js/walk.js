// Walk survey from the admin page (docs/survey-quality.md, "Walk survey"): with a location chosen
// as the start, pick the end, press "Start walk", walk there at a steady pace while the scanner
// scans, press "Arrived". switchd places each scan cycle on the segment by its time; the points
// then show on the plan like any surveyed location, and so do the points of a cycle uploaded
// after the arrival, as switchd places it (the scanner's readings are followed until its next walk).

export class WalkPanel {
  /**
   * @param {import('./api.js').Api} api
   * @param {import('./live.js').LiveFeed} live the page's live feed
   * @param {(id: string) => HTMLElement} $ the page's element lookup
   * @param {(text: string, isError?: boolean) => void} say the page's status line
   * @param {() => Promise<void>} reload reloads the floor's locations and radio map
   */
  constructor(api, live, $, say, reload) {
    this.api = api;
    this.live = live;
    this.$ = $;
    this.say = say;
    this.reload = reload;
    this.walk = null;
    /** Ends following the last walk's scanner's readings. */
    this.following = null;
    /** How many points of the last walk the plan shows. */
    this.shownPoints = null;
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
    this.followLatePoints(this.walk);
  }

  /**
   * Follows the scanner's stored readings (the page's live feed) until its next walk starts.
   * A reading of this walk stored after the arrival was placed by switchd as more points: the walk
   * is read again and, when it has more points than shown, the floor reloaded. Readings arriving
   * meanwhile lead to one more look once that is done.
   */
  followLatePoints(walk) {
    this.following?.abort();
    const following = new AbortController();
    this.following = following;
    let running = false;
    let again = false;
    const look = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          // The list, not GET /v1/walks/{id}: a walk deleted meanwhile is no 404 in the console.
          const now = (await this.api.get('/v1/walks')).find((w) => w.id === walk.id);
          if (!now) {
            following.abort();
            return;
          }
          if (now.points === this.shownPoints) continue;
          this.shownPoints = now.points;
          await this.reload();
          this.say(`Walk ${now.id}: ${now.points} points placed, ${now.droppedCycles} scan cycles outside the walk left out.`);
        } while (again);
      } catch {
        // switchd is out of reach: the next reading looks again.
      } finally {
        running = false;
      }
    };
    this.live.follow({ feed: 'measurement', scannerID: walk.scannerID }, (event, stored) => {
      const arrived = this.walk?.id !== walk.id;
      if (arrived && stored.switchRevision === walk.switchRevision) look();
    }, { signal: following.signal });
  }

  /** Ends the walk under way now; its points appear once the map is reloaded. */
  async arrived() {
    if (!this.walk) return;
    const done = await this.api.post(`/v1/walks/${this.walk.id}/arrived`, {});
    this.walk = null;
    this.shownPoints = done.points;
    this.say(`Walk ${done.id} arrived: ${done.points} points placed, ${done.droppedCycles} scan cycles outside the walk left out.`);
    await this.reload();
  }
}
