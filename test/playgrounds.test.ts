import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const PYTHON = { name: 'Python playground', highlighter_language: 'Python', url_template: 'https://python.example.com?code={code}' };

describe('code playgrounds', () => {
  test('are added and removed by administrators, and everyone hears of it', async () => {
    const member = await server.createUser();
    const events = await listen(member, { event_types: ['realm_playgrounds'] });

    const added = await server.owner.post('/realm/playgrounds', { ...PYTHON, name: ' Python playground ' });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const id = added.body.id as number;
    const playground = { id, name: 'Python playground', pygments_language: 'Python', highlighter_language: 'Python', url_template: PYTHON.url_template };
    assert.deepEqual(await events(), [{ type: 'realm_playgrounds', realm_playgrounds: [playground] }]);

    // Zulip clients name the language pygments_language.
    const zulipStyle = await server.owner.post('/realm/playgrounds', { name: 'Rust', pygments_language: 'Rust', url_template: 'https://play.rust-lang.org/{?code}' });
    assert.equal(zulipStyle.status, 200, JSON.stringify(zulipStyle.body));
    await events();

    await server.restart();
    const again = server.anonymous.as(member.credentials);
    const state = (await again.post('/register', { fetch_event_types: ['realm_playgrounds'] })).body;
    assert.deepEqual(state.realm_playgrounds.map((p: { id: number; pygments_language: string }) => [p.id, p.pygments_language]), [
      [id, 'Python'],
      [zulipStyle.body.id, 'Rust'],
    ]);
    const later = await listen(again, { event_types: ['realm_playgrounds'] });
    assert.equal((await server.owner.delete(`/realm/playgrounds/${id}`)).status, 200);
    const [removed] = await later();
    assert.deepEqual(removed.realm_playgrounds.map((p: { id: number }) => p.id), [zulipStyle.body.id]);
    await server.owner.delete(`/realm/playgrounds/${zulipStyle.body.id}`);
  });

  test('are validated as Zulip validates them', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...PYTHON, url_template: 'https://python.example.com' }, 'Missing the required variable "code" in the URL template'],
      [{ ...PYTHON, url_template: 'https://python.example.com/{code}/{other}' }, '"code" should be the only variable present in the URL template'],
      [{ ...PYTHON, url_template: 'https://python.example.com/{code' }, 'Invalid URL template.'],
      [{ ...PYTHON, url_template: ' ' }, 'This field cannot be blank.'],
      [{ ...PYTHON, name: '' }, 'This field cannot be blank.'],
      [{ ...PYTHON, highlighter_language: 'a$b$c' }, 'Invalid characters in pygments language'],
      [{ ...PYTHON, highlighter_language: 'x'.repeat(41) }, 'highlighter_language is too long (limit: 40 characters)'],
    ];
    for (const [params, msg] of cases) {
      const response = await server.owner.post('/realm/playgrounds', params);
      assert.deepEqual([response.status, response.body.code, response.body.msg], [400, 'BAD_REQUEST', msg], JSON.stringify(params));
    }
    const missing = await server.owner.post('/realm/playgrounds', { name: 'x', url_template: 'https://x/{code}' });
    assert.deepEqual([missing.body.code, missing.body.msg], ['REQUEST_VARIABLE_MISSING', "Missing 'highlighter_language' argument"]);
    const id = (await server.owner.post('/realm/playgrounds', PYTHON)).body.id;
    const again = await server.owner.post('/realm/playgrounds', PYTHON);
    assert.equal(again.body.msg, 'Realm playground with this Realm, Pygments language and Name already exists.');
    assert.equal((await server.owner.post('/realm/playgrounds', { ...PYTHON, name: 'Another' })).status, 200, 'one language may have several playgrounds');
    assert.equal((await server.owner.delete('/realm/playgrounds/999999')).body.msg, 'Invalid playground');
    await server.owner.delete(`/realm/playgrounds/${id}`);
  });

  test('are changed by administrators only', async () => {
    const member = await server.createUser();
    for (const response of [await member.post('/realm/playgrounds', PYTHON), await member.delete('/realm/playgrounds/1')]) {
      assert.deepEqual([response.status, response.body.msg], [400, 'Must be an organization administrator']);
    }
  });
});
