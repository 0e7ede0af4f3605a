// The Links and routes card (a panel, panel.js): links between locations (made by tapping two
// locations with "links two locations", or from the From and To lists, any floor), deleted
// (asked first), and the route between two locations with its distance and walking time.
// GET/POST /v1/links, DELETE /v1/links/{id}, POST /v1/routes.

import { confirmAction } from './dialogs.js';
import { button, el, listItem, option } from './dom.js';
import { Panel } from './panel.js';

export class LinksPanel extends Panel {
  /**
   * @param {{ locations: () => object[], allLocations: () => object[] }} places the chosen floor's
   *        locations and every floor's, as main.js last read them
   */
  constructor(places) {
    super();
    this.places = places;
    this.links = [];
    this.route = [];
    this.first = null;
  }

  wire() {
    const { $ } = this.context;
    this.on('link-create', 'click', () => this.create(Number.parseInt($('link-from').value, 10), Number.parseInt($('link-to').value, 10)));
    this.on('route-show', 'click', () => this.showRoute());
  }

  clear() {
    this.links = [];
    this.floorChanged();
  }

  async refresh() {
    this.links = await this.context.api.get('/v1/links');
  }

  /** Another floor chosen: no route shown, no first location of a link. */
  floorChanged() {
    this.route = [];
    this.first = null;
    if (this.context) this.context.$('route-result').textContent = '';
  }

  location(id) {
    return this.places.allLocations().find((l) => l.id === id);
  }

  floorName(id) {
    const floor = this.context.plan.floors().find((f) => f.id === id);
    return floor ? floor.name : `floor ${id}`;
  }

  /** A location's name, with its floor's when it is on another floor than the chosen one. */
  describe(location) {
    return location.floorID === this.context.plan.floor()?.id ? location.name : `${location.name} (${this.floorName(location.floorID)})`;
  }

  /** What the plan draws: the links between this floor's locations, the route's part on it. */
  onPlan() {
    const onFloor = new Set(this.places.locations().map((l) => l.id));
    return {
      links: this.links
        .filter((link) => onFloor.has(link.from) && onFloor.has(link.to))
        .map((link) => ({ from: this.location(link.from), to: this.location(link.to) }))
        .filter((link) => link.from && link.to),
      route: this.route.filter((l) => onFloor.has(l.id)),
    };
  }

  render() {
    const { $, guard, plan } = this.context;
    const groups = plan.floors().map((floor) => {
      const group = el('optgroup', { label: floor.name });
      group.append(...this.places.allLocations().filter((l) => l.floorID === floor.id).map((l) => option(l.id, l.name)));
      return group;
    });
    for (const id of ['link-from', 'link-to']) {
      const select = $(id);
      const current = select.value;
      select.replaceChildren(...groups.map((group) => group.cloneNode(true)));
      if (this.places.allLocations().some((l) => String(l.id) === current)) select.value = current;
    }
    const onFloor = new Set(this.places.locations().map((l) => l.id));
    $('link-list').replaceChildren(...this.links.filter((link) => onFloor.has(link.from) || onFloor.has(link.to)).map((link) => {
      const name = (id) => {
        const location = this.location(id);
        return location ? this.describe(location) : `#${id}`;
      };
      return listItem(`${name(link.from)} ↔ ${name(link.to)}: ${link.kind}, ${link.distanceMetres.toFixed(1)} m`, {},
        button('Delete…', () => this.remove(link), guard, 'danger'));
    }));
  }

  /** A tap on a location with "links two locations": the first, then the one to link it to. */
  async tapLocation(locationID) {
    const { $, say, plan } = this.context;
    if (this.first === null || this.first === locationID) {
      this.first = locationID;
      $('link-from').value = String(locationID);
      say('Now tap the location to link it to.');
      plan.redraw();
      return;
    }
    const first = this.first;
    this.first = null;
    $('link-to').value = String(locationID);
    await this.create(first, locationID);
  }

  async create(from, to) {
    const { api, $ } = this.context;
    const kindSelect = $('link-kind');
    const a = this.location(from);
    const b = this.location(to);
    if (a && b && a.floorID !== b.floorID && kindSelect.value === 'walk') kindSelect.value = 'stairs';
    const link = await api.post('/v1/links', { from, to, kind: kindSelect.value });
    await this.changed(`Linked ${a?.name ?? from} and ${b?.name ?? to}: ${link.kind}, ${link.distanceMetres.toFixed(1)} m.`);
  }

  async remove(link) {
    if (!await confirmAction('Delete this link? Routes will no longer use it.')) return;
    await this.context.api.delete(`/v1/links/${link.id}`);
    await this.changed('Link deleted.');
  }

  async changed(message) {
    await this.refresh();
    this.render();
    this.context.plan.redraw();
    this.context.say(message);
  }

  async showRoute() {
    const { api, $, plan } = this.context;
    const from = Number.parseInt($('link-from').value, 10);
    const to = Number.parseInt($('link-to').value, 10);
    const route = await api.post('/v1/routes', { from, to });
    this.route = route.path.map((id) => this.location(id)).filter(Boolean);
    const names = this.route.map((l) => this.describe(l));
    const eta = route.etaSeconds < 90 ? `${Math.round(route.etaSeconds)} s` : `${(route.etaSeconds / 60).toFixed(1)} min`;
    const result = $('route-result');
    result.textContent = `Route ${names.join(' → ')}: ${route.distanceMetres.toFixed(1)} m, about ${eta} on foot`
      + (route.floorChanges ? `, ${route.floorChanges} floor change${route.floorChanges === 1 ? '' : 's'}.` : '.');
    result.dataset.distance = String(route.distanceMetres);
    result.dataset.eta = String(route.etaSeconds);
    plan.redraw();
  }
}
