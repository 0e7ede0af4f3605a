// The visitor page: where am I (a device's live position), the nearest item in the visitor's
// language, a room searched by name and the route there step by step. Read-only: it carries the
// visitor link's visitor token, taken from the address's fragment (#token=…), which browsers never
// send to a server; the page moves it into this tab's sessionStorage and off the address bar.

import { Api, ApiError } from '../../admin/js/api.js';
import { isItem, localized, matches, visitorLanguages } from './content.js';
import { guardWith, say } from '../../admin/js/status.js';
import { drawMap, geometry } from './map.js';

const TOKEN_KEY = 'floorscan.visitorToken';
/** Route to at most this many locations of the destination room, keeping the shortest. */
const DESTINATION_TRIES = 6;

const $ = (id) => document.getElementById(id);
const languages = visitorLanguages();

const state = {
  floors: [],
  shownFloor: null,
  imageURL: null,
  imageSize: null,
  rooms: [],
  locations: [],
  items: [],
  position: null,
  follow: null,
  route: null,
  destination: null,
};

const api = new Api(() => sessionStorage.getItem(TOKEN_KEY), () => showNoLink('The visitor link is no longer valid; ask for a new one.'));

const guard = guardWith((error) => (error instanceof ApiError ? error.message : String(error.message || error)));

function showNoLink(text) {
  sessionStorage.removeItem(TOKEN_KEY);
  if (state.follow) state.follow.abort();
  $('visit-view').hidden = true;
  $('no-link-view').hidden = false;
  if (text) say(text, true);
}

