// The admin page: sign in, floors, plan and scale, rooms and locations, coverage and heat map,
// and what a tap on the plan does. State lives here; drawing is in plan.js. The panels keeping
// panel.js's contract (mount, refresh, unmount) are each in their own module: scanners on the
// plan (placements.js), beacons (beacons.js), tags (tags.js), integrations and webhooks
// (integrations.js), rooms (rooms.js), links and routes (links.js), "Scan here" (survey.js), the
// live position (locate.js).

import { Api } from './api.js';
import { BeaconsPanel } from './beacons.js';
import { makeVisitorLink, showDashboard } from './dashboard.js';
import { confirmAction, promptText } from './dialogs.js';
import { heatImage } from './heatmap.js';
import { button as makeButton, option } from './dom.js';
import { wireDrag } from './drag.js';
import { problemText } from './format.js';
import { metresAt } from './geometry.js';
import { IntegrationsPanel } from './integrations.js';
import { LinksPanel } from './links.js';
import { LiveFeed } from './live.js';
import { LocatePanel } from './locate.js';
import { awaitingEstimate, ESTIMATE_RETRIES, ESTIMATE_RETRY_MS, legend, quality, suggestNextSurvey } from './quality.js';
import { guardWith, say } from './status.js';
import { GeoReferencePanel } from './georef.js';
import { Panels } from './panel.js';
import { draw, eventPoint, geometry, toMetres, toPixels } from './plan.js';
import { PlacementPanel } from './placements.js';
import { RoomsPanel } from './rooms.js';
import { ScannersPanel } from './scanners.js';
import { SurveyPanel } from './survey.js';
import { TagsPanel } from './tags.js';
import { WalkPanel } from './walk.js';

const TOKEN_KEY = 'floorscan.adminToken';

const $ = (id) => document.getElementById(id);

const state = {
  floors: [],
  floor: null,
  rooms: [],
  locations: [],
  allLocations: [],
  radioMap: null,
  imageURL: null,
  imageSize: null,
  chosen: null,
  marks: [],
  heatURL: null,
};

const api = new Api(() => sessionStorage.getItem(TOKEN_KEY), () => signOut('switchd refused the token; sign in again.'));
/** Everything the page follows live, in one stream (live.js). */
const live = new LiveFeed(api);
const geoReference = new GeoReferencePanel(api, $, (text, isError) => say(text, isError));
const walks = new WalkPanel(api, live, $, (text, isError) => say(text, isError), () => loadFloorContents());

// ---- status and error handling ----

/** Runs an action of the admin; a failure is shown, never thrown to the console. */
const guard = guardWith(problemText);

const scanners = new ScannersPanel(api, $, (text, isError) => say(text, isError), guard, async () => {
  await loadScanners();
  await loadFloorContents();
});

/** The panels of panel.js's contract, mounted at sign-in with the page's context. */
const panels = new Panels();
const placements = panels.add(new PlacementPanel());
const beacons = panels.add(new BeaconsPanel());
const integrations = panels.add(new IntegrationsPanel());
const tags = panels.add(new TagsPanel(live));
const rooms = panels.add(new RoomsPanel({ rooms: () => state.rooms, reloadCoverage: () => reloadCoverage() }));
const links = panels.add(new LinksPanel({ locations: () => state.locations, allLocations: () => state.allLocations }));
const survey = panels.add(new SurveyPanel(live, {
  chosen: () => locationByID(state.chosen),
  changed: () => { renderLocations(); renderPlan(); },
  reloadCoverage: () => reloadCoverage(),
}));
const locate = panels.add(new LocatePanel(live, () => $('scanner-select').value, () => survey.stopScanning()));
const panelContext = {
  api, $, say, guard,
  plan: {
    floor: () => state.floor,
    floors: () => state.floors,
    roomName: (id) => state.rooms.find((room) => room.id === id)?.name ?? null,
    geometry: () => currentGeometry(),
    redraw: () => renderPlan(),
    reload: () => loadFloorContents(),
  },
};

function on(id, event, action) {
  $(id).addEventListener(event, guard(action));
}

// ---- sign in ----

