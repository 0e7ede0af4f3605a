// The Rooms card (a panel, panel.js): the chosen floor's rooms, added, renamed, cleared of their
// measurements (asked first) and deleted (asked first), and the room new locations go in; and
// their outlines: drawn corner by corner on the plan ("draws the chosen room's outline", for the
// room chosen under "New locations go in"), saved, their corners dragged, deleted (asked first).
// main.js reads the rooms with the floor's contents (the tags' rooms are named from them).
// POST /v1/rooms, PATCH/DELETE /v1/rooms/{id}, POST /v1/rooms/{id}/clear,
// PUT/DELETE /v1/rooms/{id}/outline.

import { confirmAction, promptText } from './dialogs.js';
import { button, fillSelect, listItem, option } from './dom.js';
import { Panel } from './panel.js';

export class RoomsPanel extends Panel {
  /** @param {{ rooms: () => object[], reloadCoverage: () => Promise<void> }} page the floor's rooms as main.js read them; the coverage read again */
  constructor(page) {
    super();
    this.page = page;
    /** Corners of the outline being drawn, plan metres: [[x, y], ...]. */
    this.draft = [];
  }

  wire() {
    this.onSubmit('room-form', () => this.create());
    this.on('outline-save', 'click', () => this.saveDraft());
    this.on('outline-cancel', 'click', () => this.cancelDraft());
    this.on('room-select', 'change', () => this.renderDraft());
  }

  clear() {
    this.draft = [];
  }

  render() {
    const { $, guard } = this.context;
    const rooms = this.page.rooms();
    $('room-list').replaceChildren(...rooms.map((room) => listItem(
      room.outline ? `${room.name} (outline of ${room.outline.length} corners)` : room.name, { roomId: room.id },
      button('Rename', () => this.rename(room), guard),
      ...(room.outline ? [button('Delete outline…', () => this.deleteOutline(room), guard, 'danger')] : []),
      button('Clear data…', () => this.clearData(room), guard, 'danger'),
      button('Delete…', () => this.remove(room), guard, 'danger'))));
    const chosen = $('room-select').value;
    fillSelect($('room-select'), rooms.map((room) => option(room.id, room.name)));
    if (rooms.some((room) => String(room.id) === chosen)) $('room-select').value = chosen;
    $('location-add').disabled = rooms.length === 0;
    this.renderDraft();
  }

  /** The room the outline tool draws for: the one chosen under "New locations go in". */
  chosenRoom() {
    const id = Number(this.context.$('room-select').value);
    return this.page.rooms().find((room) => room.id === id) ?? null;
  }

  renderDraft() {
    const { $ } = this.context;
    const room = this.chosenRoom();
    $('outline-draft').hidden = this.draft.length === 0;
    $('outline-draft-text').textContent = `Outline of "${room?.name ?? '?'}": ${this.draft.length} corner${this.draft.length === 1 ? '' : 's'} (at least 3).`;
    $('outline-save').disabled = this.draft.length < 3 || !room;
  }

  /** What the plan draws: the saved outlines (corners draggable) and the one being drawn. */
  onPlan() {
    return {
      outlines: this.page.rooms().filter((room) => room.outline).map((room) => ({ roomID: room.id, name: room.name, corners: room.outline })),
      draft: this.draft,
    };
  }

  /** A tap with the outline tool: one more corner of the chosen room's new outline. */
  addCorner(metres) {
    if (!this.chosenRoom()) {
      this.context.say('Add a room first, and choose it under "New locations go in".', true);
      return;
    }
    this.draft = [...this.draft, [round(metres.x), round(metres.y)]];
    this.renderDraft();
    this.context.plan.redraw();
  }

  /** A tap on a saved outline's corner: that very corner is the next one (a shared wall). */
  addSavedCorner(roomID, index) {
    const corner = this.page.rooms().find((room) => room.id === roomID)?.outline?.[index];
    if (corner) this.addCorner({ x: corner[0], y: corner[1] });
  }

  async saveDraft() {
    const room = this.chosenRoom();
    if (!room || this.draft.length < 3) return;
    await this.context.api.put(`/v1/rooms/${room.id}/outline`, { outline: this.draft });
    this.draft = [];
    await this.context.plan.reload();
    this.context.say(`Outline of room "${room.name}" saved: positions inside it are in "${room.name}".`);
  }

  cancelDraft() {
    this.draft = [];
    this.renderDraft();
    this.context.plan.redraw();
  }

  /** A corner of a saved outline dragged to `metres`. */
  async moveCorner(roomID, index, metres) {
    const room = this.page.rooms().find((r) => r.id === roomID);
    if (!room?.outline || !room.outline[index]) return;
    const outline = room.outline.map((corner, i) => (i === index ? [round(metres.x), round(metres.y)] : corner));
    await this.context.api.put(`/v1/rooms/${room.id}/outline`, { outline });
    await this.context.plan.reload();
    this.context.say(`Corner ${index + 1} of room "${room.name}" moved.`);
  }

  async deleteOutline(room) {
    if (!await confirmAction(`Delete the outline of room "${room.name}"? Its positions take the nearest location's room again.`)) return;
    await this.context.api.delete(`/v1/rooms/${room.id}/outline`);
    await this.context.plan.reload();
    this.context.say(`Outline of room "${room.name}" deleted.`);
  }

  async create() {
    const { api, $, plan, say } = this.context;
    const room = await api.post('/v1/rooms', { floorID: plan.floor().id, name: $('room-name').value.trim() });
    $('room-name').value = '';
    await plan.reload();
    $('room-select').value = String(room.id);
    say(`Room "${room.name}" added.`);
  }

  async rename(room) {
    const name = await promptText(`New name of room "${room.name}"`, room.name);
    if (!name) return;
    await this.context.api.patch(`/v1/rooms/${room.id}`, { name });
    await this.context.plan.reload();
    this.context.say(`Room renamed to "${name}".`);
  }

  async clearData(room) {
    if (!await confirmAction(`Delete every measurement taken in room "${room.name}"? Its locations stay, to be surveyed again.`)) return;
    const cleared = await this.context.api.post(`/v1/rooms/${room.id}/clear`);
    await this.page.reloadCoverage();
    this.context.say(`Room "${room.name}" cleared: ${cleared.measurementsDeleted} measurements deleted.`);
  }

  async remove(room) {
    if (!await confirmAction(`Delete room "${room.name}" with its locations and their measurements?`)) return;
    await this.context.api.delete(`/v1/rooms/${room.id}`);
    await this.context.plan.reload();
    this.context.say(`Room "${room.name}" deleted.`);
  }
}

/** Centimetres are enough for a wall. */
function round(value) {
  return Math.round(value * 100) / 100;
}
