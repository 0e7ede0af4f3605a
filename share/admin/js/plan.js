// Drawing the floor plan: the image, the heat map, links, the route, locations coloured by
// expected error, where to survey next, the scale marks and the live position, all in one SVG in
// image pixels.

import { toPixels } from './geometry.js';

const SVG = 'http://www.w3.org/2000/svg';

// The plan's geometry lives in geometry.js (pure, unit-tested); re-exported for the page.
export { BLANK, DEFAULT_METRES_PER_PIXEL, geometry, toMetres, toPixels } from './geometry.js';

/** The point of the drawing under a pointer event. */
export function eventPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const matrix = svg.getScreenCTM();
  return matrix ? point.matrixTransform(matrix.inverse()) : { x: 0, y: 0 };
}

/** A new SVG element with `attributes`, appended to `parent` when given. */
export function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * Empties `svg` (keeping its title) and draws the floor: the plan image, or a metre grid without
 * one. Returns the drawing's unit for marks, a hundredth of its longer side.
 */
export function drawBase(svg, g, imageURL) {
  svg.setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
  for (const node of [...svg.childNodes]) {
    if (node.nodeName !== 'title') svg.removeChild(node);
  }
  element('rect', { x: 0, y: 0, width: g.width, height: g.height, fill: '#fff' }, svg);
  if (imageURL) {
    element('image', { href: imageURL, x: 0, y: 0, width: g.width, height: g.height, preserveAspectRatio: 'none' }, svg);
  } else {
    const grid = element('g', { class: 'grid' }, svg);
    const step = 1 / g.metresPerPixel; // a metre
    for (let x = g.originX % step; x < g.width; x += step) element('line', { x1: x, y1: 0, x2: x, y2: g.height }, grid);
    for (let y = g.originY % step; y < g.height; y += step) element('line', { x1: 0, y1: y, x2: g.width, y2: y }, grid);
  }
  return Math.max(g.width, g.height) / 100;
}

/**
 * Redraws everything from `view`:
 * { geometry, imageURL, heatURL, locations: [{location, coverage, detail, chosen, surveying}],
 *   suggestion: {x, y, reason} | null (where to survey next, metres),
 *   links: [{from, to}] (same-floor locations), route: [locations], marks: [{x, y}] (pixels),
 *   position: {x, y, accuracyMetres} | null,
 *   fixedScanners: [{scannerID, x, y, receiveOffset, watchedLeftOut}] (this floor's placements; watchedLeftOut
 *     beacons their watched list leaves out, outlined when any),
 *   beacons: [{id, x, y, label, chosen}] (this floor's registered beacons, diamonds),
 *   tags: [{tag, position}] (tags whose latest position is on this floor),
 *   rooms: {outlines: [{roomID, name, corners: [[x, y]]}], draft: [[x, y]]} (metres; the rooms'
 *     outlines, their corners draggable, and the outline being drawn) }
 */
