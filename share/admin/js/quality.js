// Survey quality on the plan: each location's class by the expected error switchd estimated for
// it (leave-one-location-out, carried in the radio map as `expectedError`), and where to survey
// next. docs/survey-quality.md states both rules.

/** Upper bounds, metres, of the expected-error bands; above the last is `high`. */
export const ERROR_BANDS = [
  { name: 'low', upTo: 2.5 },
  { name: 'mid', upTo: 5 },
];

/** The gap-search grid has about this many steps along the longer side of the surveyed area. */
const GRID_STEPS = 60;

/**
 * How a location is rated from its radio-map entry: `none` (no readings), `unrated` (readings but
 * no expected error: nothing else surveyed to judge it against), else the band of its expected error.
 */
export function quality(entry) {
  if (!entry || entry.scans.length === 0) return 'none';
  if (!entry.expectedError) return 'unrated';
  const band = ERROR_BANDS.find((b) => entry.expectedError.metres <= b.upTo);
  return band ? band.name : 'high';
}

/** A legend line per class, in the order shown. */
export function legend() {
  return [
    { name: 'none', text: 'not surveyed' },
    { name: 'unrated', text: 'surveyed, not rated yet (survey a second location)' },
    { name: 'low', text: `≤ ${ERROR_BANDS[0].upTo} m` },
    { name: 'mid', text: `${ERROR_BANDS[0].upTo}–${ERROR_BANDS[1].upTo} m` },
    { name: 'high', text: `over ${ERROR_BANDS[1].upTo} m` },
  ];
}

/**
 * Where a survey would most cut the expected error on this floor, or null with no location:
 * `{x, y, location | null, metres | null, reason}`.
 *
 * 1. A location marked but not surveyed comes first: the one farthest from every surveyed one.
 * 2. Else every point of a grid over the box around the floor's locations is given the error a
 *    fix there is expected to have, √(d² + e²), d being the distance to the nearest rated
 *    location and e that location's expected error; the largest wins: a rated location whose
 *    own error is the worst (d = 0), or the middle of the widest gap in the survey.
 * 3. With no rated location (one location surveyed), add and survey a second one.
 *
 * `locations`: this floor's locations `{id, name, x, y}`; `entryOf(id)`: its radio-map entry.
 */
export function suggestNextSurvey(locations, entryOf) {
  if (locations.length === 0) return null;
  const surveyed = locations.filter((l) => quality(entryOf(l.id)) !== 'none');
  const unsurveyed = locations.filter((l) => quality(entryOf(l.id)) === 'none');
  if (unsurveyed.length > 0) {
    const gap = (l) => Math.min(Infinity, ...surveyed.map((s) => Math.hypot(s.x - l.x, s.y - l.y)));
    const farthest = unsurveyed.reduce((best, l) => (gap(l) > gap(best) ? l : best));
    return { x: farthest.x, y: farthest.y, location: farthest, metres: null, reason: 'not surveyed yet' };
  }
  const rated = locations.map((l) => ({ l, e: entryOf(l.id)?.expectedError?.metres })).filter((r) => r.e !== undefined);
  if (rated.length === 0) return { x: locations[0].x, y: locations[0].y, location: null, metres: null, reason: 'survey a second location to rate this one' };
  const xs = locations.map((l) => l.x);
  const ys = locations.map((l) => l.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const step = Math.max(maxX - minX, maxY - minY) / GRID_STEPS || 1;
  const expectedAt = (x, y) => {
    let best = null;
    for (const r of rated) {
      const d = Math.hypot(r.l.x - x, r.l.y - y);
      if (!best || d < best.d) best = { d, r };
    }
    return { metres: Math.hypot(best.d, best.r.e), at: best.d === 0 ? best.r.l : null };
  };
  // Rated locations first, so that a tie keeps a location (surveyed again on the spot) over a grid point.
  let worst = null;
  const consider = (x, y) => {
    const here = expectedAt(x, y);
    if (!worst || here.metres > worst.metres) worst = { x, y, location: here.at, metres: here.metres };
  };
  for (const r of rated) consider(r.l.x, r.l.y);
  for (let i = 0; minX + i * step <= maxX + step / 2; i += 1) {
    for (let j = 0; minY + j * step <= maxY + step / 2; j += 1) consider(minX + i * step, minY + j * step);
  }
  worst.reason = worst.location ? 'the highest expected error' : 'the widest gap between surveyed locations';
  return worst;
}

/** While switchd is still estimating, the radio map is fetched again after this long (ms)… */
export const ESTIMATE_RETRY_MS = 3000;
/** …at most this many times in a row (about five minutes, more than one estimate of a large survey takes). */
export const ESTIMATE_RETRIES = 100;

/**
 * True while the map is likely to gain expected errors: switchd estimates them in the background
 * and serves the map without them until done (docs/survey-quality.md), so a map with two or more
 * surveyed locations, one of them unrated, is worth fetching again.
 */
export function awaitingEstimate(radioMap) {
  const surveyed = (radioMap?.locations ?? []).filter((l) => l.scans.length > 0);
  return surveyed.length >= 2 && surveyed.some((l) => !l.expectedError);
}
