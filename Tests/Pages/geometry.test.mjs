// The admin page's plan geometry (share/admin/js/geometry.js): pixels ↔ metres, rounding, and
// when a pointer's move is a drag. Run with `scripts/admin-js-test`.
import assert from 'node:assert/strict';
import test from 'node:test';
import { centimetres, DEFAULT_METRES_PER_PIXEL, geometry, isDrag, metresAt, toMetres, toPixels } from '../../share/admin/js/geometry.js';

test('a floor without a scale gets the default, origin top left, over the blank drawing', () => {
  const g = geometry(null, null);
  assert.deepEqual(g, { width: 1000, height: 600, metresPerPixel: DEFAULT_METRES_PER_PIXEL, originX: 0, originY: 0, scaled: false });
});

test('a scaled floor maps metres to pixels and back', () => {
  const g = geometry({ scale: { metresPerPixel: 0.1, originX: 40, originY: 380 } }, { width: 800, height: 400 });
  assert.equal(g.scaled, true);
  assert.deepEqual(toPixels(g, 10, -5), { x: 140, y: 330 });
  const back = toMetres(g, 140, 330);
  assert.ok(Math.abs(back.x - 10) < 1e-9 && Math.abs(back.y + 5) < 1e-9);
});

test('metresAt rounds to the centimetre', () => {
  const g = geometry(null, null);
  assert.deepEqual(metresAt(g, { x: 123.456, y: 7.891 }), { x: 6.17, y: 0.39 });
  assert.equal(centimetres(-1.005), -1);
});

test('a move under the threshold is a tap, at or over it a drag', () => {
  assert.equal(isDrag({ x: 0, y: 0 }, { x: 2, y: 2 }), false);
  assert.equal(isDrag({ x: 0, y: 0 }, { x: 3, y: 4 }), true);
  assert.equal(isDrag({ x: 0, y: 0 }, { x: 3, y: 4 }, 6), false);
});