async function signIn(event) {
  event.preventDefault();
  const token = $('token').value.trim();
  $('sign-in-error').textContent = '';
  sessionStorage.setItem(TOKEN_KEY, token);
  try {
    await api.get('/v1/floors');
  } catch (error) {
    sessionStorage.removeItem(TOKEN_KEY);
    $('sign-in-error').textContent = error.status === 401 || error.status === 403 ? 'switchd does not accept this token.' : error.message;
    return;
  }
  $('token').value = '';
  await showApp();
}

function signOut(message) {
  panels.unmount();
  live.closeAll();
  sessionStorage.removeItem(TOKEN_KEY);
  $('app-view').hidden = true;
  $('sign-out').hidden = true;
  $('sign-in-view').hidden = false;
  $('sign-in-error').textContent = message || '';
  $('token').focus();
}

async function showApp() {
  $('sign-in-view').hidden = true;
  $('app-view').hidden = false;
  $('sign-out').hidden = false;
  panels.mount(panelContext);
  await Promise.all([loadScanners(), loadFloors(), showDashboard(api)]);
  say('Signed in.');
}

// ---- loading ----

/** The scanners card (scanners.js) and the scanner choices under Survey. */
async function loadScanners() {
  const registered = await scanners.load();
  const select = $('scanner-select');
  const current = select.value;
  select.replaceChildren(...registered.map((s) => option(s.id, s.name === s.id ? s.id : `${s.name} (${s.id})`)));
  if (registered.some((s) => s.id === current)) select.value = current;
}

async function loadFloors(chooseID) {
  state.floors = await api.get('/v1/floors');
  const select = $('floor-select');
  select.replaceChildren(...state.floors.map((f) => option(f.id, `${f.name} — ${f.building}, level ${f.level}`)));
  const wanted = chooseID ?? state.floor?.id;
  const floor = state.floors.find((f) => f.id === wanted) || state.floors[0] || null;
  if (floor) select.value = String(floor.id);
  await showFloor(floor);
}

async function showFloor(floor) {
  const changed = floor?.id !== state.floor?.id;
  state.floor = floor;
  if (changed) {
    state.marks = [];
    state.chosen = null;
    links.floorChanged();
  }
  for (const id of ['floor-rename', 'floor-delete', 'plan-file', 'room-name', 'room-create']) $(id).disabled = !floor;
  await loadPlanImage();
  await loadFloorContents();
  await geoReference.load(floor);
  renderPlan();
}

async function loadPlanImage() {
  if (state.imageURL) URL.revokeObjectURL(state.imageURL);
  state.imageURL = null;
  state.imageSize = null;
  const floor = state.floor;
  if (!floor || !floor.plan) return;
  const blob = await api.blob(`/v1/floors/${floor.id}/plan`);
  const url = URL.createObjectURL(blob);
  const size = await new Promise((resolve) => {
    const image = new Image();
    image.onload = () => resolve(image.naturalWidth > 0 ? { width: image.naturalWidth, height: image.naturalHeight } : null);
    image.onerror = () => resolve(null);
    image.src = url;
  });
  state.imageURL = url;
  state.imageSize = size;
}

async function loadFloorContents() {
  const floor = state.floor;
  const [rooms, locations, allLocations, radioMap] = await Promise.all([
    floor ? api.get(`/v1/rooms?floor=${floor.id}`) : [],
    floor ? api.get(`/v1/locations?floor=${floor.id}`) : [],
    api.get('/v1/locations'),
    api.get('/v1/radiomap'),
  ]);
  Object.assign(state, { rooms, locations, allLocations, radioMap });
  // The panels: scanners on the plan, beacons, tags, integrations, links, survey, locate.
  await panels.refresh();
  renderAll();
}

async function reloadCoverage() {
  state.radioMap = await api.get('/v1/radiomap');
  renderAll();
  followEstimate(0);
}

// The expected errors arrive after the map (switchd estimates them in the background): fetch it
// again while they are missing, one timer at a time, restarted by every reload.
let estimateTimer = null;
function followEstimate(tries) {
  clearTimeout(estimateTimer);
  if (!awaitingEstimate(state.radioMap) || tries >= ESTIMATE_RETRIES) return;
  estimateTimer = setTimeout(async () => {
    try {
      state.radioMap = await api.get('/v1/radiomap');
      renderAll();
    } catch { /* the next reload tries again */ }
    followEstimate(tries + 1);
  }, ESTIMATE_RETRY_MS);
}

// ---- rendering ----

function button(text, action, className) {
  return makeButton(text, action, guard, className);
}

