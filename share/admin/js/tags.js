// The tags card: every tag tracked from fixed scanners with its latest position, and, for the
// tag picked, its last sightings (GET /v1/tags/{id}/sightings: which scanner heard it, when, how
// strongly — the "last seen" view).

import { tagWhere } from './format.js';

const $ = (id) => document.getElementById(id);

function item(text, attributes = {}) {
  const li = Object.assign(document.createElement('li'), { textContent: text });
  for (const [key, value] of Object.entries(attributes)) li.dataset[key] = value;
  return li;
}

/** Lists `tags` with their latest position (`positions`: tag ID → position); picking one shows its sightings. */
export function renderTags(api, tags, positions) {
  const list = $('tag-list');
  list.replaceChildren(...tags.map((tag) => {
    const position = positions.get(tag.id);
    const where = tagWhere(position);
    const li = item(`${tag.name}${tag.missing ? ' (missing)' : ''}: ${where} `, { tagId: String(tag.id) });
    const button = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Last seen' });
    button.addEventListener('click', () => showSightings(api, tag).catch((error) => {
      $('tag-sightings').replaceChildren(item(`Sightings not shown: ${error.message}`));
    }));
    li.append(button);
    return li;
  }));
  if (tags.length === 0) list.replaceChildren(item('No tags yet (POST /v1/tags).'));
}

/** Fetches the tag's ten latest sightings, newest first, into the card. */
export async function showSightings(api, tag) {
  const sightings = await api.get(`/v1/tags/${tag.id}/sightings?limit=10`);
  $('tag-sightings-h').textContent = `Last seen: ${tag.name}`;
  $('tag-sightings').replaceChildren(...sightings.map((s) => item(
    `${new Date(s.windowEnd).toLocaleTimeString()} by ${s.scannerID}: ${s.count}× median ${s.medianRSSI} dBm, strongest ${s.maxRSSI}`,
    { scannerId: s.scannerID },
  )));
  if (sightings.length === 0) $('tag-sightings').replaceChildren(item('Never heard.'));
}
