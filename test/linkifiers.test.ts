import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const MODERN = { client_capabilities: { linkifier_url_template: true } };
const ISSUES = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };
/** What a linkifier without reverse linkification says of it (levels 471 and 478). */
const NO_REVERSE = { example_input: null, reverse_template: null, alternative_url_templates: [] };

async function linkifierIds(): Promise<number[]> {
  return (await server.owner.get('/realm/linkifiers')).body.linkifiers.map((l: { id: number }) => l.id);
}

describe('linkifiers', () => {
  test('are added, changed, reordered and removed by administrators, and everyone hears of it', async () => {
    const member = await server.createUser();
    const modern = await listen(member, { event_types: ['realm_linkifiers', 'realm_filters'], ...MODERN });
    const legacy = await listen(member, { event_types: ['realm_linkifiers', 'realm_filters'] });

    const added = await server.owner.post('/realm/filters', { pattern: ` ${ISSUES.pattern} `, url_template: ISSUES.url_template });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const first = added.body.id as number;
    const second = (await server.owner.post('/realm/filters', { pattern: 'PR (?P<id>[0-9]+)', url_template: 'https://example.com/pr/{id}' })).body.id;
    const listing = (await member.get('/realm/linkifiers')).body.linkifiers;
    assert.deepEqual(listing, [
      { id: first, ...ISSUES, ...NO_REVERSE },
      { id: second, pattern: 'PR (?P<id>[0-9]+)', url_template: 'https://example.com/pr/{id}', ...NO_REVERSE },
    ]);
    assert.deepEqual(server.stoa.linkifiers.realmLinkifiers(), listing, 'the renderer reads the same list');
    const seen = await modern();
    assert.deepEqual(seen.at(-1), { type: 'realm_linkifiers', realm_linkifiers: listing });
    assert.deepEqual(await legacy(), [], 'clients that cannot read URL templates hear nothing');

    assert.equal((await server.owner.patch('/realm/linkifiers', { ordered_linkifier_ids: [second, first] })).status, 200);
    assert.deepEqual(await linkifierIds(), [second, first]);
    const third = (await server.owner.post('/realm/filters', { pattern: 'T-(?P<n>\\d+)', url_template: 'https://t.example/{n}' })).body.id;
    assert.deepEqual(await linkifierIds(), [second, first, third], 'a new linkifier goes last');

    const changed = await server.owner.patch(`/realm/filters/${first}`, { pattern: '#(?P<id>[0-9]{2,})', url_template: 'https://x.example/{id}' });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await server.owner.delete(`/realm/filters/${second}`)).status, 200);
    await modern();

    await server.restart();
    const again = server.anonymous.as(member.credentials);
    const state = (await again.post('/register', { fetch_event_types: ['realm_linkifiers', 'realm_filters'], ...MODERN })).body;
    assert.deepEqual(state.realm_linkifiers.map((l: { id: number; pattern: string }) => [l.id, l.pattern]), [
      [first, '#(?P<id>[0-9]{2,})'],
      [third, 'T-(?P<n>\\d+)'],
    ]);
    assert.deepEqual(state.realm_filters, []);
    const old = (await again.post('/register', { fetch_event_types: ['realm_linkifiers', 'realm_filters'] })).body;
    assert.deepEqual([old.realm_linkifiers, old.realm_filters], [[], []]);

    for (const id of await linkifierIds()) await server.owner.delete(`/realm/filters/${id}`);
    assert.equal((await server.owner.patch('/realm/linkifiers', { ordered_linkifier_ids: [] })).status, 200);
  });

  test('are validated as Zulip validates them', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ pattern: '', url_template: 'https://realm.com/{id}' }, 'This field cannot be blank.'],
      [{ pattern: '(foo', url_template: 'https://realm.com/{id}' }, 'Bad regular expression: missing ): (foo'],
      [{ pattern: 'ZUL-(?P<id>\\d????)', url_template: 'https://realm.com/{id}' }, 'Bad regular expression: bad repetition operator: ????'],
      [{ pattern: 'ZUL-(?P<id>\\d+)', url_template: '$fgfg' }, "Group 'id' in linkifier pattern is not present in URL template."],
      [{ pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://realm.com/{hello}' }, "Group 'hello' in URL template is not present in linkifier pattern."],
      [{ pattern: 'ZUL-(?P<id>\\d+)-(?P<hello>\\d+)', url_template: 'https://realm.com/{hello}' }, "Group 'id' in linkifier pattern is not present in URL template."],
      [{ pattern: '#(?P<id>[123])', url_template: '{id' }, 'Invalid URL template.'],
      [{ pattern: '#(?P<id>[123])', url_template: 'https://example.com/{bar++}' }, 'Invalid URL template.'],
    ];
    for (const [params, msg] of cases) {
      const response = await server.owner.post('/realm/filters', params);
      assert.deepEqual([response.status, response.body.code, response.body.msg], [400, 'BAD_REQUEST', msg], JSON.stringify(params));
    }
    const blank = await server.owner.post('/realm/filters', { pattern: ' ', url_template: 'https://realm.com/{id}' });
    assert.deepEqual(blank.body.errors, {
      pattern: ['This field cannot be blank.'],
      __all__: ["Group 'id' in URL template is not present in linkifier pattern."],
    });

    const accepted = [
      { pattern: '(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)', url_template: 'https://github.com/{org}/{repo}/issue/{id}' },
      { pattern: 'ZUL-URL-(?P<id>\\d+)', url_template: 'https://example.com/%ba/{id}' },
      {
        pattern: 'FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
        url_template: 'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
      },
    ];
    const ids: number[] = [];
    for (const params of accepted) {
      const response = await server.owner.post('/realm/filters', params);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      ids.push(response.body.id);
    }
    const duplicate = await server.owner.post('/realm/filters', accepted[0]);
    assert.equal(duplicate.body.msg, 'Realm filter with this Realm and Pattern already exists.');
    assert.equal((await server.owner.patch(`/realm/filters/${ids[0]}`, accepted[0])).status, 200, 'a linkifier may keep its own pattern');

    const reorders: Array<[number[], string]> = [
      [[ids[0], ids[0], ids[1], ids[2]], 'The ordered list must not contain duplicated linkifiers'],
      [[ids[0], ids[1]], 'The ordered list must enumerate all existing linkifiers exactly once'],
      [[ids[0], ids[1], ids[2], 999_999], 'The ordered list must enumerate all existing linkifiers exactly once'],
    ];
    for (const [order, msg] of reorders) {
      assert.equal((await server.owner.patch('/realm/linkifiers', { ordered_linkifier_ids: order })).body.msg, msg);
    }
    for (const response of [
      await server.owner.patch('/realm/filters/999999', accepted[1]),
      await server.owner.delete('/realm/filters/999999'),
    ]) {
      assert.deepEqual([response.status, response.body.msg], [400, 'Linkifier not found.']);
    }
    for (const id of ids) await server.owner.delete(`/realm/filters/${id}`);
  });

  test('are changed by administrators only, and read by everyone', async () => {
    const member = await server.createUser();
    for (const response of [
      await member.post('/realm/filters', ISSUES),
      await member.patch('/realm/filters/1', ISSUES),
      await member.delete('/realm/filters/1'),
      await member.patch('/realm/linkifiers', { ordered_linkifier_ids: [] }),
    ]) {
      assert.deepEqual([response.status, response.body.msg], [400, 'Must be an organization administrator']);
    }
    assert.equal((await member.get('/realm/linkifiers')).status, 200);
  });
});
