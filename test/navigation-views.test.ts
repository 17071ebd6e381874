import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

describe('navigation views', () => {
  test('are added, listed, edited and removed, with events to their user alone, and kept across a restart', async () => {
    const [user, bystander] = [await server.createUser(), await server.createUser()];
    const events = await listen(user, { event_types: ['navigation_view'] });
    const unrelated = await listen(bystander, { event_types: ['navigation_view'] });

    assert.equal((await user.post('/navigation_views', { fragment: ' inbox ', is_pinned: false })).status, 200);
    const custom = await user.post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' });
    assert.equal(custom.status, 200, JSON.stringify(custom.body));
    const inbox = { fragment: 'inbox', is_pinned: false, name: null };
    const alerted = { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' };
    assert.deepEqual((await user.get('/navigation_views')).body.navigation_views, [inbox, alerted]);
    assert.deepEqual(await events(), [
      { type: 'navigation_view', op: 'add', navigation_view: inbox },
      { type: 'navigation_view', op: 'add', navigation_view: alerted },
    ]);

    // The fragment is the rest of the path, slashes and all.
    assert.equal((await user.patch('/navigation_views/narrow/is/alerted', { is_pinned: false })).status, 200);
    assert.equal((await user.patch('/navigation_views/narrow/is/alerted', { name: 'Watched phrases' })).status, 200);
    assert.deepEqual(await events(), [
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { is_pinned: false } },
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { name: 'Watched phrases' } },
    ]);
    assert.deepEqual(await unrelated(), []);

    await server.restart();
    const again = server.anonymous.as(user.credentials);
    const renamed = { ...alerted, is_pinned: false, name: 'Watched phrases' };
    assert.deepEqual((await again.post('/register', { fetch_event_types: ['navigation_views'] })).body.navigation_views, [inbox, renamed]);
    const later = await listen(again, { event_types: ['navigation_view'] });
    assert.equal((await again.delete('/navigation_views/inbox')).status, 200);
    assert.deepEqual(await later(), [{ type: 'navigation_view', op: 'remove', fragment: 'inbox' }]);
    assert.deepEqual((await again.get('/navigation_views')).body.navigation_views, [renamed]);
  });

  test('refuse names for built-in views, nameless custom views, duplicates and unknown views', async () => {
    const [user, other] = [await server.createUser(), await server.createUser()];
    await user.post('/navigation_views', { fragment: 'narrow/channel/1', is_pinned: true, name: 'General' });
    await other.post('/navigation_views', { fragment: 'narrow/is/private', is_pinned: true, name: 'DMs' });
    const refusals: Array<[Promise<{ status: number; body: any }>, number, string]> = [
      [user.post('/navigation_views', { fragment: 'recent', is_pinned: true, name: 'Mine' }), 400, 'Built-in views cannot have a custom name.'],
      [user.post('/navigation_views', { fragment: 'narrow/is/unread', is_pinned: true }), 400, 'Custom views must have a valid name.'],
      [user.post('/navigation_views', { fragment: ' ', is_pinned: true }), 400, 'fragment cannot be blank'],
      [user.post('/navigation_views', { fragment: 'narrow/channel/1', is_pinned: true, name: 'Other' }), 400, 'Navigation view already exists.'],
      [user.post('/navigation_views', { fragment: 'narrow/channel/2', is_pinned: true, name: 'General' }), 400, 'Navigation view already exists.'],
      [user.post('/navigation_views', { fragment: 'feed' }), 400, "Missing 'is_pinned' argument"],
      [user.patch('/navigation_views/feed', { name: 'Feed' }), 400, 'Built-in views cannot have a custom name.'],
      [user.patch('/navigation_views/narrow/is/private', { is_pinned: false }), 404, 'Navigation view does not exist.'],
      [user.delete('/navigation_views/narrow/is/private'), 404, 'Navigation view does not exist.'],
    ];
    for (const [request, status, msg] of refusals) {
      const response = await request;
      assert.deepEqual([response.status, response.body.msg], [status, msg]);
    }
    assert.deepEqual((await other.get('/navigation_views')).body.navigation_views, [{ fragment: 'narrow/is/private', is_pinned: true, name: 'DMs' }]);
  });
});
