import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen } from './support/events';
import { ManualClock, TestServer } from './support/server';

const NOW = Date.UTC(2026, 3, 1) / 1000;
let server: TestServer;
before(async () => {
  server = await TestServer.start({ clock: new ManualClock(NOW * 1000) });
});
after(() => server.close());

describe('saved snippets', () => {
  test('are created, listed, edited and deleted, with events to the user alone', async () => {
    const [user, bystander] = [await server.createUser(), await server.createUser()];
    const events = await listen(user, { event_types: ['saved_snippets'] });
    const unrelated = await listen(bystander, { event_types: ['saved_snippets'] });

    const created = await user.post('/saved_snippets', { title: '  Welcome ', content: ' Welcome to the team!\n' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.saved_snippet_id as number;
    const snippet = { id, title: 'Welcome', content: 'Welcome to the team!', date_created: NOW };
    assert.deepEqual((await user.get('/saved_snippets')).body.saved_snippets, [snippet]);
    assert.deepEqual(await events(), [{ type: 'saved_snippets', op: 'add', saved_snippet: snippet }]);

    assert.equal((await user.patch(`/saved_snippets/${id}`, { content: 'Hello!' })).status, 200);
    const edited = { ...snippet, content: 'Hello!' };
    assert.deepEqual(await events(), [{ type: 'saved_snippets', op: 'update', saved_snippet: edited }]);
    assert.equal((await user.patch(`/saved_snippets/${id}`, {})).status, 200);
    assert.deepEqual(await events(), [], 'an edit that changes nothing sends nothing');
    assert.deepEqual(await unrelated(), [], 'snippets are private to their user');

    await server.restart();
    const again = server.anonymous.as(user.credentials);
    assert.deepEqual((await again.post('/register', { fetch_event_types: ['saved_snippets'] })).body.saved_snippets, [edited]);
    const after = await listen(again, { event_types: ['saved_snippets'] });
    assert.equal((await again.delete(`/saved_snippets/${id}`)).status, 200);
    assert.deepEqual(await after(), [{ type: 'saved_snippets', op: 'remove', saved_snippet_id: id }]);
    assert.deepEqual((await again.get('/saved_snippets')).body.saved_snippets, []);
  });

  test('refuse blank and overlong titles and contents, and snippets of others', async () => {
    const [user, other] = [await server.createUser(), await server.createUser()];
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: ' ', content: 'x' }, 'title cannot be blank'],
      [{ title: 'x', content: '\n' }, 'content cannot be blank'],
      [{ title: 't'.repeat(61), content: 'x' }, 'title is too long (limit: 60 characters)'],
      [{ title: 't', content: 'x'.repeat(10_001) }, 'content is too long (limit: 10000 characters)'],
      [{ title: 't' }, "Missing 'content' argument"],
    ];
    for (const [params, msg] of cases) {
      const response = await user.post('/saved_snippets', params);
      assert.deepEqual([response.status, response.body.msg], [400, msg]);
    }
    const id = (await other.post('/saved_snippets', { title: 'mine', content: 'mine' })).body.saved_snippet_id;
    for (const response of [
      await user.patch(`/saved_snippets/${id}`, { title: 'theirs' }),
      await user.delete(`/saved_snippets/${id}`),
      await user.delete('/saved_snippets/999999'),
    ]) {
      assert.deepEqual([response.status, response.body.code, response.body.msg], [404, 'BAD_REQUEST', 'Saved snippet does not exist.']);
    }
    assert.equal((await other.get('/saved_snippets')).body.saved_snippets[0].title, 'mine');
  });
});
