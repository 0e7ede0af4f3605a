// A survey's progress as the admin page follows it (share/admin/js/survey-state.js): readings
// counted, the switch's scans taken from the survey's revision on, its end by a later revision
// that stopped scanning. Run with `scripts/admin-js-test`.
import assert from 'node:assert/strict';
import test from 'node:test';
import { applySwitch, countReading, newSurvey, progress } from '../../share/admin/js/survey-state.js';

const hall = { id: 3, name: 'Hall <b>1</b>' };

test('readings of the location are counted by kind; others are not the survey\'s', () => {
  const s = newSurvey(hall, 4);
  assert.equal(countReading(s, { locationID: 9, kind: 'wifi', bssid: 'aa' }), false);
  assert.equal(countReading(s, { locationID: 3, kind: 'wifi', bssid: 'aa', scan: 0 }), true);
  countReading(s, { locationID: 3, kind: 'wifi', bssid: 'aa', scan: 1 });
  countReading(s, { locationID: 3, kind: 'ble', uuid: 'u', major: 1, minor: 2, scan: 1 });
  assert.equal(s.samples, 3);
  assert.equal(s.aps.size, 1);
  assert.equal(s.beacons.size, 1);
  assert.deepEqual(progress(s), { scans: 2, text: 'Surveying Hall <b>1</b>: scan 2 of 4; 3 samples, 1 access points, 1 beacons heard.' });
});

test('the switch counts only from the survey\'s revision; a later one not scanning ends it, once', () => {
  const s = newSurvey(hall, 4);
  s.latestSwitch = { revision: 7, scanning: true, scansCompleted: 3 };
  assert.equal(applySwitch(s), false, 'no revision yet: the switch is not the survey\'s');
  s.revision = 8;
  assert.equal(applySwitch(s), false);
  assert.equal(s.scansCompleted, 0, 'an earlier revision\'s scans are not this survey\'s');
  s.latestSwitch = { revision: 8, scanning: true, scansCompleted: 2 };
  applySwitch(s);
  assert.equal(progress(s).scans, 2);
  s.latestSwitch = { revision: 9, scanning: false, scansCompleted: 9, stoppedBy: 'stopCondition' };
  assert.equal(applySwitch(s), true);
  assert.equal(applySwitch(s), false, 'an ended survey ends once');
  assert.equal(progress(s).scans, 4, 'never past the target');
  assert.equal(progress(s).text, 'Done: Hall <b>1</b> surveyed (stop condition reached) — 0 samples, 0 access points, 0 beacons heard.');
  const off = newSurvey(hall, 4);
  off.revision = 1;
  off.latestSwitch = { revision: 2, scanning: false };
  applySwitch(off);
  assert.match(progress(off).text, /\(turned off\)/);
});
