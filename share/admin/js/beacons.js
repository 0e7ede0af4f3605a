// Beacons on the plan (a panel, panel.js): the chosen floor's registered beacons, added where the
// admin taps ("adds a beacon"), moved by dragging their diamond, edited (identity, measured
// power, height, content in languages as `content.fr = …` lines) and deleted; each shows its
// battery (Eddystone-TLM) and whether switchd found it silent or faded, marked when it needs a look.
// POST/GET /v1/beacons, PUT/DELETE /v1/beacons/{id}.

import { confirmAction } from './dialogs.js';
import { button, listItem } from './dom.js';
import { Panel } from './panel.js';
import {
  BEACON_HEALTH_KINDS, beaconEventText, beaconLabel, contentLanguages, healthText, metadataFromText, metadataToText, needsAttention, nextFreeMinor,
} from './format.js';

export class BeaconsPanel extends Panel {
  constructor() {
    super();
    this.beacons = [];
    this.events = [];
    this.editing = null;
  }

  wire() {
    this.onSubmit('beacon-form', () => this.saveForm());
    this.on('beacon-new', 'click', () => this.edit(null));
  }

  clear() {
    this.beacons = [];
    this.events = [];
    this.editing = null;
  }

  async refresh() {
    const floor = this.context.plan.floor();
    const all = floor ? await this.context.api.all('/v1/beacons') : [];
    this.beacons = all.filter((beacon) => beacon.floorID === floor?.id);
    // The beacons are shown even when their events cannot be read (said in the status line).
    this.events = floor ? await this.healthEvents().catch((error) => {
      this.context.say(`Beacon health events could not be read: ${error.message}`, true);
      return [];
    }) : [];
    if (this.editing && !this.beacons.some((b) => b.id === this.editing.id)) this.edit(null);
    this.render();
  }

  /** The floor's beacons' health events of the last 7 days, newest first, at most 20 (GET /v1/events). */
  async healthEvents() {
    const since = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const pages = await Promise.all(BEACON_HEALTH_KINDS.map((kind) =>
      this.context.api.all(`/v1/events?kind=${kind}&since=${encodeURIComponent(since)}`)));
    const ids = new Set(this.beacons.map((beacon) => beacon.id));
    return pages.flat().filter((event) => ids.has(event.beaconID)).sort((a, b) => b.id - a.id).slice(0, 20);
  }

  /** What the plan draws of the floor's beacons (plan.js `beacons`). */
  onPlan() {
    return this.beacons.map((beacon) => ({ id: beacon.id, x: beacon.x, y: beacon.y, label: beacon.metadata?.name || `${beacon.major}/${beacon.minor}`, chosen: beacon.id === this.editing?.id }));
  }

  render() {
    const { $, guard } = this.context;
    const list = $('beacon-list');
    list.replaceChildren(...this.beacons.map((beacon) => {
      const languages = contentLanguages(beacon.metadata);
      const content = languages.length ? `, content in ${languages.join(', ')}` : '';
      const health = healthText(beacon);
      const text = `${beaconLabel(beacon)}: (${beacon.x.toFixed(2)}, ${beacon.y.toFixed(2)}) m, ${beacon.z} m high, ${beacon.measuredPower} dBm at 1 m${content}${health ? `; ${health}` : ''}`;
      const item = listItem(text, { beaconId: beacon.id },
        button('Edit', () => this.edit(beacon), guard),
        button('Delete…', () => this.remove(beacon), guard, 'danger'));
      if (needsAttention(beacon)) item.classList.add('warning');
      return item;
    }));
    if (this.beacons.length === 0) list.replaceChildren(listItem('No beacons on this floor: choose "adds a beacon" and tap the plan.'));
    const events = $('beacon-events');
    events.replaceChildren(...this.events.map((event) => listItem(beaconEventText(event, this.beacons), { eventKind: event.kind, beaconId: event.beaconID })));
    if (this.events.length === 0) events.replaceChildren(listItem('None: no beacon of this floor went silent, faded, ran low or was heard by a new scanner.'));
  }

