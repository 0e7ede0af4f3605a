// The RSSI heat map of one emitter: inverse-distance weighting of the survey's per-location
// means over a coarse grid, painted into an image the plan stretches over the floor.

/** dBm drawn at the cold and the hot end of the colour scale. */
export const COLD = -95;
export const HOT = -35;

function colour(rssi) {
  const t = Math.min(1, Math.max(0, (rssi - COLD) / (HOT - COLD)));
  // blue → cyan → green → yellow → red
  const stops = [[49, 54, 149], [69, 177, 222], [102, 189, 99], [254, 224, 76], [215, 48, 39]];
  const scaled = t * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(scaled));
  const f = scaled - i;
  return stops[i].map((c, k) => Math.round(c + (stops[i + 1][k] - c) * f));
}

/**
 * A data: URL of the heat image, or null when no point is given.
 * @param {{x: number, y: number, rssi: number}[]} points in pixels of the plan
 * @param {{width: number, height: number}} size of the plan in pixels
 */
export function heatImage(points, size, columns = 80) {
  if (points.length === 0) return null;
  const rows = Math.max(1, Math.round(columns * size.height / size.width));
  const canvas = document.createElement('canvas');
  canvas.width = columns;
  canvas.height = rows;
  const context = canvas.getContext('2d');
  const image = context.createImageData(columns, rows);
  const cellW = size.width / columns;
  const cellH = size.height / rows;
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      const x = (column + 0.5) * cellW;
      const y = (row + 0.5) * cellH;
      let weights = 0;
      let sum = 0;
      for (const p of points) {
        const d2 = (p.x - x) ** 2 + (p.y - y) ** 2 + 1;
        const w = 1 / d2;
        weights += w;
        sum += w * p.rssi;
      }
      const [r, g, b] = colour(sum / weights);
      const at = (row * columns + column) * 4;
      image.data[at] = r;
      image.data[at + 1] = g;
      image.data[at + 2] = b;
      image.data[at + 3] = 200;
    }
  }
  context.putImageData(image, 0, 0);
  return canvas.toDataURL('image/png');
}