function locationByID(id) {
  return state.allLocations.find((l) => l.id === id);
}

function mapEntry(locationID) {
  return state.radioMap?.locations.find((l) => l.locationID === locationID);
}

/** How well the location is surveyed, by its expected error in the radio map (quality.js). */
function coverage(location) {
  return quality(mapEntry(location.id));
}

/** The location's expected error as the admin reads it, or null. */
function expectedErrorText(location) {
  const expected = mapEntry(location.id)?.expectedError;
  return expected ? `expected error ${expected.metres.toFixed(1)} m` : null;
}

function nextSurvey() {
  return suggestNextSurvey(state.locations, mapEntry);
}

function currentGeometry() {
  return geometry(state.floor, state.imageSize);
}

function renderAll() {
  rooms.render();
  renderLocations();
  links.render();
  renderCoverage();
  renderPlan();
}

function renderPlan() {
  const g = currentGeometry();
  const linked = links.onPlan();
  const position = locate.onPlan(state.floor);
  draw($('plan'), {
    geometry: g,
    imageURL: state.imageURL,
    heatURL: state.heatURL,
    suggestion: nextSurvey(),
    locations: state.locations.map((location) => ({
      location,
      coverage: coverage(location),
      detail: expectedErrorText(location),
      chosen: location.id === state.chosen || location.id === links.first,
      surveying: location.id === survey.surveyingLocation(),
    })),
    links: linked.links,
    route: linked.route,
    marks: state.marks,
    position,
    fixedScanners: placements.onPlan(state.floor).map((placement) => ({ ...placement, watchedLeftOut: scanners.leftOut.get(placement.scannerID) || 0 })),
    beacons: beacons.onPlan(),
    tags: tags.onPlan(state.floor),
    rooms: rooms.onPlan(),
  });
  geoReference.drawOn($('plan'), g);
  if (!$('scale-typed-details').open) {
    $('scale-ppm').value = String(Math.round(1e4 / g.metresPerPixel) / 1e4);
    $('origin-x').value = String(Math.round(g.originX * 100) / 100);
    $('origin-y').value = String(Math.round(g.originY * 100) / 100);
  }
  const scale = state.floor?.scale;
  $('scale-info').textContent = !state.floor ? 'Create a floor first.'
    : scale ? `Scale: ${(1 / scale.metresPerPixel).toFixed(1)} pixels a metre; origin at pixel (${scale.originX.toFixed(0)}, ${scale.originY.toFixed(0)}).`
      : 'No scale yet: choose "marks the scale", tap two points on the plan and give their real distance.';
}

function renderLocations() {
  const list = $('location-list');
  // Walk points show on the plan only; a walk's many points would drown the list.
  list.replaceChildren(...state.locations.filter((location) => !location.walkID).map((location) => {
    const item = document.createElement('li');
    item.dataset.locationId = location.id;
    item.dataset.coverage = coverage(location);
    const entry = mapEntry(location.id);
    if (entry?.expectedError) item.dataset.expectedError = String(entry.expectedError.metres);
    item.classList.toggle('chosen', location.id === state.chosen);
    const name = document.createElement('span');
    name.className = 'name';
    const counts = entry ? `${entry.scans.length} scans, ${entry.emitters.length} emitters` : 'no readings';
    const summary = [counts, expectedErrorText(location)].filter(Boolean).join(', ');
    name.textContent = `${location.name} — ${summary}`;
    const pick = button('Choose', () => choose(location.id));
    pick.setAttribute('aria-pressed', String(location.id === state.chosen));
    item.append(name, pick, button('Delete…', () => deleteLocation(location), 'danger'));
    return item;
  }));
  const chosen = locationByID(state.chosen);
  $('chosen-location').textContent = chosen ? chosen.name : 'none';
  $('scan-here').disabled = !chosen || survey.busy();
  walks.render(state.locations, chosen ? chosen.id : null, survey.busy());
}

/** The plan's legend: a swatch per expected-error band (quality.js), the suggestion and the choice. */
function renderLegend() {
  const swatch = (name, text) => {
    const mark = document.createElement('span');
    mark.className = `swatch ${name}`;
    return [mark, ` ${text} `];
  };
  $('quality-legend').replaceChildren(
    'Expected error, the distance 68 % of fixes stay within (each location judged against the rest of the survey):',
    ...legend().flatMap((l) => swatch(l.name, l.text)),
    ...swatch('next', 'survey next'),
    ...swatch('selected', 'chosen'),
  );
}

