// The visitor's plan: the image, the items, the route on this floor and where the visitor is,
// in one SVG in image pixels (the admin page's geometry).

import { drawBase, element, geometry, toPixels } from '../../admin/js/plan.js';

export { geometry };

/**
 * Redraws `svg` from `view`: { geometry, imageURL, items: [{id, name, x, y, nearest}],
 * route: [[{x, y}]] (runs of points on this floor), destination: {x, y} | null,
 * position: {x, y, accuracyMetres} | null }.
 */
export function drawMap(svg, view) {
  const g = view.geometry;
  const unit = drawBase(svg, g, view.imageURL);
  view.route.forEach((run, index) => {
    if (run.length < 2) return;
    const points = run.map((point) => toPixels(g, point.x, point.y)).map((p) => `${p.x},${p.y}`).join(' ');
    element('polyline', { class: 'route', points, id: `route-line-${index}` }, svg);
  });
  if (view.destination) {
    const p = toPixels(g, view.destination.x, view.destination.y);
    element('circle', { class: 'destination', id: 'destination-dot', cx: p.x, cy: p.y, r: unit * 1.2 }, svg);
  }
  for (const item of view.items) {
    const p = toPixels(g, item.x, item.y);
    const dot = element('circle', {
      class: item.nearest ? 'item nearest' : 'item', cx: p.x, cy: p.y, r: unit, id: `item-dot-${item.id}`, 'data-item-id': item.id,
    }, svg);
    element('title', {}, dot).textContent = item.name;
    element('text', { class: 'label', x: p.x + unit * 1.3, y: p.y - unit * 0.7 }, svg).textContent = item.name;
  }
  if (view.position) {
    const p = toPixels(g, view.position.x, view.position.y);
    element('circle', { class: 'accuracy', id: 'position-accuracy', cx: p.x, cy: p.y, r: Math.max(view.position.accuracyMetres / g.metresPerPixel, unit) }, svg);
    element('circle', { class: 'position', id: 'position-dot', cx: p.x, cy: p.y, r: unit * 0.9 }, svg);
  }
}
