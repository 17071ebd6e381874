import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { sendMessage } from './support/messages';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 160, b: 90 } } }).png().toBuffer();
}

/** A two-frame animated GIF, red then blue. */
async function animatedGif(width: number, height: number): Promise<Buffer> {
  const frame = (r: number, b: number) => sharp({ create: { width, height, channels: 3, background: { r, g: 0, b } } }).png().toBuffer();
  const frames = await Promise.all([frame(255, 0), frame(0, 255)]);
  return sharp(frames, { join: { animated: true } }).gif({ delay: [100, 100] }).toBuffer();
}

async function addEmoji(client: Client, name: string, bytes: Buffer, fileName = 'emoji.png') {
  return client.upload(`/realm/emoji/${encodeURIComponent(name)}`, [{ name: fileName, bytes, type: 'image/png' }]);
}

async function added(client: Client, name: string, bytes: Buffer, fileName?: string): Promise<Record<string, any>> {
  const response = await addEmoji(client, name, bytes, fileName);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  const listed = Object.values((await client.get('/realm/emoji')).body.emoji as Record<string, Record<string, any>>);
  return listed.find((emoji) => emoji.name === name.replace(/ /g, '_') && !emoji.deactivated)!;
}

function refusal(response: { status: number; body: Record<string, unknown> }, message: string, status = 400) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body.msg, message);
}

describe('POST /realm/emoji/{emoji_name}', () => {
  test('adds a PNG emoji made 64x64 at most, lists it, and tells everyone the whole list', async () => {
    const member = await server.createUser();
    const events = await listen(server.owner, { event_types: ['realm_emoji'] });
    const emoji = await added(member, 'green_tick', await png(200, 100));
    const realmId = server.stoa.realm.get()!.id;
    assert.match(emoji.source_url, new RegExp(`^/user_avatars/${realmId}/emoji/images/[\\w-]+\\.png$`));
    assert.deepEqual(emoji, {
      id: emoji.id,
      name: 'green_tick',
      source_url: emoji.source_url,
      still_url: null,
      deactivated: false,
      author_id: member.userId,
    });
    const [event] = await events();
    assert.equal(event.type, 'realm_emoji');
    assert.equal(event.op, 'update');
    assert.deepEqual(event.realm_emoji[emoji.id], emoji);

    // Served to anyone, without credentials, resized to fit the emoji square.
    const image = await server.anonymous.download(emoji.source_url, { anonymous: true });
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    const meta = await sharp(image.bytes).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 64, 32]);

    const state = (await member.post('/register', { fetch_event_types: ['realm_emoji'] })).body;
    assert.deepEqual(state.realm_emoji[emoji.id], emoji);
  });

  test('keeps an animated GIF moving, with a still first frame beside it', async () => {
    const emoji = await added(server.owner, 'party-parrot', await animatedGif(100, 80), 'parrot.gif');
    assert.match(emoji.source_url, /\.gif$/);
    assert.match(emoji.still_url, /\/emoji\/images\/still\/[\w-]+\.png$/);
    const moving = await server.anonymous.download(emoji.source_url, { anonymous: true });
    assert.equal(moving.headers.get('content-type'), 'image/gif');
    const movingMeta = await sharp(moving.bytes).metadata();
    assert.equal(movingMeta.format, 'gif');
    assert.equal(movingMeta.pages, 2);
    assert.equal(movingMeta.width, 64);
    const still = await server.anonymous.download(emoji.still_url, { anonymous: true });
    assert.equal(still.status, 200);
    const stillMeta = await sharp(still.bytes).metadata();
    assert.deepEqual([stillMeta.format, stillMeta.pages ?? 1, stillMeta.width], ['png', 1, 64]);
  });

  test('keeps an animated WebP moving too', async () => {
    const gif = await animatedGif(90, 90);
    const webp = await sharp(gif, { animated: true }).webp().toBuffer();
    const emoji = await added(server.owner, 'spinner', webp, 'spinner.webp');
    assert.match(emoji.source_url, /\.webp$/);
    assert.ok(emoji.still_url);
    const moving = await server.anonymous.download(emoji.source_url, { anonymous: true });
    assert.equal(moving.headers.get('content-type'), 'image/webp');
    const meta = await sharp(moving.bytes).metadata();
    assert.deepEqual([meta.format, meta.pages, meta.width], ['webp', 2, 64]);
  });

  test('a small image keeps its size', async () => {
    const emoji = await added(server.owner, 'tiny', await png(16, 16));
    const meta = await sharp((await server.anonymous.download(emoji.source_url, { anonymous: true })).bytes).metadata();
    assert.deepEqual([meta.width, meta.height], [16, 16]);
  });

  test('a name with spaces is stored with underscores', async () => {
    const emoji = await added(server.owner, 'thumbs up now', await png(8, 8));
    assert.equal(emoji.name, 'thumbs_up_now');
  });

  test('refuses bad names, taken names, missing and non-image files, as Zulip does', async () => {
    const image = await png(10, 10);
    await added(server.owner, 'taken', image);
    refusal(await addEmoji(server.owner, 'Capital', image), 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
    refusal(await addEmoji(server.owner, 'ok!', image), 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
    refusal(await addEmoji(server.owner, 'trailing_', image), 'Emoji names must end with either a letter or digit.');
    refusal(await addEmoji(server.owner, 'taken', image), 'A custom emoji with this name already exists.');
    refusal(await server.owner.upload('/realm/emoji/nofile', []), 'You must upload exactly one file.');
    refusal(await addEmoji(server.owner, 'text', Buffer.from('not an image at all')), 'Invalid image format');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    refusal(await addEmoji(server.owner, 'drawing', svg, 'drawing.svg'), 'Invalid image format');
    const listed = Object.values((await server.owner.get('/realm/emoji')).body.emoji as Record<string, { name: string }>);
    assert.ok(!listed.some((emoji) => ['Capital', 'nofile', 'text', 'drawing'].includes(emoji.name)));
  });

  test('refuses a file over the emoji size limit', async () => {
    // Random pixels do not compress: a PNG well over 5 MiB.
    const noise = Buffer.alloc(1400 * 1400 * 3);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: 1400, height: 1400, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    assert.ok(big.length > 5 * 1024 * 1024, String(big.length));
    refusal(await addEmoji(server.owner, 'huge', big), 'Uploaded file is larger than the allowed limit of 5 MiB');
  });

  test('only administrators may hide a built-in emoji; guests may not add; the organization may restrict members', async () => {
    const member = await server.createUser();
    const image = await png(10, 10);
    refusal(await addEmoji(member, 'smile', image), 'Only administrators can override default emoji.');

    const guest = await server.createUser();
    await server.owner.patch(`/users/${guest.userId}`, { role: 600 });
    refusal(await addEmoji(guest, 'guesty', image), 'Not allowed for guest users');

    const admins = server.groupId('role:administrators');
    assert.equal((await server.owner.patch('/realm', { can_add_custom_emoji_group: { new: admins } })).status, 200);
    try {
      refusal(await addEmoji(member, 'memberish', image), 'Insufficient permission');
      await added(server.owner, 'adminish', image);
    } finally {
      await server.owner.patch('/realm', { can_add_custom_emoji_group: { new: server.groupId('role:members') } });
    }
    await added(member, 'memberish', image);
  });
});

