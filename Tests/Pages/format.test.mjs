// How the admin page words switchd's answers and reads what the admin types
// (share/admin/js/format.js). Run with `scripts/admin-js-test`.
import assert from 'node:assert/strict';
import test from 'node:test';
import {
  beaconEventText, beaconLabel, contentLanguages, decibels, deliveryLine, fleetHealthLines, healthText, identityFromText, identityToText, metadataFromText,
  metadataToText, needsAttention, nextFreeMinor, offsetText, problemText, referenceLine, scannerLabel, tagWhere, webhookLine,
} from '../../share/admin/js/format.js';

test('a refusal names switchd message, code and field', () => {
  assert.equal(problemText({ message: 'must be at most 0', code: 'invalid_field', field: 'measuredPower' }),
    'must be at most 0 (invalid_field; field measuredPower)');
  assert.equal(problemText({ message: 'no such tag', code: 'not_found', field: null }), 'no such tag (not_found)');
  assert.equal(problemText(new Error('Choose a scanner first.')), 'Choose a scanner first.');
});

test('a beacon\'s battery and health are worded, and marked when they need a look', () => {
  assert.equal(healthText({}), '');
  const fine = { telemetry: { batteryMillivolts: 2950, batteryLow: false } };
  assert.equal(healthText(fine), 'battery 2950 mV');
  assert.equal(needsAttention(fine), false);
  const low = { telemetry: { batteryMillivolts: 2380, batteryLow: true }, health: { silent: false, faded: true } };
  assert.equal(healthText(low), 'battery 2380 mV (low), faded');
  assert.equal(needsAttention(low), true);
  const silent = { telemetry: { batteryLow: false }, health: { silent: true, faded: false } };
  assert.equal(healthText(silent), 'silent');
  assert.equal(needsAttention(silent), true);
});

