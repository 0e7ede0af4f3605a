// The dashboard card (counts, recent activity, dwell per room and item) and the visitor link.

const $ = (id) => document.getElementById(id);

function cell(tag, text) {
  return Object.assign(document.createElement(tag), { textContent: text });
}

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

/** Fetches `GET /v1/dashboard` and fills the card. */
export async function showDashboard(api) {
  const board = await api.get('/v1/dashboard');
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