  /** Fills the form with `beacon` to edit it, or empties it for a new one (null). */
  edit(beacon) {
    const { $ } = this.context;
    this.editing = beacon;
    $('beacon-form-h').textContent = beacon ? `Edit beacon ${beaconLabel(beacon)}` : 'New beacon (then tap the plan with "adds a beacon")';
    $('beacon-form').dataset.beaconId = beacon ? String(beacon.id) : '';
    $('beacon-uuid').value = beacon ? beacon.uuid : $('beacon-uuid').value;
    $('beacon-major').value = beacon ? String(beacon.major) : $('beacon-major').value;
    // A new beacon after another: the same UUID and major, the next free minor.
    const next = beacon ? null : nextFreeMinor(this.beacons, $('beacon-uuid').value, Number($('beacon-major').value));
    $('beacon-minor').value = beacon ? String(beacon.minor) : String(next ?? $('beacon-minor').value);
    $('beacon-power').value = String(beacon ? beacon.measuredPower : -59);
    $('beacon-z').value = String(beacon ? beacon.z : 0);
    $('beacon-x').value = beacon ? String(beacon.x) : '';
    $('beacon-y').value = beacon ? String(beacon.y) : '';
    $('beacon-content').value = beacon ? metadataToText(beacon.metadata) : '';
    this.context.plan.redraw();
  }

  /** The beacon the form describes (NewBeacon), at `x`, `y`. */
  body(x, y) {
    const { $ } = this.context;
    const integer = (id) => ($(id).value.trim() === '' ? null : Number($(id).value));
    return {
      uuid: $('beacon-uuid').value.trim(),
      major: integer('beacon-major'),
      minor: integer('beacon-minor'),
      floorID: this.editing ? this.editing.floorID : this.context.plan.floor()?.id,
      x,
      y,
      z: Number($('beacon-z').value || 0),
      measuredPower: integer('beacon-power'),
      metadata: metadataFromText($('beacon-content').value),
    };
  }

  /** A tap with "adds a beacon": a new beacon of the form's identity there; the next minor is offered. */
  async addAt(metres) {
    const { $ } = this.context;
    if (this.editing) this.edit(null);
    if ($('beacon-uuid').value.trim() === '') throw new Error('Type the new beacon\'s UUID, major and minor under Beacons first, then tap the plan.');
    const beacon = await this.context.api.post('/v1/beacons', this.body(metres.x, metres.y));
    $('beacon-minor').value = String(beacon.minor + 1);
    await this.changed(`Beacon ${beaconLabel(beacon)} added at (${beacon.x.toFixed(2)} m, ${beacon.y.toFixed(2)} m).`);
  }

  /** A beacon's diamond dropped at `metres`. */
  async move(beaconID, metres) {
    const beacon = this.beacons.find((b) => b.id === beaconID);
    if (!beacon) return;
    const { uuid, major, minor, floorID, z, measuredPower, metadata } = beacon;
    const moved = await this.context.api.request('PUT', `/v1/beacons/${beacon.id}`, { json: { uuid, major, minor, floorID, x: metres.x, y: metres.y, z, measuredPower, metadata } });
    await this.changed(`Beacon ${beaconLabel(moved)} moved to (${moved.x.toFixed(2)} m, ${moved.y.toFixed(2)} m).`);
  }

  /** A tap on a beacon's diamond: edit it. */
  choose(beaconID) {
    const beacon = this.beacons.find((b) => b.id === beaconID);
    if (beacon) this.edit(beacon);
  }

  async saveForm() {
    const { $ } = this.context;
    const x = $('beacon-x').value.trim();
    const y = $('beacon-y').value.trim();
    if (x === '' || y === '') throw new Error('Give the beacon\'s x and y in metres, or tap the plan with "adds a beacon".');
    const body = this.body(Number(x), Number(y));
    const saved = this.editing
      ? await this.context.api.request('PUT', `/v1/beacons/${this.editing.id}`, { json: body })
      : await this.context.api.post('/v1/beacons', body);
    this.editing = saved;
    await this.changed(`Beacon ${beaconLabel(saved)} saved.`);
    this.edit(this.beacons.find((b) => b.id === saved.id) || null);
  }

  async remove(beacon) {
    if (!await confirmAction(`Delete beacon ${beaconLabel(beacon)}? Its sightings stop being reference points.`)) return;
    await this.context.api.delete(`/v1/beacons/${beacon.id}`);
    if (this.editing?.id === beacon.id) this.edit(null);
    await this.changed(`Beacon ${beaconLabel(beacon)} deleted.`);
  }

  async changed(message) {
    await this.refresh();
    this.context.plan.redraw();
    this.context.say(message);
  }
}