describe('DELETE /realm/emoji/{emoji_name}', () => {
  test('deactivates: the emoji stays listed and served, its name is free, and only its author or an administrator may', async () => {
    const author = await server.createUser();
    const other = await server.createUser();
    const emoji = await added(author, 'going', await png(10, 10));
    refusal(await other.delete('/realm/emoji/going'), 'Must be an organization administrator or emoji author');

    const events = await listen(other, { event_types: ['realm_emoji'] });
    assert.equal((await author.delete('/realm/emoji/going')).status, 200);
    const [event] = await events();
    assert.deepEqual(event.realm_emoji[emoji.id], { ...emoji, deactivated: true });
    assert.deepEqual((await other.get('/realm/emoji')).body.emoji[emoji.id], { ...emoji, deactivated: true });
    assert.equal((await server.anonymous.download(emoji.source_url, { anonymous: true })).status, 200);
    refusal(await author.delete('/realm/emoji/going'), "Emoji 'going' does not exist", 404);

    // The name may be used again, for a new emoji with a new ID.
    const again = await added(other, 'going', await png(12, 12));
    assert.notEqual(again.id, emoji.id);
    // An administrator may deactivate anyone's.
    assert.equal((await server.owner.delete('/realm/emoji/going')).status, 200);
  });
});

