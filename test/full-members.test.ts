import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen } from './support/events';
import { ManualClock, TestServer } from './support/server';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('full members and the waiting period', () => {
  const clock = new ManualClock();
  let server: TestServer;
  before(async () => {
    server = await TestServer.start({ clock });
  });
  after(() => server.close());

  async function fullMemberIds(): Promise<number[]> {
    const response = await server.owner.get(`/user_groups/${server.groupId('role:fullmembers')}/members`, { direct_member_only: true });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body.members;
  }

  test('with no waiting period, a new member is a full member at once', async () => {
    const member = await server.createUser();
    assert.ok((await fullMemberIds()).includes(member.userId));
  });

  test('a longer waiting period takes newer members out, and promotes them when it ends', async () => {
    const older = await server.createUser();
    clock.advance(2 * DAY_MS);
    const newer = await server.createUser();
    // The queue outlives the days the clock is moved on (an idle queue lives ten minutes).
    const listener = await listen(server.owner, { event_types: ['user_group'], idle_queue_timeout: 7 * 86_400 });
    const fullMembers = server.groupId('role:fullmembers');
    const ours = [older.userId, newer.userId];
    // This test's people's comings and goings in role:fullmembers.
    const events = async () =>
      (await listener())
        .filter((e) => e.group_id === fullMembers && ours.includes(e.user_ids[0]))
        .map((e) => [e.op, e.user_ids]);

    assert.equal((await server.owner.patch('/realm', { waiting_period_threshold: 3 })).status, 200);
    assert.deepEqual(await events(), [['remove_members', [older.userId]], ['remove_members', [newer.userId]]]);
    const justJoined = await server.createUser();
    ours.push(justJoined.userId);
    assert.ok(!(await fullMemberIds()).some((id) => [older.userId, newer.userId, justJoined.userId].includes(id)));

    // A day later the older account has waited three days.
    clock.advance(DAY_MS);
    await new Promise((resolve) => setImmediate(resolve));
    const full = await fullMemberIds();
    assert.ok(full.includes(older.userId));
    assert.ok(!full.includes(newer.userId) && !full.includes(justJoined.userId));
    assert.deepEqual(await events(), [['add_members', [older.userId]]]);

    // The server is stopped while the others' waiting periods end: the start catches up.
    await server.restart();
    clock.advance(3 * DAY_MS);
    await server.restart();
    const caughtUp = await fullMemberIds();
    assert.ok([older.userId, newer.userId, justJoined.userId].every((id) => caughtUp.includes(id)));
  });

  test('a permission given to full members follows the waiting period', async () => {
    await server.owner.patch('/realm', { waiting_period_threshold: 0 });
    await server.owner.patch('/realm', { can_create_groups: JSON.stringify({ new: server.groupId('role:fullmembers') }) });
    const member = await server.createUser();
    const create = (name: string) => member.post('/user_groups/create', { name, description: 'd', members: JSON.stringify([member.userId]) });
    assert.equal((await create('made at once')).status, 200);
    await server.owner.patch('/realm', { waiting_period_threshold: 10 });
    const refused = await create('made too early');
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'Insufficient permission');
    // Moderators are full members through the group's subgroup, however new.
    await server.owner.patch(`/users/${member.userId}`, { role: 300 });
    assert.equal((await create('made as a moderator')).status, 200);
    // Back to member: not yet full again.
    await server.owner.patch(`/users/${member.userId}`, { role: 400 });
    assert.ok(!(await fullMemberIds()).includes(member.userId));
    clock.advance(10 * DAY_MS);
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok((await fullMemberIds()).includes(member.userId));
    assert.equal((await create('made when full')).status, 200);
  });
});
