import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import { listen } from './support/events';
import { TestServer } from './support/server';

/** Default channel groups: /default_stream_groups, their register state and their events. */

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

function refusal(response: { status: number; body: any }): string {
  assert.equal(response.status, 400, JSON.stringify(response.body));
  return response.body.msg;
}

async function groupsSeenBy(client: typeof server.owner) {
  return (await client.post('/register', { fetch_event_types: ['default_stream_groups'] })).body.realm_default_stream_groups;
}

describe('default channel groups', () => {
  test('are created, edited, given and taken channels and removed by administrators, with the whole list sent to everyone but guests', async () => {
    const owner = server.owner;
    const [member, guest] = [await server.createUser(), await server.createUser()];
    assert.equal((await owner.patch(`/users/${guest.userId}`, { role: 600 })).status, 200);
    const [one, two, three] = [await createChannel(owner), await createChannel(owner), await createChannel(owner)];
    const memberEvents = await listen(member, { event_types: ['default_stream_groups'] });
    const guestEvents = await listen(guest, { event_types: ['default_stream_groups'] });

    const created = await owner.post('/default_stream_groups/create', {
      group_name: 'group1',
      description: 'This is group1',
      stream_names: [one.name, two.name],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const [group] = await groupsSeenBy(member);
    const id = group.id as number;
    assert.deepEqual(group, { id, name: 'group1', description: 'This is group1', streams: [one.id, two.id].sort((a, b) => a - b) });
    assert.deepEqual(await memberEvents(), [{ type: 'default_stream_groups', default_stream_groups: [group] }]);

    assert.equal((await owner.patch(`/default_stream_groups/${id}/streams`, { op: 'add', stream_names: [three.name] })).status, 200);
    assert.equal((await owner.patch(`/default_stream_groups/${id}/streams`, { op: 'remove', stream_names: [one.name] })).status, 200);
    assert.equal((await owner.patch(`/default_stream_groups/${id}`, { new_group_name: 'new group1', new_description: 'Renamed' })).status, 200);
    const edited = { id, name: 'new group1', description: 'Renamed', streams: [two.id, three.id].sort((a, b) => a - b) };
    const events = await memberEvents();
    assert.equal(events.length, 3);
    assert.deepEqual(events.at(-1), { type: 'default_stream_groups', default_stream_groups: [edited] });

    // Archiving a channel takes it out of every group.
    assert.equal((await owner.delete(`/streams/${two.id}`)).status, 200);
    assert.deepEqual((await memberEvents()).at(-1), {
      type: 'default_stream_groups',
      default_stream_groups: [{ ...edited, streams: [three.id] }],
    });

    assert.deepEqual(await guestEvents(), [], 'guests are not told');
    await server.restart();
    const again = server.anonymous.as(member.credentials);
    assert.deepEqual(await groupsSeenBy(again), [{ ...edited, streams: [three.id] }]);
    assert.deepEqual(await groupsSeenBy(server.anonymous.as(guest.credentials)), [], 'guests are not offered groups');
    assert.equal((await server.owner.delete(`/default_stream_groups/${id}`)).status, 200);
    assert.deepEqual(await groupsSeenBy(again), []);
  });

  test('refuse what Zulip refuses, in its words, and leave everything as it was', async () => {
    const owner = server.owner;
    const member = await server.createUser();
    const [a, b] = [await createChannel(owner), await createChannel(owner)];
    const fixed = await createChannel(owner);
    assert.equal((await owner.post('/default_streams', { stream_id: fixed.id })).status, 200);
    const create = (params: Record<string, unknown>) =>
      owner.post('/default_stream_groups/create', { group_name: 'refusals', description: 'd', stream_names: [a.name], ...params });

    assert.equal(refusal(await member.post('/default_stream_groups/create', { group_name: 'x', description: '', stream_names: [] })), 'Must be an organization administrator');
    assert.equal(refusal(await create({ group_name: '' })), "Invalid default channel group name ''");
    assert.equal(refusal(await create({ group_name: 'x'.repeat(61) })), 'Default channel group name too long (limit: 60 characters)');
    assert.equal(refusal(await create({ group_name: 'abc\0' })), "Default channel group name 'abc\0' contains NULL (0x00) characters.");
    assert.equal(refusal(await create({ stream_names: ['random stream name'] })), "Invalid channel name 'random stream name'");
    assert.equal(refusal(await create({ stream_names: [fixed.name] })), `'${fixed.name}' is a default channel and cannot be added to 'refusals'`);
    assert.equal(
      refusal(await owner.post('/default_stream_groups/create', { group_name: 'refusals', description: 'd' })),
      "Missing 'stream_names' argument",
    );
    assert.equal((await create({})).status, 200);
    assert.equal(refusal(await create({})), "Default channel group 'refusals' already exists");
    const [group] = (await groupsSeenBy(owner)).filter((g: any) => g.name === 'refusals');
    const streams = `/default_stream_groups/${group.id}/streams`;

    assert.equal(refusal(await owner.patch(streams, { stream_names: [b.name] })), "Missing 'op' argument");
    assert.equal(refusal(await owner.patch(streams, { op: 'invalid', stream_names: [b.name] })), 'Invalid value for "op". Specify one of "add" or "remove".');
    assert.equal(refusal(await owner.patch('/default_stream_groups/12345/streams', { op: 'add', stream_names: [b.name] })), "Default channel group with id '12345' does not exist.");
    assert.equal(refusal(await owner.patch(streams, { op: 'add', stream_names: [b.name, a.name] })), `Channel '${a.name}' is already present in default channel group 'refusals'`);
    assert.equal(refusal(await owner.patch(streams, { op: 'remove', stream_names: [a.name, b.name] })), `Channel '${b.name}' is not present in default channel group 'refusals'`);
    assert.equal(refusal(await owner.patch(`/default_stream_groups/${group.id}`, {})), 'You must pass "new_description" or "new_group_name".');
    assert.equal(refusal(await owner.patch(`/default_stream_groups/${group.id}`, { new_group_name: 'refusals' })), "This default channel group is already named 'refusals'");
    assert.equal(refusal(await member.delete(`/default_stream_groups/${group.id}`)), 'Must be an organization administrator');
    assert.equal(refusal(await owner.delete('/default_stream_groups/12345')), "Default channel group with id '12345' does not exist.");
    assert.deepEqual((await groupsSeenBy(owner)).find((g: any) => g.id === group.id), { ...group, streams: [a.id] }, 'nothing changed');
  });
});