test('the dashboard lists offline scanners, then beacons that need a look', () => {
  const scanners = [
    { id: 'pi-west', online: false, lastSeen: '2026-12-07T22:44:52.545Z' },
    { id: 'pi-east', online: true, lastSeen: '2026-12-07T22:45:00.589Z' },
    { id: 'pi-attic', online: false, lastSeen: null },
  ];
  const beacons = [
    { id: 2, uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e', major: 1, minor: 2, metadata: {}, telemetry: { batteryMillivolts: 2950, batteryLow: false } },
    { id: 1, uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e', major: 1, minor: 1, metadata: { name: 'Entrance' }, telemetry: { batteryMillivolts: 2380, batteryLow: true } },
    { id: 3, uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e', major: 1, minor: 3, metadata: {}, health: { silent: true, faded: false } },
  ];
  const lines = fleetHealthLines(scanners, beacons);
  assert.deepEqual(lines.map((line) => `${line.kind} ${line.id}`), ['scanner pi-attic', 'scanner pi-west', 'beacon 1', 'beacon 3']);
  assert.equal(lines[0].text, 'pi-attic: offline, never reported');
  assert.equal(lines[1].text, 'pi-west: offline, last heard 2026-12-07 22:44:52 UTC');
  assert.match(lines[2].text, /^Entrance.*: battery 2380 mV \(low\)$/);
  assert.match(lines[3].text, /: silent$/);
  assert.deepEqual(fleetHealthLines([{ id: 'pi-east', online: true }], [beacons[0]]), []);
});

test('decibels are signed, to the tenth', () => {
  assert.equal(decibels(1.54), '+1.5 dB');
  assert.equal(decibels(-6), '−6.0 dB');
  assert.equal(decibels(-0.01), '0.0 dB');
});

test('a placement says the offset in use, its estimate and the override', () => {
  assert.equal(offsetText({ receiveOffset: 0, calibrationSamples: 0 }),
    'Receive offset in use 0.0 dB (not estimated yet (no registered beacon heard)).');
  assert.equal(offsetText({ receiveOffset: 2, estimatedReceiveOffset: -5.96, calibrationSamples: 12, receiveOffsetOverride: 2 }),
    'Receive offset in use +2.0 dB (estimated −6.0 dB from 12 samples; overridden: +2.0 dB).');
});

test('metadata round-trips through its text, languages by suffix', () => {
  const metadata = { name: 'Old clock', 'content.fr': 'Une horloge = 1850', content: 'A clock from 1850.' };
  const text = metadataToText(metadata);
  assert.equal(text, 'content = A clock from 1850.\ncontent.fr = Une horloge = 1850\nname = Old clock');
  assert.deepEqual(metadataFromText(`${text}\n\n`), metadata);
  assert.deepEqual(contentLanguages(metadata), ['default', 'fr']);
  assert.deepEqual(metadataFromText(''), {});
});

test('metadata text with a line without "=", an empty key or a key twice is refused, naming the line', () => {
  assert.throws(() => metadataFromText('name = a\nno equals here'), /line 2/);
  assert.throws(() => metadataFromText(' = value'), /line 1/);
  assert.throws(() => metadataFromText('name = a\nname = b'), /"name" is given twice/);
});

test('tag identities are read from their typed text and written back', () => {
  assert.deepEqual(identityFromText('ibeacon', ' F7826DA6-4FA2-4E98-8024-BC5B71E0893E / 1 / 20 '),
    { kind: 'ibeacon', uuid: 'F7826DA6-4FA2-4E98-8024-BC5B71E0893E', major: 1, minor: 20 });
  assert.deepEqual(identityFromText('address', '02:00:00:00:0b:1e'), { kind: 'address', address: '02:00:00:00:0b:1e' });
  assert.deepEqual(identityFromText('eddystone-uid', 'aa/bb'), { kind: 'eddystone-uid', namespace: 'aa', instance: 'bb' });
  assert.throws(() => identityFromText('ibeacon', 'uuid/1'), /uuid\/major\/minor/);
  assert.throws(() => identityFromText('ibeacon', 'uuid/one/2'), /uuid\/major\/minor/);
  assert.throws(() => identityFromText('irk', 'x'), /cannot write/);
  for (const identity of [{ kind: 'ibeacon', uuid: 'u', major: 1, minor: 2 }, { kind: 'address', address: 'aa' }, { kind: 'altbeacon', beaconID: 'ff' }]) {
    assert.deepEqual(identityFromText(identity.kind, identityToText(identity)), identity);
  }
  assert.equal(identityToText({ kind: 'irk', fingerprint: 'ab12' }), 'irk ab12');
});

test('labels keep names as they are (markup included: the page shows them as text)', () => {
  assert.equal(scannerLabel({ id: 'pi-1', name: '<b>x</b>' }), '<b>x</b> (pi-1)');
  assert.equal(scannerLabel({ id: 'pi-1', name: 'pi-1' }), 'pi-1');
  assert.equal(beaconLabel({ uuid: 'F7826DA6-4FA2-4E98-8024-BC5B71E0893E', major: 1, minor: 2, metadata: {} }),
    'f7826da6-4fa2-4e98-8024-bc5b71e0893e 1/2');
  assert.equal(beaconLabel({ uuid: 'AA', major: 1, minor: 2, metadata: { name: '<i>Clock</i>' } }), '<i>Clock</i> (aa 1/2)');
  assert.equal(tagWhere(null), 'not located yet');
  assert.equal(tagWhere({ x: 1, y: 2.25, accuracyMetres: 1.5, scannersHeard: 3 }), '(1.0, 2.3) ±1.5 m, heard by 3');
  const inRoom = { x: 1, y: 2, accuracyMetres: 1, scannersHeard: 2, roomID: 5 };
  assert.equal(tagWhere(inRoom, (id) => (id === 5 ? '<b>Hall</b>' : null)), '(1.0, 2.0) ±1.0 m, heard by 2, in <b>Hall</b>');
  assert.equal(tagWhere({ ...inRoom, roomID: 6 }, () => null), '(1.0, 2.0) ±1.0 m, heard by 2, in room 6');
});

test('webhooks and deliveries are worded with their counts and why', () => {
  const webhook = { url: 'http://127.0.0.1:1/hook', events: ['entered', 'left'], subjects: ['tags'], deliveries: { pending: 1, delivered: 2, dead: 3 } };
  assert.equal(webhookLine(webhook), 'http://127.0.0.1:1/hook — entered, left (tags): 2 delivered, 1 pending, 3 dead');
  assert.equal(deliveryLine({ eventID: 7, kind: 'entered', tagID: 4, state: 'pending', attempts: 2, lastError: 'connection refused' }),
    'event 7 (entered, tag 4): pending, 2 attempts: connection refused');
  assert.equal(deliveryLine({ eventID: 8, kind: 'left', scannerID: 'pi', state: 'delivered', attempts: 1, lastStatus: 200 }),
    'event 8 (left, scanner pi): delivered, 1 attempts, last answer 200');
});

test('a new beacon gets the next free minor of its UUID and major', () => {
  const beacons = [{ uuid: 'AA', major: 1, minor: 4 }, { uuid: 'aa', major: 1, minor: 2 }, { uuid: 'aa', major: 2, minor: 9 }];
  assert.equal(nextFreeMinor(beacons, ' aa ', 1), 5);
  assert.equal(nextFreeMinor(beacons, 'aa', 3), 1);
  assert.equal(nextFreeMinor([{ uuid: 'aa', major: 1, minor: 65535 }], 'aa', 1), null);
});

test('a tag recorded at a spot shows its progress, then what it recorded', () => {
  const reference = { x: 3, y: 4.256, windowsWanted: 5, windowsRecorded: 0, scannersHeard: [], state: 'recording' };
  assert.equal(referenceLine(reference, 'Bike 7'), 'Recording Bike 7 at (3.00 m, 4.26 m): 0 of 5 windows, not heard yet. Hold it still.');
  assert.equal(referenceLine({ ...reference, windowsRecorded: 2, scannersHeard: ['door', 'hall'] }, 'Bike 7'),
    'Recording Bike 7 at (3.00 m, 4.26 m): 2 of 5 windows, heard by door, hall. Hold it still.');
  assert.equal(referenceLine({ ...reference, windowsRecorded: 5, scannersHeard: ['door'], state: 'done' }, 'Bike 7'),
    'Bike 7 recorded at (3.00 m, 4.26 m): 5 windows, heard by door.');
});

test('a beacon health event names the beacon, what happened and, when new, the scanner', () => {
  const beacons = [{ id: 3, uuid: 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0', major: 4, minor: 2, metadata: { name: 'Lobby' } }];
  assert.equal(beaconEventText({ kind: 'beaconSilent', beaconID: 3, time: '2026-12-08T00:10:00.000Z' }, beacons),
    `2026-12-08 00:10:00 UTC ${beaconLabel(beacons[0])}: silent: no scanner that heard it hears it`);
  assert.equal(beaconEventText({ kind: 'beaconNewScanner', beaconID: 9, scannerID: 'pi-hall', time: '2026-12-08T00:10:00Z' }, beacons),
    '2026-12-08 00:10:00 UTC beacon 9: heard by scanner pi-hall, which had not heard it');
  assert.equal(beaconEventText({ kind: 'batteryLow', beaconID: 3, time: '2026-12-08T00:10:00Z' }, beacons).endsWith(': battery low'), true);
});
