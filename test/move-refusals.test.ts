import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { sendMessage } from './support/messages';
import { refusal } from './support/refusals';
import { ManualClock, TestServer } from './support/server';

/**
 * What Zulip answers someone who moves messages without the right (PATCH /messages/{id} with
 * `topic`, `stream_id` and `propagate_mode`), read from its check_update_message and the
 * channel permission helpers it calls (can_edit_topic, can_resolve_topics,
 * can_move_messages_out_of_channel): who may, which words, and which check comes first.
 */

type User = Client & { userId: number };

const clock = new ManualClock();
let server: TestServer;
let member: User;
let admin: User;
let origin: number;
let target: number;

const NO_TOPIC_EDIT = { status: 400, code: 'BAD_REQUEST', msg: "You don't have permission to edit this message" };
const NO_MOVE = { status: 400, code: 'BAD_REQUEST', msg: "You don't have permission to move this message" };
const NO_RESOLVE = { status: 400, code: 'BAD_REQUEST', msg: "You don't have permission to resolve topics in this channel." };

before(async () => {
  server = await TestServer.start({ clock });
  member = await server.createUser('Mel Member');
  admin = await server.createUser('Ada Admin');
  ok(await server.owner.patch(`/users/${admin.userId}`, { role: 200 }), 'administrator');
  origin = (await createChannel(server.owner, { principals: [server.ownerId, member.userId, admin.userId] })).id;
  target = (await createChannel(server.owner, { principals: [server.ownerId, member.userId, admin.userId] })).id;
});
after(() => server.close());

function ok(response: { status: number; body: any }, what: string): any {
  assert.equal(response.status, 200, `${what}: ${JSON.stringify(response.body)}`);
  return response.body;
}

function group(name: string): string {
  return JSON.stringify({ new: server.groupId(name) });
}

function only(user: User): string {
  return JSON.stringify({ new: { direct_members: [user.userId], direct_subgroups: [] } });
}

/** Sets organization permissions for one test and puts them back after it. */
async function withRealm(settings: Record<string, string>, body: () => Promise<void>): Promise<void> {
  const before = (await server.owner.post('/register', { fetch_event_types: ['realm'] })).body;
  ok(await server.owner.patch('/realm', settings), 'realm settings');
  try {
    await body();
  } finally {
    const restore: Record<string, string> = {};
    for (const key of Object.keys(settings)) {
      const value = before[`realm_${key}`];
      restore[key] = JSON.stringify(key.endsWith('_group') ? { new: value } : value);
    }
    ok(await server.owner.patch('/realm', restore), 'restore realm settings');
  }
}

async function post(client: Client, channel: number, topic: string): Promise<number> {
  return sendMessage(client, { type: 'stream', to: channel, topic, content: 'to be moved' });
}

describe('moving messages between channels', () => {
  test('organization and channel administrators may, even where the organization names nobody', async () => {
    await withRealm({ can_move_messages_between_channels_group: group('role:nobody') }, async () => {
      const message = await post(member, origin, 'away');
      assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { stream_id: target })), NO_MOVE);
      ok(await admin.patch(`/messages/${message}`, { stream_id: target }), 'an organization administrator moves it');
      const second = await post(member, origin, 'away');
      ok(await server.owner.patch(`/streams/${origin}`, { can_administer_channel_group: only(member) }), 'channel administrator');
      try {
        ok(await member.patch(`/messages/${second}`, { stream_id: target }), 'the channel administrator moves it');
      } finally {
        ok(await server.owner.patch(`/streams/${origin}`, { can_administer_channel_group: group('role:administrators') }), 'restore');
      }
    });
  });

  test('the new channel asks only its can_send_message_group of the mover', async () => {
    const closed = (await createChannel(server.owner, { principals: [member.userId], can_send_message_group: server.groupId('role:administrators') })).id;
    const message = await post(member, origin, 'posting');
    assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { stream_id: closed })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'You do not have permission to post in this channel.',
    });
    // Content access through can_subscribe_group is enough, without a subscription, even where
    // history is protected (sending there would be refused).
    const hidden = (
      await createChannel(server.owner, {
        invite_only: true,
        history_public_to_subscribers: false,
        can_subscribe_group: { direct_members: [member.userId], direct_subgroups: [] },
      })
    ).id;
    ok(await member.patch(`/messages/${message}`, { stream_id: hidden }), 'moved into a channel one may join');
    const unseen = (await createChannel(server.owner, { invite_only: true })).id;
    const other = await post(member, origin, 'posting');
    assert.deepEqual(await refusal(member.patch(`/messages/${other}`, { stream_id: unseen })), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  });

  test('the permission to move comes before the one to start a topic in the new channel', async () => {
    const noNewTopics = (await createChannel(server.owner, { principals: [member.userId], can_create_topic_group: server.groupId('role:nobody') })).id;
    const message = await post(member, origin, 'fresh');
    await withRealm({ can_move_messages_between_channels_group: group('role:nobody') }, async () => {
      assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { stream_id: noNewTopics })), NO_MOVE);
    });
    assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { stream_id: noNewTopics })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'You do not have permission to create new topics in this channel.',
    });
  });
});

