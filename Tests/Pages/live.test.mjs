// The admin page's live feed (share/admin/js/live.js): one stream for every interest, reopened
// with Last-Event-ID when they change, each event handed only to the interests it matches.
// Run with `node --test Tests/Pages/`.
import assert from 'node:assert/strict';
import test from 'node:test';
import { LiveFeed, streamPath, wants } from '../../share/admin/js/live.js';

/** An Api whose streams are recorded and driven by the test. */
class FakeApi {
  constructor() { this.streams = []; }
  stream(path, handlers) {
    const stream = { path, ...handlers, aborted: () => handlers.signal.aborted };
    this.streams.push(stream);
    return new Promise((resolve) => handlers.signal.addEventListener('abort', resolve, { once: true }));
  }
  get open() { return this.streams.filter((s) => !s.aborted()); }
}

const settle = () => new Promise((resolve) => { setTimeout(resolve, 0); });

test('one path carries every interest: feeds, scanners and tags united', () => {
  assert.equal(streamPath([]), null);
  assert.equal(streamPath([{ feed: 'tagPosition' }]), '/v1/stream?feeds=tagPosition');
  assert.equal(
    streamPath([{ feed: 'tagPosition' }, { feed: 'measurement', scannerID: 'pi-2' }, { feed: 'switch', scannerID: 'pi-2' }, { feed: 'position', scannerID: 'a b' }]),
    '/v1/stream?feeds=measurement,position,switch,tagPosition&scannerIDs=a%20b,pi-2',
  );
  assert.equal(streamPath([{ feed: 'tagPosition', tagID: 12 }, { feed: 'tagPosition', tagID: 3 }]), '/v1/stream?feeds=tagPosition&tagIDs=3,12');
  assert.equal(streamPath([{ feed: 'tagPosition', tagID: 12 }, { feed: 'tagPosition' }]), '/v1/stream?feeds=tagPosition', 'one interest in every tag widens to all');
  assert.throws(() => streamPath([{ feed: 'position' }, { feed: 'switch', scannerID: 'x' }]));
});

test('an event goes to the interests it matches only', () => {
  assert.ok(wants({ feed: 'tagPosition' }, 'tagPosition', { tagID: 4 }));
  assert.ok(!wants({ feed: 'tagPosition', tagID: 5 }, 'tagPosition', { tagID: 4 }));
  assert.ok(!wants({ feed: 'position', scannerID: 'a' }, 'position', { scannerID: 'b' }));
  assert.ok(!wants({ feed: 'position', scannerID: 'a' }, 'measurement', { scannerID: 'a' }));
});

test('fifty tags and a survey share one stream, reopened after the last event seen', async () => {
  const api = new FakeApi();
  const live = new LiveFeed(api);
  const seen = new Map();
  for (let tagID = 1; tagID <= 50; tagID += 1) {
    live.follow({ feed: 'tagPosition', tagID }, (event, data) => seen.set(tagID, data.x));
  }
  await settle();
  assert.equal(api.streams.length, 1, 'fifty interests, one stream');
  const first = api.open[0];
  assert.match(first.path, /^\/v1\/stream\?feeds=tagPosition&tagIDs=1,2,3,/);
  first.onOpen();
  first.onEvent({ id: 'tagPosition:7', event: 'tagPosition', data: JSON.stringify({ tagID: 9, x: 1.5 }) });
  assert.deepEqual([...seen], [[9, 1.5]]);

  const readings = [];
  const survey = new AbortController();
  const reading = live.follow({ feed: 'measurement', scannerID: 'pi' }, (event, data) => readings.push(data.sequence), { signal: survey.signal });
  const change = live.follow({ feed: 'switch', scannerID: 'pi' }, () => {}, { signal: survey.signal });
  await settle();
  assert.equal(api.open.length, 1, 'the old stream is closed as the new one opens');
  assert.equal(api.streams.length, 2, 'two interests added together reopen once');
  const second = api.open[0];
  assert.match(second.path, /feeds=measurement,switch,tagPosition&scannerIDs=pi&tagIDs=/);
  assert.equal(second.lastEventId, 'tagPosition:7', 'resumed after the last event');
  let opened = false;
  Promise.all([reading.opened, change.opened]).then(() => { opened = true; });
  await settle();
  assert.ok(!opened, 'not open before the stream answers');
  second.onOpen();
  await settle();
  assert.ok(opened);
  second.onEvent({ id: 'measurement:3,tagPosition:7', event: 'measurement', data: JSON.stringify({ scannerID: 'pi', sequence: 3 }) });
  second.onEvent({ id: 'measurement:4,tagPosition:7', event: 'measurement', data: JSON.stringify({ scannerID: 'other', sequence: 4 }) });
  assert.deepEqual(readings, [3]);

  survey.abort();
  await settle();
  assert.equal(api.open.length, 1);
  assert.equal(api.open[0].lastEventId, 'measurement:4,tagPosition:7');
  assert.doesNotMatch(api.open[0].path, /measurement/);

  live.closeAll();
  await settle();
  assert.equal(api.open.length, 0);
});
