import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TestServer } from './support/server';

// Everyone's people are kept for /register as UTF-8 bytes, and each viewer's own entry is
// put in place of theirs by byte offsets: names of several bytes a character, before and
// after the viewer, must leave every entry whole.

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

describe('realm_users kept as bytes', () => {
  test('gives each viewer their own entry among people with names of many bytes', async () => {
    const before = await server.createUser('Zoë Ἀθηνᾶ 🎉');
    const viewer = await server.createUser('Ōkubo 大久保');
    const afterViewer = await server.createUser('Łukasz Þór 🦉');
    for (const person of [before, viewer, afterViewer]) {
      const response = await person.post('/register', { fetch_event_types: ['realm_user'] });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      const people: Array<{ user_id: number; full_name: string; delivery_email?: string | null }> = response.body.realm_users;
      const names = new Map(people.map((entry) => [entry.user_id, entry.full_name]));
      assert.equal(names.get(before.userId), 'Zoë Ἀθηνᾶ 🎉');
      assert.equal(names.get(viewer.userId), 'Ōkubo 大久保');
      assert.equal(names.get(afterViewer.userId), 'Łukasz Þór 🦉');
      assert.equal(people.length, names.size);
      // Only the viewer's own entry carries their delivery email (the others are hidden from a member).
      const own = people.find((entry) => entry.user_id === person.userId)!;
      assert.equal(typeof own.delivery_email, 'string');
    }
  });
});
