// Plan pixels ↔ floor metres: pure, no DOM (unit-tested by Tests/Pages/geometry.test.mjs).

/** Size of the drawing when the floor has no plan image, and the scale assumed until one is set. */
export const BLANK = { width: 1000, height: 600 };
export const DEFAULT_METRES_PER_PIXEL = 0.05;

/**
 * How pixels of the drawing map to metres on the floor: the floor's scale when set, else the
 * default (20 pixels a metre, origin at the top left).
 */
export function geometry(floor, imageSize) {
  const size = imageSize || BLANK;
  const scale = floor && floor.scale;
  return {
    width: size.width,
    height: size.height,
    metresPerPixel: scale ? scale.metresPerPixel : DEFAULT_METRES_PER_PIXEL,
    originX: scale ? scale.originX : 0,
    originY: scale ? scale.originY : 0,
    scaled: Boolean(scale),
  };
}

export function toPixels(g, x, y) {
  return { x: g.originX + x / g.metresPerPixel, y: g.originY + y / g.metresPerPixel };
}

export function toMetres(g, px, py) {
  return { x: (px - g.originX) * g.metresPerPixel, y: (py - g.originY) * g.metresPerPixel };
}

/** A length in metres to the centimetre, as the page sends positions. */
export function centimetres(value) {
  return Math.round(value * 100) / 100;
}

/** The point in metres, to the centimetre, under the pixel point `p`. */
export function metresAt(g, p) {
  const m = toMetres(g, p.x, p.y);
  return { x: centimetres(m.x), y: centimetres(m.y) };
}

/** Whether a pointer moved far enough (pixels of the screen) to be a drag and not a tap. */
export function isDrag(start, end, threshold = 4) {
  return Math.hypot(end.x - start.x, end.y - start.y) >= threshold;
}
