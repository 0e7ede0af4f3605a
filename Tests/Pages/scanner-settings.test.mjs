// How the admin page reads and shows scanner settings (share/admin/js/scanner-settings.js).
// Run with `scripts/admin-js-test`.
import assert from 'node:assert/strict';
import test from 'node:test';
import { settingsFromValues, settingsLine, valuesFromSettings } from '../../share/admin/js/scanner-settings.js';

test('an empty field inherits; numbers and listen are typed; the rest is sent as typed', () => {
  assert.deepEqual(settingsFromValues({ bleScan: 'active', bleWindowMs: ' 40 ', bleIntervalMs: '', listen: 'false', logLevel: '' }),
    { bleScan: 'active', bleWindowMs: 40, listen: false });
  assert.deepEqual(settingsFromValues({ bleWindowMs: 'wide' }), { bleWindowMs: 'wide' }, 'left for switchd to refuse, naming it');
  assert.deepEqual(settingsFromValues({}), {});
});

test('stored settings fill the form and come back unchanged', () => {
  const stored = { bleScan: 'passive', bleIntervalMs: 2.5, wifiScanPeriodS: 0, listen: true, logLevel: 'debug' };
  const values = valuesFromSettings(stored);
  assert.equal(values.bleWindowMs, '');
  assert.equal(values.wifiScanPeriodS, '0');
  assert.deepEqual(settingsFromValues(values), stored);
  assert.deepEqual(settingsFromValues(valuesFromSettings(undefined)), {});
});

test('the line says what is asked, what is applied and what is not', () => {
  assert.equal(settingsLine({}), 'settings: its own TOML');
  assert.equal(settingsLine({ settingsRevision: 3, appliedRevision: 3, unappliedSettings: {} }), 'settings revision 3, applied');
  assert.equal(settingsLine({ settingsRevision: 4, appliedRevision: 3, unappliedSettings: { listen: 'needs --listen' } }),
    'settings revision 4, applied revision 3; listen not applied: needs --listen');
  assert.equal(settingsLine({ settingsRevision: 4 }), 'settings revision 4, applied none yet');
});
