// The dashboard card (counts, fleet health, recent activity, dwell per room and item) and the
// visitor link.

import { fleetHealthLines } from './format.js';

const $ = (id) => document.getElementById(id);

function cell(tag, text) {
  return Object.assign(document.createElement(tag), { textContent: text });
}

/** Fleet health lines shown at most; a site with many more says how many. */
const HEALTH_LINES = 20;

function minutes(seconds) {
  return seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
}

/** A table of dwell figures, most visited first. */
function dwellRows(places) {
  return [...places].sort((a, b) => b.visits - a.visits || a.name.localeCompare(b.name)).map((place) => {
    const row = document.createElement('tr');
    row.dataset.id = String(place.id);
    row.dataset.visits = String(place.visits);
    row.append(cell('td', place.name), cell('td', String(place.visits)), cell('td', minutes(place.seconds)));
    return row;
  });
}

/**
 * Fetches `GET /v1/dashboard` and fills the card, with the fleet's health from `GET /v1/scanners`
 * and `GET /v1/beacons`: offline scanners and beacons that need a look (docs/fleet-health.md).
 */
export async function showDashboard(api) {
  // The counts are shown even when the fleet's health cannot be read (said in its place).
  const [board, health] = await Promise.all([
    api.get('/v1/dashboard'),
    Promise.all([api.all('/v1/scanners'), api.all('/v1/beacons')]).then(([scanners, beacons]) => fleetHealthLines(scanners, beacons))
      .catch((error) => [{ kind: 'unread', id: '', text: `The fleet's health could not be read: ${error.message}` }]),
  ]);
  const shown = health.slice(0, HEALTH_LINES).map((line) => {
    const item = cell('li', line.text);
    item.dataset.health = line.kind;
    item.dataset.id = String(line.id);
    item.classList.add('warning');
    return item;
  });
  if (health.length > HEALTH_LINES) shown.push(cell('li', `… and ${health.length - HEALTH_LINES} more (the Scanners and Beacons cards list them all)`));
  $('dashboard-health').replaceChildren(...(shown.length ? shown : [cell('li', 'Every scanner is online and no beacon needs a look.')]));
  const c = board.counts;
  const counts = [
    ['scanners-online', `${c.scannersOnline} of ${c.scanners}`, 'scanners online'],
    ['readings-today', String(c.readingsToday), 'readings today'],
    ['positions-today', String(c.positionsToday), 'positions today'],
    ['locations-surveyed', `${c.locationsSurveyed} of ${c.locations}`, 'locations surveyed'],
  ];
  $('dashboard-counts').replaceChildren(...counts.map(([key, value, label]) => {
    const item = document.createElement('li');
    item.dataset.count = key;
    item.append(cell('strong', value), document.createTextNode(` ${label}`));
    return item;
  }));
  $('dashboard-recent').replaceChildren(...board.recent.map((entry) => {
    const item = cell('li', `${new Date(entry.time).toLocaleTimeString()} ${entry.scannerID}: ${entry.summary}`);
    item.dataset.kind = entry.kind;
    return item;
  }));
  $('dwell-rooms').replaceChildren(...dwellRows(board.dwell.rooms));
  $('dwell-items').replaceChildren(...dwellRows(board.dwell.items));
  $('dashboard').dataset.loaded = board.time;
}

/**
 * Issues a visitor token (positions, the plan, rooms, routes and items only) named "visitor" and shows the visitor page's address carrying it in the
 * fragment (never sent to a server, so it stays out of logs and Referer headers).
 */
export async function makeVisitorLink(api) {
  const issued = await api.post('/v1/tokens', { role: 'visitor', name: 'visitor' });
  const link = new URL(api.url('visit/')); // beside the admin page, under any proxy's prefix
  link.hash = `token=${encodeURIComponent(issued.token)}`;
  const field = $('visitor-link');
  field.value = link.href;
  field.hidden = false;
  $('visitor-link-info').textContent = `Token ${issued.info.id} ("visitor", visitor role). Revoke it to close the link.`;
}
