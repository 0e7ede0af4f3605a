// The scanners card: every registered scanner with a Delete button (DELETE /v1/scanners/{id},
// asked first), and on a fixed scanner whose watched list is too long for its switch answer, how
// many beacons that list leaves out (`watchedLeftOut`, docs/tags.md "Watched list"); each one's
// health, online (green) or offline (red) with its last report and version, and a warning when the
// scanners run different versions (docs/fleet-health.md); each one's settings from switchd and
// what it applied, editable, and the fleet's defaults (docs/scanner-settings.md).

import { confirmAction } from './dialogs.js';
import { settingsForm, settingsLine } from './scanner-settings.js';

export class ScannersPanel {
  /**
   * @param {import('./api.js').Api} api
   * @param {(id: string) => HTMLElement} $ the page's element lookup
   * @param {(text: string, isError?: boolean) => void} say the page's status line
   * @param {(action: Function) => Function} guard shows an action's failure on the status line
   * @param {() => Promise<void>} changed reloads what a deleted scanner took with it (the plan's fixed scanners)
   */
  constructor(api, $, say, guard, changed) {
    Object.assign(this, { api, $, say, guard, changed });
    this.scanners = [];
    this.leftOut = new Map();
    this.fleet = { settings: {}, settingsRevision: 0 };
  }

  /** Reads every scanner, the fixed ones, and what each fixed scanner's watched list leaves out; returns the scanners. */
  async load() {
    const [scanners, placements, fleet] = await Promise.all([
      this.api.all('/v1/scanners'), this.api.get('/v1/placements'), this.api.get('/v1/scanners/*'),
    ]);
    this.fleet = fleet;
    const counts = await Promise.all(placements.map((placement) => this.watchedLeftOut(placement.scannerID)));
    this.scanners = scanners;
    this.leftOut = new Map(placements.map((placement, index) => [placement.scannerID, counts[index]]));
    this.render();
    return scanners;
  }

  /** How many identities the scanner's switch answer leaves out of its watched list (0: all fit). */
  async watchedLeftOut(scannerID) {
    // `watched` asks for the list as the scanner gets it; an empty digest is "holding none yet".
    const answer = await this.api.get(`/v1/scanners/${encodeURIComponent(scannerID)}/switch?watched=`);
    return answer.watchedLeftOut || 0;
  }

  render() {
    const list = this.$('scanner-list');
    list.replaceChildren(...this.scanners.map((scanner) => {
      const item = document.createElement('li');
      item.dataset.scannerId = scanner.id;
      const name = document.createElement('span');
      name.className = 'name';
      const fixed = this.leftOut.has(scanner.id) ? ' (fixed)' : '';
      name.textContent = `${scanner.name === scanner.id ? scanner.id : `${scanner.name} (${scanner.id})`}${fixed}`;
      item.append(name, health(scanner));
      const settings = Object.assign(document.createElement('span'), { className: 'settings', textContent: settingsLine(scanner) });
      if (Object.keys(scanner.unappliedSettings || {}).length > 0) settings.classList.add('unapplied');
      item.append(settings, this.settingsEditor(`Settings of ${scanner.id}…`, `settings-${scanner.id}`, scanner.settings,
        (changed) => this.saveSettings(scanner.id, changed)));
      const leftOut = this.leftOut.get(scanner.id) || 0;
      if (leftOut > 0) {
        const warning = document.createElement('span');
        warning.className = 'left-out';
        warning.textContent = `${leftOut} beacons left out of the watched list`;
        warning.title = 'Its switch answer has no room for them: the farthest beacons, then the newest tags, are not listened for.';
        item.append(warning);
      }
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'danger';
      remove.textContent = 'Delete…';
      remove.addEventListener('click', this.guard(() => this.remove(scanner)));
      item.append(remove);
      return item;
    }));
    if (this.scanners.length === 0) list.replaceChildren(Object.assign(document.createElement('li'), { textContent: 'No scanners yet.' }));
    const fleet = document.createElement('li');
    fleet.className = 'fleet-settings';
    fleet.append(this.settingsEditor(`Fleet defaults (revision ${this.fleet.settingsRevision})…`, 'settings-fleet', this.fleet.settings,
      (changed) => this.saveSettings('*', changed)));
    list.prepend(fleet);
    if (this.scanners.some((scanner) => scanner.versionMismatch)) {
      const versions = [...new Set(this.scanners.map((scanner) => scanner.version).filter(Boolean))].sort().join(', ');
      list.prepend(Object.assign(document.createElement('li'), {
        className: 'version-mismatch', textContent: `Scanners run different versions (${versions}): upgrade them all.`,
      }));
    }
  }

  /**
   * Makes a one-time enrolment code for `scannerID` (POST /v1/enrolments, registering the scanner
   * when new) and shows the command to run on the Pi: `scannerd enrol` with this page's origin, the
   * code and, over HTTPS, switchd's public-key pin (docs/raspberry-pi.md).
   */
  async enrol(scannerID) {
    const made = await this.api.request('POST', '/v1/enrolments', { json: { scannerID } });
    const minutes = Math.round((Date.parse(made.expires) - Date.now()) / 60000);
    const trust = made.pin ? ` --pin '${made.pin}'` : '';
    this.$('enrol-command').textContent = `sudo scannerd enrol ${window.location.origin} ${made.code}${trust}`;
    this.$('enrol-command').dataset.code = made.code;
    this.$('enrol-minutes').textContent = String(Math.max(minutes, 1));
    this.$('enrol-result').hidden = false;
    this.say(`Enrolment code for "${made.scannerID}" made${made.scannerRegistered ? '; the scanner is registered' : ''}.`);
    await this.changed();
  }

  /** A closed `<details>` holding the settings form. */
  settingsEditor(title, idPrefix, settings, save) {
    const details = document.createElement('details');
    details.append(Object.assign(document.createElement('summary'), { textContent: title }),
      settingsForm(idPrefix, settings, this.guard(save)));
    return details;
  }

  /** PATCHes a scanner's own settings (`*`: the fleet's) whole; switchd refuses a bad one naming it. */
  async saveSettings(scannerID, settings) {
    await this.api.request('PATCH', `/v1/scanners/${encodeURIComponent(scannerID)}`, { json: { settings } });
    this.say(scannerID === '*' ? 'Fleet settings saved.' : `Settings of "${scannerID}" saved; the scanner applies them at its next poll.`);
    await this.load();
  }

  /** Deletes the scanner once the admin confirms; its readings stay (docs/openapi.yaml). */
  async remove(scanner) {
    const question = `Delete scanner "${scanner.id}"? Its switch, placement, positions and tokens go; the readings it took stay.`;
    if (!await confirmAction(question)) return;
    await this.api.delete(`/v1/scanners/${encodeURIComponent(scanner.id)}`);
    this.say(`Scanner "${scanner.id}" deleted.`);
    await this.changed();
  }
}

/** Online or offline with its colour, when switchd last heard from it, and its version. */
function health(scanner) {
  const span = document.createElement('span');
  span.className = `health ${scanner.online ? 'online' : 'offline'}`;
  const seen = scanner.lastSeen ? `last seen ${new Date(scanner.lastSeen).toLocaleString()}` : 'never reported';
  const version = scanner.version ? `, ${scanner.version}` : '';
  span.textContent = `${scanner.online ? 'online' : 'offline'} (${seen}${version})`;
  const down = (scanner.radios || []).filter((radio) => radio.state === 'down').map((radio) => radio.adapter);
  if (down.length > 0) span.textContent += `, radio down: ${down.join(', ')}`;
  return span;
}