describe('changing topics', () => {
  test('the organization, the channel administrators, or either channel may allow it', async () => {
    await withRealm({ can_move_messages_between_topics_group: group('role:nobody') }, async () => {
      const message = await post(member, origin, 'before');
      assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { topic: 'after' })), NO_TOPIC_EDIT);
      // With a channel change too, the topic is checked first.
      await withRealm({ can_move_messages_between_channels_group: group('role:nobody') }, async () => {
        assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { topic: 'after', stream_id: target })), NO_TOPIC_EDIT);
      });
      ok(await admin.patch(`/messages/${message}`, { topic: 'by the administrator' }), 'an organization administrator renames it');
      ok(await server.owner.patch(`/streams/${origin}`, { can_administer_channel_group: only(member) }), 'channel administrator');
      try {
        ok(await member.patch(`/messages/${message}`, { topic: 'by the channel administrator' }), 'the channel administrator renames it');
      } finally {
        ok(await server.owner.patch(`/streams/${origin}`, { can_administer_channel_group: group('role:administrators') }), 'restore');
      }
      // The channel the messages go to may allow it as well.
      ok(await server.owner.patch(`/streams/${target}`, { can_move_messages_within_channel_group: only(member) }), 'target allows');
      try {
        ok(await member.patch(`/messages/${message}`, { topic: 'moved and renamed', stream_id: target }), 'the new channel allows it');
      } finally {
        ok(await server.owner.patch(`/streams/${target}`, { can_move_messages_within_channel_group: group('role:nobody') }), 'restore');
      }
    });
  });

  test('resolving asks the resolving permission, also while changing channel', async () => {
    await withRealm({ can_resolve_topics_group: group('role:nobody'), can_move_messages_between_topics_group: group('role:nobody') }, async () => {
      const message = await post(member, origin, 'question');
      assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { topic: '✔ question' })), NO_RESOLVE);
      assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { topic: '✔ question', stream_id: target })), NO_RESOLVE);
      ok(await server.owner.patch(`/streams/${target}`, { can_resolve_topics_group: only(member) }), 'target allows resolving');
      try {
        ok(await member.patch(`/messages/${message}`, { topic: '✔ question', stream_id: target }), 'resolved while moved');
      } finally {
        ok(await server.owner.patch(`/streams/${target}`, { can_resolve_topics_group: group('role:nobody') }), 'restore');
      }
    });
  });
});

