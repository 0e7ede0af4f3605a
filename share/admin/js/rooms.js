// The Rooms card (a panel, panel.js): the chosen floor's rooms, added, renamed, cleared of their
// measurements (asked first) and deleted (asked first), and the room new locations go in. main.js
// reads the rooms with the floor's contents (the tags' rooms are named from them).
// POST /v1/rooms, PATCH/DELETE /v1/rooms/{id}, POST /v1/rooms/{id}/clear.

import { confirmAction, promptText } from './dialogs.js';
import { button, fillSelect, listItem, option } from './dom.js';
import { Panel } from './panel.js';

export class RoomsPanel extends Panel {
  /** @param {{ rooms: () => object[], reloadCoverage: () => Promise<void> }} page the floor's rooms as main.js read them; the coverage read again */
  constructor(page) {
    super();
    this.page = page;
  }

  wire() {
    this.onSubmit('room-form', () => this.create());
  }

  render() {
    const { $, guard } = this.context;
    const rooms = this.page.rooms();
    $('room-list').replaceChildren(...rooms.map((room) => listItem(room.name, { roomId: room.id },
      button('Rename', () => this.rename(room), guard),
      button('Clear data…', () => this.clearData(room), guard, 'danger'),
      button('Delete…', () => this.remove(room), guard, 'danger'))));
    fillSelect($('room-select'), rooms.map((room) => option(room.id, room.name)));
    $('location-add').disabled = rooms.length === 0;
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