function renderCoverage() {
  const counts = { none: 0, unrated: 0, low: 0, mid: 0, high: 0 };
  for (const location of state.locations) counts[coverage(location)] += 1;
  const bands = legend().filter((l) => counts[l.name] > 0).map((l) => `${counts[l.name]} ${l.text}`);
  $('coverage-summary').textContent = `${state.locations.length} locations by expected error: ${bands.join('; ') || 'none yet'}.`;
  const next = nextSurvey();
  const where = next && (next.location ? next.location.name : `the point (${next.x.toFixed(1)} m, ${next.y.toFixed(1)} m)`);
  $('survey-next').textContent = next
    ? `Survey next: ${where} (${next.reason}${next.metres !== null ? `, expected error ${next.metres.toFixed(1)} m` : ''}), ringed on the plan.`
    : 'Survey next: add a location on the plan.';
  $('survey-next').dataset.locationId = next?.location ? String(next.location.id) : '';
  const emitters = new Map();
  for (const entry of state.radioMap?.locations || []) {
    if (entry.floorID !== state.floor?.id) continue;
    for (const e of entry.emitters) emitters.set(e.emitter, (emitters.get(e.emitter) || 0) + 1);
  }
  const select = $('emitter-select');
  const current = select.value;
  const names = [...emitters.keys()].sort();
  select.replaceChildren(option('', '(no heat map)'), ...names.map((name) => option(name, `${name} (${emitters.get(name)} locations)`)));
  select.value = names.includes(current) ? current : '';
  updateHeat();
}

function updateHeat() {
  const emitter = $('emitter-select').value;
  const g = currentGeometry();
  const points = [];
  if (emitter) {
    for (const entry of state.radioMap?.locations || []) {
      if (entry.floorID !== state.floor?.id) continue;
      const heard = entry.emitters.find((e) => e.emitter === emitter);
      if (!heard) continue;
      const p = toPixels(g, entry.x, entry.y);
      points.push({ x: p.x, y: p.y, rssi: heard.mean });
    }
  }
  state.heatURL = heatImage(points, g);
}

// ---- floors ----

async function createFloor(event) {
  event.preventDefault();
  const level = Number.parseInt($('floor-level').value, 10);
  const body = { name: $('floor-name').value.trim(), level: Number.isFinite(level) ? level : 0 };
  const building = $('floor-building').value.trim();
  if (building) body.building = building;
  const floor = await api.post('/v1/floors', body);
  $('floor-form').reset();
  $('floor-new-details').open = false;
  await loadFloors(floor.id);
  say(`Floor "${floor.name}" created.`);
}

async function renameFloor() {
  const name = await promptText('New name of the floor', state.floor.name);
  if (!name) return;
  await api.patch(`/v1/floors/${state.floor.id}`, { name });
  await loadFloors(state.floor.id);
  say(`Floor renamed to "${name}".`);
}

async function deleteFloor() {
  const floor = state.floor;
  if (!await confirmAction(`Delete floor "${floor.name}" with its plan, rooms, locations and all their measurements? This cannot be undone.`)) return;
  await api.delete(`/v1/floors/${floor.id}`);
  state.floor = null;
  await loadFloors();
  say(`Floor "${floor.name}" deleted.`);
}

async function uploadPlan() {
  const file = $('plan-file').files[0];
  if (!file) return;
  const floor = await api.request('PUT', `/v1/floors/${state.floor.id}/plan`, { body: file, contentType: file.type || 'application/octet-stream' });
  $('plan-file').value = '';
  state.floor = floor;
  state.floors = state.floors.map((f) => (f.id === floor.id ? floor : f));
  await loadPlanImage();
  renderAll();
  say(`Plan uploaded (${floor.plan.contentType}, ${floor.plan.bytes} bytes).`);
}

async function saveScale(event) {
  event.preventDefault();
  const [a, b] = state.marks;
  const metres = Number.parseFloat($('scale-distance').value);
  const pixels = Math.hypot(b.x - a.x, b.y - a.y);
  if (!(metres > 0) || !(pixels > 0)) throw new Error('Mark two different points and give a distance above 0.');
  const g = currentGeometry();
  const scale = { metresPerPixel: metres / pixels, originX: g.scaled ? g.originX : 0, originY: g.scaled ? g.originY : 0 };
  await patchScale(scale);
  state.marks = [];
  $('scale-form').hidden = true;
  say(`Scale saved: ${(pixels / metres).toFixed(1)} pixels a metre.`);
}