export function draw(svg, view) {
  const g = view.geometry;
  const unit = drawBase(svg, g, view.imageURL);
  if (view.heatURL) {
    element('image', { href: view.heatURL, x: 0, y: 0, width: g.width, height: g.height, preserveAspectRatio: 'none', opacity: 0.6, 'data-testid': 'heatmap', id: 'heatmap' }, svg);
  }
  drawOutlines(svg, g, unit, view.rooms);
  const origin = element('g', { class: 'origin' }, svg);
  element('line', { x1: g.originX - unit, y1: g.originY, x2: g.originX + unit, y2: g.originY }, origin);
  element('line', { x1: g.originX, y1: g.originY - unit, x2: g.originX, y2: g.originY + unit }, origin);

  for (const link of view.links) {
    const a = toPixels(g, link.from.x, link.from.y);
    const b = toPixels(g, link.to.x, link.to.y);
    element('line', { class: 'link', x1: a.x, y1: a.y, x2: b.x, y2: b.y }, svg);
  }
  if (view.route.length > 1) {
    const points = view.route.map((l) => toPixels(g, l.x, l.y)).map((p) => `${p.x},${p.y}`).join(' ');
    element('polyline', { class: 'route', points, id: 'route-line' }, svg);
  }
  if (view.marks.length === 2) {
    const [a, b] = view.marks;
    element('line', { class: 'scale-line', x1: a.x, y1: a.y, x2: b.x, y2: b.y }, svg);
  }
  for (const mark of view.marks) element('circle', { class: 'mark', cx: mark.x, cy: mark.y, r: unit * 0.6 }, svg);

  for (const item of view.locations) {
    const p = toPixels(g, item.location.x, item.location.y);
    const classes = ['location', item.coverage];
    if (item.chosen) classes.push('chosen');
    if (item.surveying) classes.push('surveying');
    const dot = element('circle', {
      class: classes.join(' '), cx: p.x, cy: p.y, r: unit * 1.1,
      'data-location-id': item.location.id, id: `location-dot-${item.location.id}`,
    }, svg);
    element('title', {}, dot).textContent = `${item.location.name} (${item.detail || item.coverage})`;
    element('text', { class: 'label', x: p.x + unit * 1.4, y: p.y - unit * 0.8 }, svg).textContent = item.location.name;
  }

  if (view.suggestion) {
    const p = toPixels(g, view.suggestion.x, view.suggestion.y);
    const ring = element('g', { class: 'survey-next', id: 'survey-next-mark' }, svg);
    element('circle', { cx: p.x, cy: p.y, r: unit * 2.2 }, ring);
    element('line', { x1: p.x - unit * 3, y1: p.y, x2: p.x - unit * 1.6, y2: p.y }, ring);
    element('line', { x1: p.x + unit * 1.6, y1: p.y, x2: p.x + unit * 3, y2: p.y }, ring);
    element('title', {}, ring).textContent = `Survey next: ${view.suggestion.reason}`;
  }

  for (const scanner of view.fixedScanners || []) {
    const p = toPixels(g, scanner.x, scanner.y);
    const size = unit * 1.6;
    const square = element('rect', {
      class: scanner.watchedLeftOut > 0 ? 'fixed-scanner left-out' : 'fixed-scanner', x: p.x - size / 2, y: p.y - size / 2, width: size, height: size,
      'data-scanner-id': scanner.scannerID, id: `fixed-scanner-${scanner.scannerID}`,
    }, svg);
    const leftOut = scanner.watchedLeftOut > 0 ? `; ${scanner.watchedLeftOut} beacons left out of the watched list` : '';
    element('title', {}, square).textContent = `${scanner.scannerID} (receive offset ${scanner.receiveOffset.toFixed(1)} dB${leftOut})`;
    element('text', { class: 'label', x: p.x + size, y: p.y + size / 3 }, svg).textContent = scanner.scannerID;
  }
  for (const beacon of view.beacons || []) {
    const p = toPixels(g, beacon.x, beacon.y);
    const r = unit * 1.1;
    const diamond = element('polygon', {
      class: beacon.chosen ? 'beacon chosen' : 'beacon', points: `${p.x},${p.y - r} ${p.x + r},${p.y} ${p.x},${p.y + r} ${p.x - r},${p.y}`,
      'data-beacon-id': beacon.id, id: `beacon-${beacon.id}`,
    }, svg);
    element('title', {}, diamond).textContent = `Beacon ${beacon.label}`;
    element('text', { class: 'label', x: p.x + unit * 1.4, y: p.y + unit * 0.4 }, svg).textContent = beacon.label;
  }
  for (const { tag, position } of view.tags || []) {
    const p = toPixels(g, position.x, position.y);
    const dot = element('circle', {
      class: tag.missing ? 'tag missing' : 'tag', cx: p.x, cy: p.y, r: unit * 0.8, 'data-tag-id': tag.id, id: `tag-dot-${tag.id}`,
    }, svg);
    element('title', {}, dot).textContent = `${tag.name}: ±${position.accuracyMetres.toFixed(1)} m, heard by ${position.scannersHeard}`;
    element('text', { class: 'label', x: p.x + unit, y: p.y + unit * 1.8 }, svg).textContent = tag.name;
  }

  if (view.position) {
    const p = toPixels(g, view.position.x, view.position.y);
    element('circle', { class: 'accuracy', id: 'position-accuracy', cx: p.x, cy: p.y, r: Math.max(view.position.accuracyMetres / g.metresPerPixel, unit) }, svg);
    element('circle', { class: 'position', id: 'position-dot', cx: p.x, cy: p.y, r: unit * 0.9 }, svg);
  }
}

/** The rooms' outlines under everything else, each corner a handle; the outline being drawn. */
function drawOutlines(svg, g, unit, rooms) {
  if (!rooms) return;
  const points = (corners) => corners.map(([x, y]) => toPixels(g, x, y));
  for (const outline of rooms.outlines) {
    const corners = points(outline.corners);
    const shape = element('polygon', {
      class: 'room-outline', points: corners.map((p) => `${p.x},${p.y}`).join(' '), 'data-outline-room-id': outline.roomID,
    }, svg);
    element('title', {}, shape).textContent = `Room ${outline.name}`;
    const middle = corners.reduce((sum, p) => ({ x: sum.x + p.x / corners.length, y: sum.y + p.y / corners.length }), { x: 0, y: 0 });
    element('text', { class: 'room-label', x: middle.x, y: middle.y }, svg).textContent = outline.name;
    corners.forEach((p, index) => {
      element('circle', {
        class: 'outline-corner', cx: p.x, cy: p.y, r: unit * 0.7, 'data-corner-id': `${outline.roomID}:${index}`, id: `outline-corner-${outline.roomID}-${index}`,
      }, svg);
    });
  }
  if (rooms.draft.length > 0) {
    const corners = points(rooms.draft);
    element('polyline', { class: 'outline-draft', id: 'outline-draft-line', points: [...corners, corners[0]].map((p) => `${p.x},${p.y}`).join(' ') }, svg);
    for (const p of corners) element('circle', { class: 'outline-draft-corner', cx: p.x, cy: p.y, r: unit * 0.6 }, svg);
  }
}
