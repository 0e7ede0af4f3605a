// The admin page's API client (share/admin/js/api.js): Api.all follows a paged list's
// nextCursor to the end, a page of the largest size at a time, keeping the query it was given;
// every request goes under switchd's root as the page sees it, prefix included.
// Run with `node --test Tests/Pages/`.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Api, switchdURL } from '../../share/admin/js/api.js';

const root = 'http://switchd.test/';

test('all() reads every page of a list, passing each nextCursor back', async () => {
  const pages = { '': { items: [1, 2], nextCursor: 'c1' }, c1: { items: [3], nextCursor: 'c2' }, c2: { items: [4] } };
  const asked = [];
  globalThis.fetch = async (path) => {
    asked.push(path);
    const url = new URL(path);
    const body = JSON.stringify(pages[url.searchParams.get('cursor') ?? '']);
    return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  const api = new Api(() => 'token', () => {}, root);
  assert.deepEqual(await api.all('/v1/beacons?uuid=F7826DA6-4FA2-4E98-8024-BC5B71E0893E'), [1, 2, 3, 4]);
  assert.deepEqual(asked, [
    'http://switchd.test/v1/beacons?uuid=F7826DA6-4FA2-4E98-8024-BC5B71E0893E&limit=1000',
    'http://switchd.test/v1/beacons?uuid=F7826DA6-4FA2-4E98-8024-BC5B71E0893E&limit=1000&cursor=c1',
    'http://switchd.test/v1/beacons?uuid=F7826DA6-4FA2-4E98-8024-BC5B71E0893E&limit=1000&cursor=c2',
  ]);
});

test('requests, plans and streams stay under the prefix a proxy serves switchd at', async () => {
  const ingress = 'http://ha.test:8123/api/hassio_ingress/TESTTOKEN/';
  const asked = [];
  globalThis.fetch = async (url) => {
    asked.push(url);
    return new Response(url.includes('/plan') ? 'png' : '[]', { status: 200 });
  };
  const api = new Api(() => 'token', () => {}, ingress);
  await api.get('/v1/floors');
  await api.blob('/v1/floors/3/plan');
  const stop = new AbortController();
  await api.stream('/v1/stream?feeds=position', { signal: stop.signal, onEvent: () => {}, onState: () => stop.abort() });
  assert.deepEqual(asked, [
    `${ingress}v1/floors`,
    `${ingress}v1/floors/3/plan`,
    `${ingress}v1/stream?feeds=position`,
  ]);
  assert.equal(api.url('visit/'), `${ingress}visit/`);
});

test('switchd root is two folders above api.js, as switchd serves it at /admin/js/api.js', () => {
  assert.equal(switchdURL('/v1/floors', new URL('../../', 'http://h/p/admin/js/api.js')), 'http://h/p/v1/floors');
  assert.equal(switchdURL('/v1/floors', new URL('../../', 'http://h/admin/js/api.js')), 'http://h/v1/floors');
});