/** The scale and origin typed in, for who cannot tap the plan. */
async function saveTypedScale(event) {
  event.preventDefault();
  const pixelsPerMetre = Number.parseFloat($('scale-ppm').value);
  if (!(pixelsPerMetre > 0)) throw new Error('Pixels a metre must be above 0.');
  await patchScale({
    metresPerPixel: 1 / pixelsPerMetre,
    originX: Number.parseFloat($('origin-x').value),
    originY: Number.parseFloat($('origin-y').value),
  });
  say(`Scale and origin saved: ${pixelsPerMetre} pixels a metre.`);
}

async function setOrigin(point) {
  const g = currentGeometry();
  await patchScale({ metresPerPixel: g.metresPerPixel, originX: point.x, originY: point.y });
  say(`Origin set at pixel (${point.x.toFixed(0)}, ${point.y.toFixed(0)}).`);
}

async function patchScale(scale) {
  const floor = await api.patch(`/v1/floors/${state.floor.id}`, { scale });
  state.floor = floor;
  state.floors = state.floors.map((f) => (f.id === floor.id ? floor : f));
  renderAll();
}

// ---- locations ----

async function addLocation(x, y) {
  const roomID = Number.parseInt($('room-select').value, 10);
  if (!Number.isFinite(roomID)) throw new Error('Add a room first: new locations go in a room.');
  const round = (v) => Math.round(v * 100) / 100;
  const location = await api.post('/v1/locations', { roomID, x: round(x), y: round(y) });
  state.chosen = location.id;
  await loadFloorContents();
  say(`Location "${location.name}" added and chosen.`);
}

async function addLocationFromForm(event) {
  event.preventDefault();
  await addLocation(Number.parseFloat($('location-x').value), Number.parseFloat($('location-y').value));
}

async function deleteLocation(location) {
  if (!await confirmAction(`Delete location "${location.name}" with its measurements and links?`)) return;
  await api.delete(`/v1/locations/${location.id}`);
  if (state.chosen === location.id) state.chosen = null;
  await loadFloorContents();
  say(`Location "${location.name}" deleted.`);
}

function choose(id) {
  state.chosen = id;
  $('link-from').value = String(id);
  renderLocations();
  renderPlan();
}

// ---- the plan ----

async function tapPlan(event) {
  if (!state.floor || event.button !== 0) return;
  const tool = currentTool();
  const locationID = Number.parseInt(event.target.dataset?.locationId ?? '', 10);
  const point = eventPoint($('plan'), event);
  if (Number.isFinite(locationID) && (tool === 'select' || tool === 'link' || tool === 'add')) {
    if (tool !== 'link') {
      choose(locationID);
      return;
    }
    await links.tapLocation(locationID);
    return;
  }
  if (tool === 'add') {
    const metres = toMetres(currentGeometry(), point.x, point.y);
    await addLocation(metres.x, metres.y);
  } else if (tool === 'scale') {
    state.marks = state.marks.length >= 2 ? [point] : [...state.marks, point];
    $('scale-form').hidden = state.marks.length !== 2;
    if (state.marks.length === 2) $('scale-distance').focus();
    renderPlan();
  } else if (tool === 'origin') {
    await setOrigin(point);
  } else if (tool === 'geo') {
    geoReference.mark(toMetres(currentGeometry(), point.x, point.y));
  } else if (tool === 'scanner') {
    await placements.placeAt(metresAt(currentGeometry(), point));
  } else if (tool === 'beacon') {
    await beacons.addAt(metresAt(currentGeometry(), point));
  } else if (tool === 'outline') {
    rooms.addCorner(metresAt(currentGeometry(), point));
  } else if (tool === 'reference') {
    await tags.recordAt(metresAt(currentGeometry(), point));
  }
}

function currentTool() {
  return document.querySelector('input[name="tool"]:checked').value;
}

