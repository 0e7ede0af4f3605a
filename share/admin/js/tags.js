// The tags card (a panel, panel.js): every tag tracked from fixed scanners with its latest
// position and room (live, from the page's one stream, live.js) in the list and on the plan, made, edited, marked missing or found, and
// deleted here; for the tag picked, its last sightings (GET /v1/tags/{id}/sightings: which
// scanner heard it, when, how strongly — the "last seen" view).
// POST/GET /v1/tags, PATCH/DELETE /v1/tags/{id}.

import { confirmAction } from './dialogs.js';
import { button, el, fillSelect, listItem, option } from './dom.js';
import { IDENTITY_KINDS, identityFromText, identityToText, referenceLine, tagWhere } from './format.js';
import { Panel } from './panel.js';

export class TagsPanel extends Panel {
  /** @param {import('./live.js').LiveFeed} live the page's one stream */
  constructor(live) {
    super();
    this.live = live;
    this.tags = [];
    this.positions = new Map();
    this.editing = null;
    this.following = null;
  }

  wire() {
    fillSelect(this.context.$('tag-kind'), Object.entries(IDENTITY_KINDS).map(([kind, { label }]) => option(kind, label)));
    this.on('tag-kind', 'change', () => this.showKindHint());
    this.onSubmit('tag-form', () => this.saveForm());
    this.on('tag-new', 'click', () => this.edit(null));
    this.showKindHint();
  }

  clear() {
    this.following = null; // closed with the wiring's signal
    this.tags = [];
    this.positions = new Map();
    this.editing = null;
    clearTimeout(this.recordingTimer);
    this.recordingTag = null;
  }

  /** Every tag and its latest position; then every tag's positions live. */
  async refresh() {
    const { api } = this.context;
    const tags = await api.all('/v1/tags');
    const latest = await Promise.all(tags.map((tag) => this.latestPosition(tag).catch(() => null)));
    this.tags = tags;
    this.positions = new Map(tags.flatMap((tag, index) => (latest[index] ? [[tag.id, latest[index]]] : [])));
    this.render();
    // One interest in every tag's positions, however many tags there are: the page's one stream.
    this.following ??= this.live.follow({ feed: 'tagPosition' }, (event, position) => {
      if (!this.tags.some((tag) => tag.id === position.tagID)) return;
      this.positions.set(position.tagID, position);
      this.context.plan.redraw();
      this.render();
    }, { signal: this.wiring.signal });
  }

  /**
   * The tag's latest position, or null when it was never located. Asked only once its first
   * position exists (`/positions` answers an empty page, not the 404 of `/positions/latest`, which
   * the browser would log as an error for every new tag).
   */
  async latestPosition(tag) {
    const { api } = this.context;
    const first = await api.get(`/v1/tags/${tag.id}/positions?limit=1`);
    return first.items.length ? api.get(`/v1/tags/${tag.id}/positions/latest`) : null;
  }

  /** The tags whose latest position is on `floor`, for the plan. */
  onPlan(floor) {
    return this.tags
      .map((tag) => ({ tag, position: this.positions.get(tag.id) }))
      .filter((item) => item.position && floor && item.position.floorID === floor.id);
  }

  showKindHint() {
    const { $ } = this.context;
    $('tag-identity').placeholder = IDENTITY_KINDS[$('tag-kind').value]?.hint || '';
  }

  /** Lists the tags with their latest position and room. */
  render() {
    const { tags, positions } = this;
    const { $, guard } = this.context;
    const list = $('tag-list');
    list.replaceChildren(...tags.map((tag) => {
      const position = positions.get(tag.id);
      const item = listItem(`${tag.name}${tag.missing ? ' (missing)' : ''}: ${tagWhere(position, this.context.plan.roomName)}`, { tagId: tag.id },
        button('Last seen', () => this.showSightings(tag), guard),
        button('Record here', () => this.chooseForRecording(tag), guard),
        button('Edit', () => this.edit(tag), guard),
        button(tag.missing ? 'Found' : 'Mark missing', () => this.setMissing(tag, !tag.missing), guard),
        button('Delete…', () => this.remove(tag), guard, 'danger'));
      item.dataset.missing = String(tag.missing);
      item.dataset.roomId = position?.roomID !== undefined ? String(position.roomID) : '';
      return item;
    }));
    if (tags.length === 0) list.replaceChildren(listItem('No tags yet: add one below.'));
  }

  /** Fetches the tag's ten latest sightings, newest first, into the card. */
  async showSightings(tag) {
    const { api, $ } = this.context;
    const sightings = await api.get(`/v1/tags/${tag.id}/sightings?limit=10`);
    $('tag-sightings-h').textContent = `Last seen: ${tag.name}`;
    $('tag-sightings').replaceChildren(...sightings.map((s) => el('li', {
      textContent: `${new Date(s.windowEnd).toLocaleTimeString()} by ${s.scannerID}: ${s.count}× median ${s.medianRSSI} dBm, strongest ${s.maxRSSI}`,
    }, { scannerId: s.scannerID })));
    if (sightings.length === 0) $('tag-sightings').replaceChildren(el('li', { textContent: 'Never heard.' }));
  }

