// A survey's progress as the page follows it: pure, no DOM (unit-tested by
// Tests/Pages/survey-state.test.mjs). survey.js feeds it the live feed's readings and switch
// changes and shows what it says.

/** A survey of `location` for `target` scans, before the switch is turned on. */
export function newSurvey(location, target) {
  return {
    location, target, revision: null, latestSwitch: null,
    samples: 0, aps: new Set(), beacons: new Set(), scansCompleted: 0, scansSeen: 0, done: false, stoppedBy: null,
  };
}

/** Counts a stored reading of the survey's scanner; readings at another location are not its. */
export function countReading(s, m) {
  if (m.locationID !== s.location.id) return false;
  s.samples += 1;
  if (m.kind === 'wifi' || m.bssid) s.aps.add(m.bssid);
  else s.beacons.add(`${m.uuid}/${m.major}/${m.minor}`);
  if (Number.isInteger(m.scan)) s.scansSeen = Math.max(s.scansSeen, m.scan + 1);
  return true;
}

/**
 * Takes the latest switch (`s.latestSwitch`) into account: its scans completed count from the
 * survey's revision on, and a later revision that is not scanning ends it. Returns true when
 * this call ended the survey.
 */
export function applySwitch(s) {
  const sw = s.latestSwitch;
  if (!sw || s.revision === null || s.done) return false;
  if (sw.revision >= s.revision) s.scansCompleted = Math.max(s.scansCompleted, sw.scansCompleted || 0);
  if (sw.revision > s.revision && !sw.scanning) {
    s.done = true;
    s.stoppedBy = sw.stoppedBy || 'turnedOff';
    return true;
  }
  return false;
}

/** The survey's progress: scans of the target, and the line the admin reads. */
export function progress(s) {
  const scans = Math.min(Math.max(s.scansCompleted, s.scansSeen), s.target);
  const heard = `${s.samples} samples, ${s.aps.size} access points, ${s.beacons.size} beacons heard`;
  const text = s.done
    ? `Done: ${s.location.name} surveyed (${s.stoppedBy === 'stopCondition' ? 'stop condition reached' : 'turned off'}) — ${heard}.`
    : `Surveying ${s.location.name}: scan ${scans} of ${s.target}; ${heard}.`;
  return { scans, text };
}