function toolChanged() {
  const tool = currentTool();
  links.first = null;
  if (tool !== 'scale') {
    state.marks = [];
    $('scale-form').hidden = true;
  }
  const hints = {
    select: 'Tap a location to choose it for a survey or a route.',
    add: 'Tap the plan where the scanner will stand: a location is made in the chosen room.',
    link: 'Tap one location, then another, to link them. For another floor, use the lists under "Links and routes".',
    scale: 'Tap two points whose real distance you know, then type it.',
    origin: 'Tap the point that is x = 0 m, y = 0 m.',
    geo: 'Tap a spot whose latitude and longitude you know, then type them; three or more spots, then save.',
    scanner: 'Tap where the scanner chosen under Scanners stands (its height and offset come from there). Drag a square to move a scanner.',
    beacon: 'Tap where a new beacon hangs: its UUID, major, minor and power come from the Beacons card. Drag a diamond to move a beacon.',
    outline: 'Tap the corners of the room chosen under Rooms, in order around it, then "Save outline". Drag a corner of a saved outline to move it.',
    reference: 'Hold the tag chosen with "Record here" under Tags still, and tap where it is: the scanners\' next windows of it become a fingerprint there.',
  };
  $('plan-hint').textContent = hints[tool];
  renderPlan();
}

// ---- wiring ----

function wire() {
  on('sign-in-form', 'submit', signIn);
  on('sign-out', 'click', () => signOut('Signed out.'));
  on('floor-select', 'change', () => showFloor(state.floors.find((f) => String(f.id) === $('floor-select').value) || null));
  on('floor-form', 'submit', createFloor);
  on('floor-rename', 'click', renameFloor);
  on('floor-delete', 'click', deleteFloor);
  on('plan-file', 'change', uploadPlan);
  on('scale-form', 'submit', saveScale);
  on('scale-typed-form', 'submit', saveTypedScale);
  on('location-form', 'submit', addLocationFromForm);
  on('walk-start', 'click', async () => { await walks.start($('scanner-select').value, state.chosen); renderLocations(); });
  on('walk-arrived', 'click', () => walks.arrived());
  on('coverage-refresh', 'click', reloadCoverage);
  on('emitter-select', 'change', () => { updateHeat(); renderPlan(); });
  on('scanners-refresh', 'click', async () => { await loadScanners(); renderPlan(); });
  on('enrol-form', 'submit', (event) => { event.preventDefault(); return scanners.enrol($('enrol-scanner').value.trim()); });
  on('dashboard-refresh', 'click', () => showDashboard(api));
  on('visitor-link-make', 'click', () => makeVisitorLink(api));
  // Before the plan's tap: a press on a scanner's square or a beacon's diamond is theirs.
  // A room's corner is dragged with the outline tool only (and a press on it draws no new corner).
  wireDrag($('plan'), {
    enabled: () => ['select', 'scanner', 'beacon', 'outline'].includes(currentTool()),
    grabs: (mark) => (mark.kind === 'corner') === (currentTool() === 'outline'),
    tap: (mark) => {
      if (mark.kind === 'corner') {
        // A tap on a saved corner takes that corner as the next one: rooms share walls exactly.
        const [roomID, index] = mark.id.split(':').map(Number);
        return rooms.addSavedCorner(roomID, index);
      }
      return mark.kind === 'scanner' ? placements.choose(mark.id) : beacons.choose(mark.id);
    },
    drop: (mark, point) => {
      const metres = metresAt(currentGeometry(), point);
      if (mark.kind === 'corner') {
        const [roomID, index] = mark.id.split(':').map(Number);
        return rooms.moveCorner(roomID, index, metres);
      }
      return mark.kind === 'scanner' ? placements.move(mark.id, metres) : beacons.move(mark.id, metres);
    },
    guard,
  });
  on('plan', 'pointerup', tapPlan);
  // Each change of the control points is drawn on the plan at once.
  on('geo-form', 'submit', (event) => { geoReference.addTyped(event); renderPlan(); });
  on('geo-save', 'click', async () => { await geoReference.save(); renderPlan(); });
  on('geo-forget', 'click', async () => { await geoReference.forget(); renderPlan(); });
  for (const radio of document.querySelectorAll('input[name="tool"]')) radio.addEventListener('change', toolChanged);
  toolChanged();
}

wire();
renderLegend();
if (sessionStorage.getItem(TOKEN_KEY)) {
  guard(showApp)();
} else {
  $('token').focus();
}