  /**
   * "Record this tag here": the tag is chosen and the plan's tool becomes "records the chosen
   * tag here"; its recorded spots are listed.
   */
  async chooseForRecording(tag) {
    const { $ } = this.context;
    this.recordingTag = tag;
    const tool = document.querySelector('input[name="tool"][value="reference"]');
    tool.checked = true;
    tool.dispatchEvent(new Event('change'));
    $('tag-recording').textContent = `Hold ${tag.name} still where it belongs and tap that spot on the plan.`;
    await this.showReferences(tag);
  }

  /** The tag's recorded spots, each with its progress and a delete button. */
  async showReferences(tag) {
    const { api, $, guard } = this.context;
    const references = await api.get(`/v1/tags/${tag.id}/references`);
    $('tag-references-h').textContent = `Recorded spots: ${tag.name}`;
    $('tag-references').replaceChildren(...references.map((reference) => listItem(referenceLine(reference, tag.name), { referenceId: reference.id },
      button('Delete…', () => this.removeReference(tag, reference), guard, 'danger'))));
    if (references.length === 0) $('tag-references').replaceChildren(listItem('None yet: "Record here", then tap the plan.'));
  }

  /** A tap with "records the chosen tag here": a reference there, followed until it is done. */
  async recordAt(metres) {
    const tag = this.recordingTag;
    if (!tag) throw new Error('Choose "Record here" on a tag under Tags first, then tap the plan where it is held.');
    const floor = this.context.plan.floor();
    const reference = await this.context.api.post(`/v1/tags/${tag.id}/references`, { floorID: floor.id, x: metres.x, y: metres.y });
    this.follow(tag, reference);
  }

  /** Shows the recording's progress, read again every second until it is done or deleted. */
  follow(tag, reference) {
    const { api, $, guard } = this.context;
    clearTimeout(this.recordingTimer);
    $('tag-recording').textContent = referenceLine(reference, tag.name);
    if (reference.state === 'done') {
      this.context.say(referenceLine(reference, tag.name));
      guard(() => this.showReferences(tag))();
      return;
    }
    this.recordingTimer = setTimeout(guard(async () => {
      const now = await api.get(`/v1/tags/${tag.id}/references/${reference.id}`).catch((error) => {
        if (error.status === 404) return null;
        throw error;
      });
      if (now) this.follow(tag, now);
    }), 1000);
    guard(() => this.showReferences(tag))();
  }

  async removeReference(tag, reference) {
    if (!await confirmAction(`Delete the spot ${tag.name} was recorded at? The fingerprint map loses it.`)) return;
    await this.context.api.delete(`/v1/tags/${tag.id}/references/${reference.id}`);
    await this.showReferences(tag);
    this.context.say(`Recorded spot of "${tag.name}" deleted.`);
  }

  /** Fills the form with `tag` to edit it, or empties it for a new one (null). */
  edit(tag) {
    const { $ } = this.context;
    this.editing = tag;
    $('tag-form-h').textContent = tag ? `Edit tag ${tag.name}` : 'New tag';
    $('tag-form').dataset.tagId = tag ? String(tag.id) : '';
    $('tag-name').value = tag ? tag.name : '';
    const writable = !tag || tag.identity.kind in IDENTITY_KINDS;
    $('tag-kind').disabled = !writable;
    $('tag-identity').disabled = !writable;
    if (tag && writable) $('tag-kind').value = tag.identity.kind;
    $('tag-identity').value = tag ? identityToText(tag.identity) : '';
    $('tag-power').value = String(tag ? tag.txPower : -59);
    $('tag-height').value = String(tag?.height ?? 1);
    $('tag-missing').checked = Boolean(tag?.missing);
    this.showKindHint();
    if (tag) $('tag-name').focus();
  }

  body() {
    const { $ } = this.context;
    const body = {
      name: $('tag-name').value.trim(),
      txPower: Number($('tag-power').value),
      height: Number($('tag-height').value),
      missing: $('tag-missing').checked,
    };
    // An identity the page cannot write (a phone's irk, write-only) is left as it is.
    if (!$('tag-identity').disabled) body.identity = identityFromText($('tag-kind').value, $('tag-identity').value);
    return body;
  }

  async saveForm() {
    const { api } = this.context;
    const body = this.body();
    const saved = this.editing
      ? await api.patch(`/v1/tags/${this.editing.id}`, body)
      : await api.post('/v1/tags', body);
    this.edit(null);
    await this.refresh();
    this.context.plan.redraw();
    this.context.say(`Tag "${saved.name}" saved.`);
  }

  async setMissing(tag, missing) {
    await this.context.api.patch(`/v1/tags/${tag.id}`, { missing });
    await this.refresh();
    this.context.plan.redraw();
    this.context.say(missing ? `Tag "${tag.name}" marked missing: the first scanner to hear it raises an event.` : `Tag "${tag.name}" found.`);
  }

  async remove(tag) {
    if (!await confirmAction(`Delete tag "${tag.name}"? This cannot be undone.`)) return;
    await this.context.api.delete(`/v1/tags/${tag.id}`);
    if (this.editing?.id === tag.id) this.edit(null);
    await this.refresh();
    this.context.plan.redraw();
    this.context.say(`Tag "${tag.name}" deleted.`);
  }
}