describe('time limits of moves', () => {
  test("the topic's, the channel's and the whole topic's limits, which resolving skips", async () => {
    await withRealm({ move_messages_within_stream_limit_seconds: '60', move_messages_between_streams_limit_seconds: '60' }, async () => {
      const old = await post(member, origin, 'aging');
      clock.advance(200_000);
      const recent = await post(member, origin, 'aging');
      assert.deepEqual(await refusal(member.patch(`/messages/${old}`, { topic: 'renamed' })), {
        status: 400,
        code: 'BAD_REQUEST',
        msg: "The time limit for editing this message's topic has passed.",
      });
      assert.deepEqual(await refusal(member.patch(`/messages/${old}`, { stream_id: target })), {
        status: 400,
        code: 'BAD_REQUEST',
        msg: "The time limit for editing this message's channel has passed",
      });
      const whole = await member.patch(`/messages/${recent}`, { stream_id: target, propagate_mode: 'change_all' });
      assert.equal(whole.status, 400);
      assert.deepEqual(whole.body, {
        result: 'error',
        code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
        msg: 'You only have permission to move the 1/2 most recent messages in this topic.',
        first_message_id_allowed_to_move: recent,
        total_messages_in_topic: 2,
        total_messages_allowed_to_move: 1,
      });
      // Resolving the topic as it moves is not held to the whole topic's limit.
      ok(await member.patch(`/messages/${recent}`, { topic: '✔ aging', stream_id: target, propagate_mode: 'change_all' }), 'resolved and moved');
    });
  });

  test('the whole topic is counted as the mover can read it, where history is protected', async () => {
    await withRealm({ move_messages_within_stream_limit_seconds: '60' }, async () => {
      const guarded = await createChannel(server.owner, { invite_only: true, history_public_to_subscribers: false });
      await post(server.owner, guarded.id, 'before you came');
      clock.advance(200_000);
      const joined = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: guarded.name }], principals: [member.userId] });
      ok(joined, 'member joins');
      const mine = await post(member, guarded.id, 'before you came');
      // The old message the member never received neither counts nor blocks the rename.
      ok(await member.patch(`/messages/${mine}`, { topic: 'renamed', propagate_mode: 'change_all' }), 'renamed the topic as the member sees it');
    });
  });
});

describe("a stream_id naming the message's own channel (Zulip's build_message_edit_request sets is_stream_edited for any stream_id)", () => {
  test('it is a move: its permission, its time limit, no content with it, and propagate_mode is accepted', async () => {
    const message = await post(member, origin, 'staying');
    await withRealm({ can_move_messages_between_channels_group: group('role:nobody') }, async () => {
      assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { stream_id: origin })), NO_MOVE);
      assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { stream_id: origin, propagate_mode: 'change_all' })), NO_MOVE);
    });
    assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { stream_id: origin, content: 'new words' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Cannot change message content while changing channel',
    });
    await withRealm({ move_messages_between_streams_limit_seconds: '60' }, async () => {
      clock.advance(200_000);
      assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { stream_id: origin })), {
        status: 400,
        code: 'BAD_REQUEST',
        msg: "The time limit for editing this message's channel has passed",
      });
    });
  });

  test('allowed, it is recorded and announced as a move to the same place', async () => {
    const message = await post(member, origin, 'in place');
    ok(await member.patch(`/messages/${message}`, { stream_id: origin }), 'moved to its own channel');
    const fetched = ok(await member.get(`/messages/${message}`), 'fetch').message;
    assert.equal(fetched.stream_id, origin);
    assert.deepEqual(
      fetched.edit_history.map((entry: Record<string, unknown>) => [entry.prev_stream, entry.stream]),
      [[origin, origin]],
    );
    const notices = ok(
      await member.get('/messages', {
        anchor: 'newest',
        num_before: 1,
        num_after: 0,
        narrow: JSON.stringify([{ operator: 'channel', operand: origin }, { operator: 'topic', operand: 'in place' }]),
      }),
      'the topic',
    ).messages;
    assert.match(notices[0].content, /was moved here from/);
  });
});

describe("a channel's topics policy on an edit that moves nothing (Zulip's build_message_edit_request)", () => {
  test('a message left in a named topic of a channel that takes only the empty topic cannot be edited', async () => {
    const channel = (await createChannel(server.owner, { principals: [member.userId] })).id;
    const message = await post(member, channel, 'named');
    // The API refuses this policy while named topics exist; a channel brought in from elsewhere
    // may still be in this state.
    server.stoa.db.prepare("UPDATE streams SET topics_policy = 'empty_topic_only' WHERE id = ?").run(channel);
    assert.deepEqual(await refusal(member.patch(`/messages/${message}`, { content: 'edited' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Only the general chat topic is allowed in this channel.',
    });
    // Moving it into the empty topic is the way out.
    ok(await member.patch(`/messages/${message}`, { topic: '' }), 'moved into the empty topic');
    ok(await member.patch(`/messages/${message}`, { content: 'edited' }), 'edited there');
  });
});
