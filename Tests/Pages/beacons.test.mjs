// The Beacons card's health events (share/admin/js/beacons.js): read per kind from GET /v1/events
// over the last 7 days, kept for the chosen floor's beacons, newest first. Run with
// `scripts/admin-js-test`.
import assert from 'node:assert/strict';
import test from 'node:test';
import { BeaconsPanel } from '../../share/admin/js/beacons.js';

test('the health events are the floor beacons\' of the last week, newest first', async () => {
  const asked = [];
  const stored = [
    { id: 4, kind: 'beaconSilent', beaconID: 1, time: '2026-12-08T00:00:00Z' },
    { id: 7, kind: 'beaconNewScanner', beaconID: 1, scannerID: 'pi-2', time: '2026-12-08T00:05:00Z' },
    { id: 9, kind: 'beaconFaded', beaconID: 2, time: '2026-12-08T00:06:00Z' },
    { id: 5, kind: 'batteryLow', beaconID: null, tagID: 3, time: '2026-12-08T00:01:00Z' },
  ];
  const panel = new BeaconsPanel();
  panel.context = {
    api: {
      all: async (path) => {
        asked.push(path);
        const url = new URL(path, 'http://page.invalid');
        return stored.filter((event) => event.kind === url.searchParams.get('kind'));
      },
    },
  };
  panel.beacons = [{ id: 1, floorID: 1 }];
  const events = await panel.healthEvents();
  assert.deepEqual(events.map((event) => event.id), [7, 4]);
  assert.deepEqual(asked.map((path) => new URL(path, 'http://page.invalid').searchParams.get('kind')),
    ['batteryLow', 'beaconSilent', 'beaconFaded', 'beaconNewScanner']);
  const since = new URL(asked[0], 'http://page.invalid').searchParams.get('since');
  const days = (Date.now() - Date.parse(since)) / 86_400_000;
  assert.ok(days > 6.99 && days < 7.01, `since ${since}`);
});
