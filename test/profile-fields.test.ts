import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const COLORS = { red: { text: 'Red', order: '1' }, blue: { text: 'Blue', order: '2' } };

async function fields(): Promise<Array<Record<string, any>>> {
  const response = await server.owner.get('/realm/profile_fields');
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.custom_fields;
}

async function create(params: Record<string, unknown>): Promise<number> {
  const response = await server.owner.post('/realm/profile_fields', params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.id;
}

async function refusal(response: Promise<{ status: number; body: any }>): Promise<string> {
  const { status, body } = await response;
  assert.equal(status, 400, JSON.stringify(body));
  return body.msg;
}

async function removeAllFields(): Promise<void> {
  for (const field of await fields()) await server.owner.delete(`/realm/profile_fields/${field.id}`);
}

describe('custom profile fields', () => {
  test('are defined by administrators with every field type, and everyone hears of each change', async () => {
    await removeAllFields();
    const member = await server.createUser();
    const events = await listen(member, { event_types: ['custom_profile_fields'] });

    const phone = await create({ name: ' Phone ', hint: 'Work phone', field_type: 1, required: true });
    const bio = await create({ name: 'Biography', field_type: 2, editable_by_user: false });
    const color = await create({ name: 'Favorite color', field_type: 3, field_data: COLORS, display_in_profile_summary: true });
    const birthday = await create({ name: 'Birthday', field_type: 4 });
    const site = await create({ name: 'Website', field_type: 5 });
    const mentor = await create({ name: 'Mentor', field_type: 6 });
    const github = await create({ name: '', field_type: 7, field_data: { subtype: 'github' } });
    const mastodon = await create({
      name: 'Mastodon',
      field_type: 7,
      field_data: { subtype: 'custom', url_pattern: 'https://mastodon.social/@%(username)s' },
    });
    const pronouns = await create({ name: 'Pronouns', field_type: 8, hint: 'What should people call you?' });

    const listed = await fields();
    assert.deepEqual(listed.map((f) => f.id), [phone, bio, color, birthday, site, mentor, github, mastodon, pronouns]);
    assert.deepEqual(listed[0], {
      id: phone,
      name: 'Phone',
      type: 1,
      hint: 'Work phone',
      field_data: '',
      order: phone,
      required: true,
      editable_by_user: true,
    });
    assert.equal(listed[1].editable_by_user, false);
    assert.equal(listed[2].display_in_profile_summary, true);
    assert.deepEqual(JSON.parse(listed[2].field_data), COLORS);
    assert.deepEqual([listed[6].name, listed[6].hint, listed[6].field_data], ['GitHub username', '', '{"subtype":"github"}']);

    const seen = await events();
    assert.equal(seen.length, 9);
    assert.deepEqual(seen.at(-1), { type: 'custom_profile_fields', fields: listed });
    const state = (await member.post('/register', { fetch_event_types: ['custom_profile_fields'] })).body;
    assert.deepEqual(state.custom_profile_fields, listed);
    assert.equal(state.custom_profile_field_types.PRONOUNS.id, 8);
  });

  test('are renamed, reordered and deleted, and the change survives a restart', async () => {
    await removeAllFields();
    const first = await create({ name: 'First', field_type: 1 });
    const second = await create({ name: 'Second', field_type: 3, field_data: COLORS });
    const member = await server.createUser();
    const events = await listen(member, { event_types: ['custom_profile_fields'] });

    const renamed = await server.owner.patch(`/realm/profile_fields/${first}`, { name: 'Renamed', hint: 'new hint', required: true });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal((await server.owner.patch('/realm/profile_fields', { order: [second, first] })).status, 200);
    assert.deepEqual((await fields()).map((f) => [f.id, f.name, f.order]), [
      [second, 'Second', 0],
      [first, 'Renamed', 1],
    ]);
    assert.equal((await events()).length, 2);

    await server.restart();
    assert.deepEqual((await fields()).map((f) => [f.name, f.hint, f.required]), [
      ['Second', '', false],
      ['Renamed', 'new hint', true],
    ]);
    assert.equal((await server.owner.delete(`/realm/profile_fields/${second}`)).status, 200);
    assert.deepEqual((await fields()).map((f) => f.id), [first]);
  });

  test('refuse bad definitions with Zulip\'s messages', async () => {
    await removeAllFields();
    const member = await server.createUser();
    const taken = await create({ name: 'Taken', field_type: 1, display_in_profile_summary: true });
    await create({ name: 'Shown', field_type: 1, display_in_profile_summary: true });
    const post = (params: Record<string, unknown>) => refusal(server.owner.post('/realm/profile_fields', params));

    assert.equal(await refusal(member.post('/realm/profile_fields', { name: 'X', field_type: 1 })), 'Must be an organization administrator');
    assert.equal(await post({ name: '  ', field_type: 1 }), 'Label cannot be blank.');
    assert.equal(await post({ name: 'x'.repeat(41), field_type: 1 }), 'name is too long (limit: 40 characters)');
    assert.equal(await post({ name: 'X', hint: 'h'.repeat(81), field_type: 1 }), 'hint is too long (limit: 80 characters)');
    assert.equal(await post({ name: 'X', field_type: 9 }), 'Invalid field type.');
    assert.equal(await post({ name: 'Taken', field_type: 2 }), 'A field with that label already exists.');
    assert.equal(await post({ name: 'X', field_type: 3, field_data: {} }), 'Field must have at least one choice.');
    assert.equal(
      await post({ name: 'X', field_type: 3, field_data: { a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } } }),
      'Field must not have duplicate choices.',
    );
    assert.equal(await post({ name: 'X', field_type: 3, field_data: { a: { text: 'A' } } }), 'order key is missing from field_data');
    assert.equal(await post({ name: 'X', field_type: 7, field_data: { subtype: 'myspace' } }), 'Invalid external account type');
    assert.equal(await post({ name: 'X', field_type: 7, field_data: { subtype: 'custom' } }), 'Custom external account must define URL pattern');
    assert.equal(
      await post({ name: 'X', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://x.example/' } }),
      "URL pattern must contain '%(username)s'.",
    );
    assert.equal(
      await post({ name: 'X', field_type: 1, display_in_profile_summary: true }),
      'Only 2 custom profile fields can be displayed in the profile summary.',
    );
    await server.owner.patch(`/realm/profile_fields/${taken}`, { display_in_profile_summary: false });
    assert.equal(await post({ name: 'X', field_type: 2, display_in_profile_summary: true }), 'Field type not supported for display in profile summary.');
    assert.equal(await refusal(server.owner.patch('/realm/profile_fields/99999', { name: 'X' })), 'Field id 99999 not found.');
    assert.equal(await refusal(server.owner.delete('/realm/profile_fields/99999')), 'Field id 99999 not found.');
    assert.equal(await refusal(server.owner.patch('/realm/profile_fields', { order: [taken] })), 'Invalid order mapping.');

    const github = await create({ field_type: 7, field_data: { subtype: 'github' } });
    assert.equal(await refusal(server.owner.patch(`/realm/profile_fields/${github}`, { name: 'Code' })), 'Default custom field cannot be updated.');
    assert.equal((await server.owner.patch(`/realm/profile_fields/${github}`, { required: true })).status, 200);
  });
});

describe('profile data', () => {
  test('users fill in their own fields, rendered where Markdown applies, and everyone hears of it', async () => {
    await removeAllFields();
    const bio = await create({ name: 'Biography', field_type: 2 });
    const color = await create({ name: 'Color', field_type: 3, field_data: COLORS });
    const mentor = await create({ name: 'Mentor', field_type: 6 });
    const birthday = await create({ name: 'Birthday', field_type: 4 });
    const member = await server.createUser();
    const other = await server.createUser('Other Person');
    const events = await listen(other, { event_types: ['realm_user'] });

    const changed = await member.patch('/users/me/profile_data', {
      data: [
        { id: bio, value: 'I like **bold** things' },
        { id: color, value: 'blue' },
        { id: mentor, value: [other.userId] },
        { id: birthday, value: '1990-02-28' },
      ],
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const expected = {
      [bio]: { value: 'I like **bold** things', rendered_value: '<p>I like <strong>bold</strong> things</p>' },
      [color]: { value: 'blue' },
      [mentor]: { value: `[${other.userId}]` },
      [birthday]: { value: '1990-02-28' },
    };
    const seen = await events();
    assert.deepEqual(seen[0], {
      type: 'realm_user',
      op: 'update',
      person: { user_id: member.userId, custom_profile_field: { id: bio, ...expected[bio] } },
    });
    assert.equal(seen.length, 4);

    const fetched = await other.get(`/users/${member.userId}`, { include_custom_profile_fields: true });
    assert.deepEqual(fetched.body.user.profile_data, expected);
    assert.equal((await other.get(`/users/${member.userId}`)).body.user.profile_data, undefined, 'only when asked for');
    assert.deepEqual((await member.get('/users/me')).body.profile_data, expected);
    const listing = (await other.get('/users', { include_custom_profile_fields: true })).body.members;
    assert.deepEqual(listing.find((u: { user_id: number }) => u.user_id === member.userId).profile_data, expected);

    await member.patch('/users/me/profile_data', { data: [{ id: color, value: 'blue' }] });
    assert.deepEqual(await events(), [], 'an unchanged value is not announced');

    assert.equal((await member.delete('/users/me/profile_data', { data: [color] })).status, 200);
    assert.deepEqual(await events(), [
      { type: 'realm_user', op: 'update', person: { user_id: member.userId, custom_profile_field: { id: color, value: null } } },
    ]);

    await server.restart();
    const again = server.anonymous.as(other.credentials);
    const state = (await again.post('/register', { fetch_event_types: ['realm_user'] })).body;
    const person = state.realm_users.find((u: { user_id: number }) => u.user_id === member.userId);
    const { [color]: _dropped, ...kept } = expected;
    assert.deepEqual(person.profile_data, kept);
  });

  test('values are checked against their field, in Zulip\'s words', async () => {
    await removeAllFields();
    const short = await create({ name: 'Nickname', field_type: 1 });
    const color = await create({ name: 'Color', field_type: 3, field_data: COLORS });
    const mentor = await create({ name: 'Mentor', field_type: 6 });
    const birthday = await create({ name: 'Birthday', field_type: 4 });
    const site = await create({ name: 'Website', field_type: 5 });
    const locked = await create({ name: 'Employee ID', field_type: 1, editable_by_user: false });
    const member = await server.createUser();
    const set = (id: number, value: unknown) => refusal(member.patch('/users/me/profile_data', { data: [{ id, value }] }));

    assert.equal(await set(short, 'x'.repeat(51)), 'Nickname is too long (limit: 50 characters)');
    assert.equal(await set(short, [1]), 'Nickname is not a string');
    assert.equal(await set(color, 'green'), "'green' is not a valid choice for 'Color'.");
    assert.equal(await set(mentor, [99999]), 'Invalid user IDs: 99999');
    assert.equal(await set(mentor, 'someone'), 'User IDs is not a list');
    assert.equal(await set(birthday, '2023-02-30'), 'Birthday is not a date');
    assert.equal(await set(site, 'not a link'), 'Website is not a URL');
    assert.equal(await set(99999, 'x'), 'Field id 99999 not found.');
    assert.equal(await set(locked, 'E-1'), 'You are not allowed to change this field. Contact an administrator to update it.');
    assert.equal(await refusal(member.delete('/users/me/profile_data', { data: [locked] })), 'You are not allowed to change this field. Contact an administrator to update it.');

    const bot = (await member.post('/bots', { full_name: `Helper ${member.userId}`, short_name: `helper${member.userId}` })).body;
    const asBot = server.anonymous.as({ email: `helper${member.userId}-bot@stoa.local`, apiKey: bot.api_key });
    assert.equal(await refusal(asBot.patch('/users/me/profile_data', { data: [{ id: short, value: 'x' }] })), 'This endpoint does not accept bot requests.');
  });

  test('administrators set and clear other users\' values, even fields users cannot edit', async () => {
    await removeAllFields();
    const locked = await create({ name: 'Employee ID', field_type: 1, editable_by_user: false });
    const site = await create({ name: 'Website', field_type: 5 });
    const member = await server.createUser();
    const events = await listen(member, { event_types: ['realm_user'] });

    const set = await server.owner.patch(`/users/${member.userId}`, {
      profile_data: [
        { id: locked, value: 'E-42' },
        { id: site, value: 'https://example.com/me' },
      ],
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const profile = (await member.get('/users/me')).body.profile_data;
    assert.deepEqual(profile, {
      [locked]: { value: 'E-42', rendered_value: '<p>E-42</p>' },
      [site]: { value: 'https://example.com/me' },
    });
    assert.equal((await events()).length, 2);

    assert.equal((await server.owner.patch(`/users/${member.userId}`, { profile_data: [{ id: site, value: null }] })).status, 200);
    assert.deepEqual(Object.keys((await member.get('/users/me')).body.profile_data), [String(locked)]);
    assert.equal(
      // Zulip's access_user_by_id for administrators' changes: a member is refused even for themselves.
      await refusal(member.patch(`/users/${member.userId}`, { profile_data: [{ id: site, value: 'https://x.example' }] })),
      'Insufficient permission',
    );
  });

  test('deleting a field or an option drops the values that depended on it', async () => {
    await removeAllFields();
    const color = await create({ name: 'Color', field_type: 3, field_data: COLORS });
    const nickname = await create({ name: 'Nickname', field_type: 1 });
    const member = await server.createUser();
    await member.patch('/users/me/profile_data', { data: [{ id: color, value: 'red' }, { id: nickname, value: 'Nick' }] });

    const onlyBlue = { blue: COLORS.blue };
    assert.equal((await server.owner.patch(`/realm/profile_fields/${color}`, { field_data: onlyBlue })).status, 200);
    assert.deepEqual(Object.keys((await member.get('/users/me')).body.profile_data), [String(nickname)]);
    assert.equal((await server.owner.delete(`/realm/profile_fields/${nickname}`)).status, 200);
    assert.deepEqual((await member.get('/users/me')).body.profile_data, {});
  });
});
