// The admin page's API client (share/admin/js/api.js): Api.all follows a paged list's
// nextCursor to the end, a page of the largest size at a time, keeping the query it was given.
// Run with `node --test Tests/Pages/`.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Api } from '../../share/admin/js/api.js';

test('all() reads every page of a list, passing each nextCursor back', async () => {
  const pages = { '': { items: [1, 2], nextCursor: 'c1' }, c1: { items: [3], nextCursor: 'c2' }, c2: { items: [4] } };
  const asked = [];
  globalThis.fetch = async (path) => {
    asked.push(path);
    const url = new URL(path, 'http://switchd.invalid');
    const body = JSON.stringify(pages[url.searchParams.get('cursor') ?? '']);
    return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  const api = new Api(() => 'token', () => {});
  assert.deepEqual(await api.all('/v1/beacons?uuid=F7826DA6-4FA2-4E98-8024-BC5B71E0893E'), [1, 2, 3, 4]);
  assert.deepEqual(asked, [
    '/v1/beacons?uuid=F7826DA6-4FA2-4E98-8024-BC5B71E0893E&limit=1000',
    '/v1/beacons?uuid=F7826DA6-4FA2-4E98-8024-BC5B71E0893E&limit=1000&cursor=c1',
    '/v1/beacons?uuid=F7826DA6-4FA2-4E98-8024-BC5B71E0893E&limit=1000&cursor=c2',
  ]);
});