describe('using custom emoji', () => {
  test('`:name:` renders the custom emoji, and a custom name hides the Unicode one', async () => {
    const emoji = await added(server.owner, 'stoa_logo', await png(20, 20));
    const octopus = await added(server.owner, 'octopus', await png(20, 20));
    const channel = await createChannel(server.owner, { principals: [server.ownerId] });
    const id = await sendMessage(server.owner, { type: 'stream', to: channel.name, topic: 'emoji', content: 'look :stoa_logo: and :octopus:' });
    const { content } = (await server.owner.get(`/messages/${id}`)).body.message;
    assert.equal(
      content,
      `<p>look <img alt=":stoa_logo:" class="emoji" src="${emoji.source_url}" title="stoa logo"> and ` +
        `<img alt=":octopus:" class="emoji" src="${octopus.source_url}" title="octopus"></p>`,
    );
    // A deactivated emoji's name is plain text in new messages; the Unicode octopus is back.
    await server.owner.delete('/realm/emoji/stoa_logo');
    await server.owner.delete('/realm/emoji/octopus');
    const later = await sendMessage(server.owner, { type: 'stream', to: channel.name, topic: 'emoji', content: ':stoa_logo: :octopus:' });
    const laterContent = (await server.owner.get(`/messages/${later}`)).body.message.content as string;
    assert.ok(laterContent.startsWith('<p>:stoa_logo: <span aria-label="octopus" class="emoji emoji-1f419"'), laterContent);
  });

  test('reactions: by name or by ID; a deactivated emoji cannot be newly used but existing reactions stay', async () => {
    const member = await server.createUser();
    const channel = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    const id = await sendMessage(server.owner, { type: 'stream', to: channel.name, topic: 'reactions', content: 'react' });
    const emoji = await added(server.owner, 'yay', await png(10, 10));

    const events = await listen(member, { event_types: ['reaction'] });
    assert.equal((await member.post(`/messages/${id}/reactions`, { emoji_name: 'yay' })).status, 200);
    const [event] = await events();
    assert.equal(event.op, 'add');
    assert.deepEqual([event.emoji_name, event.emoji_code, event.reaction_type], ['yay', emoji.id, 'realm_emoji']);
    const byId = await server.owner.post(`/messages/${id}/reactions`, { emoji_name: 'yay', emoji_code: emoji.id, reaction_type: 'realm_emoji' });
    assert.equal(byId.status, 200, JSON.stringify(byId.body));

    const other = await sendMessage(server.owner, { type: 'stream', to: channel.name, topic: 'reactions', content: 'react again' });
    refusal(
      await member.post(`/messages/${other}/reactions`, { emoji_name: 'nay', emoji_code: emoji.id, reaction_type: 'realm_emoji' }),
      'Invalid custom emoji name.',
    );
    refusal(
      await member.post(`/messages/${other}/reactions`, { emoji_name: 'yay', emoji_code: '999999', reaction_type: 'realm_emoji' }),
      'Invalid custom emoji.',
    );

    await server.owner.delete('/realm/emoji/yay');
    refusal(
      await member.post(`/messages/${other}/reactions`, { emoji_name: 'yay', emoji_code: emoji.id, reaction_type: 'realm_emoji' }),
      'This custom emoji has been deactivated.',
    );
    const reactions = (await member.get(`/messages/${id}`)).body.message.reactions as Array<Record<string, unknown>>;
    assert.deepEqual(
      reactions.map((r) => [r.emoji_name, r.emoji_code, r.reaction_type, r.user_id]),
      [
        ['yay', emoji.id, 'realm_emoji', member.userId],
        ['yay', emoji.id, 'realm_emoji', server.ownerId],
      ],
    );
    // Removing one still works.
    const removed = await member.delete(`/messages/${id}/reactions`, { emoji_code: emoji.id, reaction_type: 'realm_emoji' });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
  });

  test('a user status may show a custom emoji', async () => {
    const member = await server.createUser();
    const emoji = await added(server.owner, 'on_call', await png(10, 10));
    const response = await member.post('/users/me/status', { status_text: 'paged', emoji_name: 'on_call' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual((await member.get('/users/me/status')).body.status, {
      status_text: 'paged',
      emoji_name: 'on_call',
      emoji_code: emoji.id,
      reaction_type: 'realm_emoji',
    });
  });
});

describe('after a restart', () => {
  test('emoji, their images, and deactivations are all still there; leftover files are swept', async () => {
    const kept = await added(server.owner, 'keeper', await animatedGif(30, 30), 'keeper.gif');
    const gone = await added(server.owner, 'retired', await png(10, 10));
    await server.owner.delete('/realm/emoji/retired');
    const before = (await server.owner.get('/realm/emoji')).body.emoji;
    // What a crash between storing an image and recording its emoji would leave.
    const stray = path.join(server.stoa.uploads.root, 'emoji', String(server.stoa.realm.get()!.id), 'stray.png');
    writeFileSync(stray, await png(4, 4));
    await server.restart();
    const owner = server.owner;
    assert.deepEqual((await owner.get('/realm/emoji')).body.emoji, before);
    for (const url of [kept.source_url, kept.still_url, gone.source_url]) {
      assert.equal((await server.anonymous.download(url, { anonymous: true })).status, 200, url);
    }
    // Nothing of the store other than recorded files is served.
    const realmId = server.stoa.realm.get()!.id;
    assert.equal((await server.anonymous.download(`/user_avatars/${realmId}/emoji/images/..%2F..%2Fsecret`, { anonymous: true })).status, 404);
    assert.equal((await server.anonymous.download(`/user_avatars/${realmId}/emoji/images/nope.png`, { anonymous: true })).status, 404);
    const folder = path.join(server.stoa.uploads.root, 'emoji', String(realmId));
    assert.ok(existsSync(folder));
    assert.ok(readdirSync(folder).length >= 3);
    const deadline = Date.now() + 5000;
    while (existsSync(stray) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(!existsSync(stray), 'a file without an emoji is swept at start');
  });
});