/** Takes `#token=…` into sessionStorage and clears it from the address (and so from history). */
function adoptLinkToken() {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (token) {
    sessionStorage.setItem(TOKEN_KEY, token);
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

function option(value, text) {
  const node = document.createElement('option');
  node.value = String(value);
  node.textContent = text;
  return node;
}

const floorName = (id) => state.floors.find((f) => f.id === id)?.name ?? `floor ${id}`;
const roomName = (id) => state.rooms.find((r) => r.id === id)?.name ?? null;
const locationByID = (id) => state.locations.find((l) => l.id === id) || null;
const distance = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);

// ---- the map ----

async function showFloor(floorID) {
  const floor = state.floors.find((f) => f.id === floorID) || null;
  if (floor?.id === state.shownFloor?.id) return;
  state.shownFloor = floor;
  $('floor-select').value = floor ? String(floor.id) : '';
  if (state.imageURL) URL.revokeObjectURL(state.imageURL);
  state.imageURL = null;
  state.imageSize = null;
  if (floor?.plan) {
    const url = URL.createObjectURL(await api.blob(`/v1/floors/${floor.id}/plan`));
    state.imageSize = await new Promise((resolve) => {
      const image = new Image();
      image.onload = () => resolve(image.naturalWidth > 0 ? { width: image.naturalWidth, height: image.naturalHeight } : null);
      image.onerror = () => resolve(null);
      image.src = url;
    });
    state.imageURL = url;
  }
  render();
}

/** The route's points on the shown floor, as runs of consecutive points. */
function routeRuns() {
  if (!state.route || !state.shownFloor) return [];
  const runs = [];
  let run = [];
  for (const id of state.route.path) {
    const location = locationByID(id);
    if (location && location.floorID === state.shownFloor.id) {
      run.push(location);
    } else if (run.length) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs;
}

function render() {
  const floorID = state.shownFloor?.id;
  const nearest = nearestItem();
  const position = state.position && state.position.floor === floorID ? state.position : null;
  const destination = state.destination && state.destination.floorID === floorID ? state.destination : null;
  drawMap($('plan'), {
    geometry: geometry(state.shownFloor, state.imageSize),
    imageURL: state.imageURL,
    items: state.items.filter((item) => item.floorID === floorID).map((item) => ({
      id: item.id, name: item.name, x: item.x, y: item.y, nearest: item.id === nearest?.item.id,
    })),
    route: routeRuns(),
    destination,
    position,
  });
}

// ---- where am I, and the nearest item ----

/** The item nearest the position, on its floor; null without a position or items there. */
function nearestItem() {
  const p = state.position;
  if (!p) return null;
  let best = null;
  for (const item of state.items) {
    if (item.floorID !== p.floor) continue;
    const metres = distance(item, p);
    if (!best || metres < best.metres) best = { item, metres };
  }
  return best;
}

function showWhere() {
  const p = state.position;
  const text = $('where-text');
  const room = p.roomID != null ? roomName(p.roomID) : null;
  const place = room ? `in ${room}` : `at ${p.x.toFixed(1)} m, ${p.y.toFixed(1)} m`;
  text.textContent = `You are ${place} on ${floorName(p.floor)} (within about ${Math.max(1, Math.round(p.accuracyMetres))} m).`;
  text.dataset.count = String(Number(text.dataset.count || 0) + 1);
  text.dataset.roomId = p.roomID != null ? String(p.roomID) : '';

  const box = $('nearest-item');
  const found = nearestItem();
  if (!found) {
    box.replaceChildren(Object.assign(document.createElement('p'), { className: 'hint', textContent: 'No item on this floor.' }));
    box.dataset.itemId = '';
    return;
  }
  const heading = Object.assign(document.createElement('h3'), { textContent: found.item.name });
  const words = Object.assign(document.createElement('p'), { textContent: found.item.content ?? '' });
  words.id = 'nearest-content';
  const away = Object.assign(document.createElement('p'), { className: 'hint', textContent: `${Math.round(found.metres)} m away` });
  box.replaceChildren(heading, words, away);
  box.dataset.itemId = String(found.item.id);
  box.dataset.metres = found.metres.toFixed(2);
}

/** Follows a scanner's positions, or with `{ tag }` a tracked tag's (a visitor's badge). */
function follow(scannerID, { tag = null } = {}) {
  if (state.follow) state.follow.abort();
  state.follow = null;
  state.position = null;
  if (!scannerID && tag == null) return;
  const controller = new AbortController();
  state.follow = controller;
  $('where-text').textContent = `Waiting for where ${tag != null ? `badge ${tag}` : scannerID} is…`;
  // The one multiplexed feed (GET /v1/stream), as the admin page follows everything live. A tag's
  // position names its floor `floorID`; the page reads `floor` as a scanner's has it.
  const [path, kind, read] = tag != null
    ? [`/v1/stream?feeds=tagPosition&tagIDs=${encodeURIComponent(tag)}`, 'tagPosition', (p) => ({ ...p, floor: p.floorID })]
    : [`/v1/stream?feeds=position&scannerIDs=${encodeURIComponent(scannerID)}`, 'position', (p) => p];
  api.stream(path, {
    signal: controller.signal,
    onState: (text) => { if (text !== 'live') say(`Position feed ${text}.`); },
    onEvent: guard(async (event) => {
      if (event.event !== kind || controller.signal.aborted) return;
      const p = read(JSON.parse(event.data));
      const movedFloor = state.position?.floor !== p.floor;
      state.position = p;
      showWhere();
      if (movedFloor) await showFloor(p.floor);
      render();
    }),
  });
}

// ---- search and route ----

async function search(event) {
  event.preventDefault();
  const query = $('search-input').value;
  if (!query.trim()) return;
  const answered = await api.get(`/v1/rooms?q=${encodeURIComponent(query.trim())}`);
  // A switchd without room search answers every room: the same matching, here.
  const rooms = answered.filter((room) => matches(room.name, query));
  const list = $('search-results');
  list.replaceChildren(...rooms.map((room) => {
    const item = document.createElement('li');
    const button = Object.assign(document.createElement('button'), { type: 'button', textContent: `${room.name} — ${floorName(room.floorID)}` });
    button.dataset.roomId = String(room.id);
    button.addEventListener('click', guard(() => routeTo(room)));
    item.append(button);
    return item;
  }));
  say(rooms.length ? `${rooms.length} room${rooms.length === 1 ? '' : 's'} found.` : `No room matches “${query.trim()}”.`);
}

/** Where the route starts: the location nearest the visitor (as the position says, else measured). */
function startLocation() {
  const p = state.position;
  if (!p) return null;
  if (p.nearestLocationID != null && locationByID(p.nearestLocationID)) return locationByID(p.nearestLocationID);
  const onFloor = state.locations.filter((l) => l.floorID === p.floor);
  return onFloor.sort((a, b) => distance(a, p) - distance(b, p))[0] || null;
}

async function routeTo(room) {
  const start = startLocation();
  if (!start) throw new Error('Choose the device you carry first, so the page knows where you are.');
  const targets = state.locations.filter((l) => l.roomID === room.id).slice(0, DESTINATION_TRIES);
  if (!targets.length) throw new Error(`${room.name} has no place to walk to yet.`);
  let best = null;
  for (const target of targets) {
    try {
      const route = await api.post('/v1/routes', { from: start.id, to: target.id });
      if (!best || route.distanceMetres < best.route.distanceMetres) best = { route, target };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 422) throw error;
    }
  }
  if (!best) throw new Error(`No walkable way to ${room.name} is known.`);
  state.route = best.route;
  state.destination = best.target;
  const summary = $('route-summary');
  summary.textContent = `To ${room.name}: ${Math.round(best.route.distanceMetres)} m, about ${Math.max(1, Math.round(best.route.etaSeconds / 60))} min.`;
  summary.dataset.roomId = String(room.id);
  summary.dataset.distance = String(best.route.distanceMetres);
  $('route-steps').replaceChildren(...best.route.steps.map((step) => {
    const item = Object.assign(document.createElement('li'), { textContent: step.instruction });
    item.dataset.kind = step.kind;
    return item;
  }));
  say(`Route to ${room.name}.`);
  render();
}

// ---- start ----

async function start() {
  $('no-link-view').hidden = true;
  $('visit-view').hidden = false;
  const [floors, rooms, locations, beacons, scanners] = await Promise.all([
    api.get('/v1/floors'), api.get('/v1/rooms'), api.get('/v1/locations'), api.all('/v1/beacons'), api.all('/v1/scanners'),
  ]);
  state.floors = floors;
  state.rooms = rooms;
  state.locations = locations;
  state.items = beacons.filter(isItem).map((beacon) => ({
    id: beacon.id, floorID: beacon.floorID, x: beacon.x, y: beacon.y,
    name: localized(beacon.metadata, 'name', languages) ?? `beacon ${beacon.major}.${beacon.minor}`,
    content: localized(beacon.metadata, 'content', languages),
  }));
  $('floor-select').replaceChildren(...floors.map((f) => option(f.id, `${f.name} — ${f.building}`)));
  const scannerSelect = $('scanner-select');
  scannerSelect.replaceChildren(option('', '(choose)'), ...scanners.map((s) => option(s.id, s.name === s.id ? s.id : `${s.name} (${s.id})`)));
  const query = new URLSearchParams(window.location.search);
  const wanted = query.get('scanner');
  if (wanted && scanners.some((s) => s.id === wanted)) scannerSelect.value = wanted;
  // ?tag=ID follows a badge the fixed scanners track (the museum's case) instead of a device.
  const tag = /^[0-9]+$/.test(query.get('tag') ?? '') ? query.get('tag') : null;
  await showFloor(floors[0]?.id ?? null);
  if (tag != null) follow(null, { tag });
  else if (scannerSelect.value) follow(scannerSelect.value);
  say(floors.length ? 'Welcome.' : 'This site has no map yet.');
}

$('floor-select').addEventListener('change', guard(() => showFloor(Number.parseInt($('floor-select').value, 10))));
$('scanner-select').addEventListener('change', () => follow($('scanner-select').value));
$('search-form').addEventListener('submit', guard(search));

if (adoptLinkToken()) {
  guard(start)();
} else {
  showNoLink(null);
}
