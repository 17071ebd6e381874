import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
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

type User = Awaited<ReturnType<TestServer['createUser']>>;

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } }).png().toBuffer();
}

async function upload(client: Client, name: string, bytes: Buffer | string, type?: string): Promise<{ url: string; filename: string }> {
  const response = await client.upload('/user_uploads', [{ name, bytes, type }]);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.equal(response.body.uri, response.body.url, 'uri is the deprecated name of url');
  return { url: response.body.url, filename: response.body.filename };
}

/** Whether a file is gone within a few seconds: files are removed after the request that removes them is answered. */
async function gone(file: string): Promise<boolean> {
  const deadline = Date.now() + 5000;
  while (existsSync(file) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return !existsSync(file);
}

/** A client for a user again after a restart, which moves the server to a new port. */
function again(user: User): User {
  return Object.assign(server.anonymous.as(user.credentials), { userId: user.userId, credentials: user.credentials });
}

describe('POST /user_uploads', () => {
  test('stores a file its owner can download, lists it, and tells the owner’s clients', async () => {
    const owner = await server.createUser();
    const events = await listen(owner, { event_types: ['attachment'] });
    const { url, filename } = await upload(owner, 'my notes (v2).txt', 'hello, stoa', 'text/plain');
    const realmId = server.stoa.realm.get()!.id;
    assert.match(url, new RegExp(`^/user_uploads/${realmId}/[0-9a-f]{2}/[\\w-]{24}/my-notes-v2\\.txt$`));
    assert.equal(filename, 'my notes (v2).txt');

    const file = await owner.download(url);
    assert.equal(file.status, 200);
    assert.equal(file.bytes.toString(), 'hello, stoa');
    assert.equal(file.headers.get('content-type'), 'text/plain');
    assert.equal(file.headers.get('x-content-type-options'), 'nosniff');

    const listed = await owner.get('/attachments');
    assert.equal(listed.body.attachments.length, 1);
    const [attachment] = listed.body.attachments;
    assert.equal(attachment.name, 'my notes (v2).txt');
    assert.equal(attachment.size, 11);
    assert.equal(`/user_uploads/${attachment.path_id}`, url);
    assert.deepEqual(attachment.message_ids, []);
    assert.ok(listed.body.upload_space_used >= 11);
    const [added] = await events();
    assert.deepEqual([added.type, added.op, added.attachment.id], ['attachment', 'add', attachment.id]);
  });

  test('only the owner and readers of a message that links the file may download it', async () => {
    const owner = await server.createUser();
    const reader = await server.createUser();
    const outsider = await server.createUser();
    const { url } = await upload(owner, 'plan.pdf', '%PDF-1.4 plan', 'application/pdf');
    assert.equal((await reader.download(url)).status, 403, 'nobody else before it is shared');
    const visitor = await owner.download(url, { anonymous: true, redirect: 'manual' });
    assert.deepEqual([visitor.status, visitor.headers.get('location')], [302, `/login/?next=${url}`], 'a visitor is sent to log in');

    const channel = await createChannel(owner, { invite_only: true, principals: JSON.stringify([owner.userId, reader.userId]) });
    const events = await listen(owner, { event_types: ['attachment'] });
    const id = await sendMessage(owner, { type: 'stream', to: channel.id, topic: 'plans', content: `See [plan.pdf](${url})` });
    assert.equal((await reader.download(url)).status, 200);
    assert.equal((await outsider.download(url)).status, 403, 'not in the private channel');
    const [updated] = await events();
    assert.deepEqual([updated.op, updated.attachment.message_ids], ['update', [id]]);
    assert.deepEqual((await owner.get('/attachments')).body.attachments[0].message_ids, [id]);
  });

  test('a user cannot share someone else’s file they may not read', async () => {
    const owner = await server.createUser();
    const thief = await server.createUser();
    const bystander = await server.createUser();
    const { url } = await upload(owner, 'secret.txt', 'secret');
    const channel = await createChannel(thief, { principals: JSON.stringify([thief.userId, bystander.userId]) });
    await sendMessage(thief, { type: 'stream', to: channel.id, topic: 'leak', content: `[secret.txt](${url})` });
    assert.equal((await bystander.download(url)).status, 403);
  });

  test('images are checked, previewed in messages with Zulip’s markup, and thumbnailed', async () => {
    const owner = await server.createUser();
    const { url } = await upload(owner, 'photo.png', await png(1200, 900), 'image/png');
    const channel = await createChannel(owner);
    const id = await sendMessage(owner, { type: 'stream', to: channel.id, topic: 'pictures', content: `Look: [photo.png](${url})` });
    const message = (await owner.get(`/messages/${id}`)).body.message;
    const thumbnail = `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp`;
    assert.equal(
      message.content,
      `<p>Look: <a href="${url}">photo.png</a></p>\n` +
        `<div class="message_inline_image"><a href="${url}" title="photo.png">` +
        `<img data-original-content-type="image/png" data-original-dimensions="1200x900" src="${thumbnail}"></a></div>`,
    );
    const listed = await sendMessage(owner, { type: 'stream', to: channel.id, topic: 'pictures', content: `* first\n* [photo.png](${url})\n* last` });
    assert.match(
      (await owner.get(`/messages/${listed}`)).body.message.content,
      /<li><a href="[^"]+">photo\.png<\/a><div class="message_inline_image">.*<\/div><\/li>\n<li>last<\/li>/,
      'in a list, the preview closes the item that links the image, as on Zulip',
    );
    const made = await owner.download(thumbnail);
    assert.equal(made.status, 200);
    assert.equal(made.headers.get('content-type'), 'image/webp');
    const meta = await sharp(made.bytes).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 747, 560]);
    assert.equal((await owner.download(`${thumbnail.slice(0, -'840x560.webp'.length)}100x100.webp`)).status, 404);

    const state = (await owner.post('/register', { fetch_event_types: ['realm'] })).body;
    assert.equal(state.max_file_upload_size_mib, 25);
    assert.deepEqual(
      state.server_thumbnail_formats.map((f: { name: string }) => f.name),
      ['840x560-anim.webp', '840x560.webp'],
    );

    assert.equal((await server.owner.patch('/realm', { inline_image_preview: false })).status, 200);
    try {
      const plain = await sendMessage(owner, { type: 'stream', to: channel.id, topic: 'pictures', content: `[photo.png](${url})` });
      assert.doesNotMatch((await owner.get(`/messages/${plain}`)).body.message.content, /message_inline_image/);
    } finally {
      await server.owner.patch('/realm', { inline_image_preview: true });
    }
  });

  test('an animated image is previewed as animated, with a moving thumbnail beside the still one', async () => {
    const owner = await server.createUser();
    const frames = await Promise.all(
      [{ r: 255, g: 0, b: 0 }, { r: 0, g: 0, b: 255 }].map((background) =>
        sharp({ create: { width: 1000, height: 1000, channels: 3, background } }).png().toBuffer(),
      ),
    );
    const gif = await sharp(frames, { join: { animated: true } }).gif({ delay: [100, 100] }).toBuffer();
    const { url } = await upload(owner, 'moving.gif', gif, 'image/gif');
    const channel = await createChannel(owner);
    const id = await sendMessage(owner, { type: 'stream', to: channel.id, topic: 'gifs', content: `[moving.gif](${url})` });
    const content: string = (await owner.get(`/messages/${id}`)).body.message.content;
    assert.match(content, /<img data-animated="true" data-original-content-type="image\/gif" data-original-dimensions="1000x1000" src="[^"]+\/840x560\.webp">/);
    const base = `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}`;
    const moving = await sharp((await owner.download(`${base}/840x560-anim.webp`)).bytes, { animated: true }).metadata();
    assert.deepEqual([moving.format, moving.pages, moving.width, moving.pageHeight], ['webp', 2, 560, 560]);
    const still = await sharp((await owner.download(`${base}/840x560.webp`)).bytes).metadata();
    assert.deepEqual([still.format, still.pages ?? 1, still.width, still.height], ['webp', 1, 560, 560]);
  });

  test('a file that only claims to be an image is served as a download, never as a page', async () => {
    const owner = await server.createUser();
    const { url } = await upload(owner, 'evil.png', '<html><script>alert(1)</script></html>', 'image/png');
    const file = await owner.download(url);
    assert.equal(file.headers.get('content-type'), 'application/octet-stream');
    assert.match(file.headers.get('content-disposition') ?? '', /^attachment/);
    const svg = await upload(owner, 'drawing.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml');
    assert.match((await owner.download(svg.url)).headers.get('content-disposition') ?? '', /^attachment/);
  });

  test('refuses no file, two files and empty files with clear errors', async () => {
    const owner = await server.createUser();
    const cases: Array<[Parameters<Client['upload']>[1], string]> = [
      [[], 'You must specify a file to upload'],
      [
        [
          { name: 'a.txt', bytes: 'a' },
          { name: 'b.txt', bytes: 'b', field: 'other' },
        ],
        'You may only upload one file at a time',
      ],
      [[{ name: 'empty.txt', bytes: '' }], 'The uploaded file is empty'],
    ];
    for (const [files, msg] of cases) {
      const response = await owner.upload('/user_uploads', files, files.length === 0 ? { note: 'no file here' } : {});
      assert.deepEqual([response.status, response.body.code, response.body.msg], [400, 'BAD_REQUEST', msg]);
    }
    assert.deepEqual((await owner.get('/attachments')).body.attachments, []);
    const incoming = path.join(server.data, 'uploads', '.incoming');
    assert.deepEqual(existsSync(incoming) ? readdirSync(incoming) : [], [], 'nothing refused stays on disk');
  });

  test('GET /user_uploads/{realm_id_str}/{filename} gives a temporary URL that needs no login', async () => {
    const owner = await server.createUser();
    const { url } = await upload(owner, 'share me.txt', 'shared');
    const temporary = await owner.get(url);
    assert.equal(temporary.status, 200, JSON.stringify(temporary.body));
    assert.match(temporary.body.url, /^\/user_uploads\/temporary\/[\w.-]+\/share-me\.txt$/);
    const file = await owner.download(temporary.body.url, { anonymous: true });
    assert.deepEqual([file.status, file.bytes.toString()], [200, 'shared']);
    const forged = temporary.body.url.replace(/temporary\/(\w)/, (_all: string, c: string) => `temporary/${c === 'A' ? 'B' : 'A'}`);
    const refused = await owner.download(forged, { anonymous: true });
    assert.deepEqual([refused.status, JSON.parse(refused.bytes.toString()).msg], [400, 'Invalid token']);
    const renamed = await owner.download(temporary.body.url.replace(/[^/]+$/, 'other.txt'), { anonymous: true });
    assert.deepEqual([renamed.status, JSON.parse(renamed.bytes.toString()).msg], [400, 'Invalid filename']);
    const stranger = await server.createUser();
    assert.equal((await stranger.get(url)).status, 403);
  });
});

describe('DELETE /attachments/{attachment_id}', () => {
  test('the owner deletes a file: gone from disk, from the list, and announced', async () => {
    const owner = await server.createUser();
    const other = await server.createUser();
    const { url } = await upload(owner, 'old.txt', 'old');
    const [attachment] = (await owner.get('/attachments')).body.attachments;
    const refused = await other.delete(`/attachments/${attachment.id}`);
    assert.deepEqual([refused.status, refused.body.msg], [400, 'Invalid attachment']);
    const events = await listen(owner, { event_types: ['attachment'] });
    assert.equal((await owner.delete(`/attachments/${attachment.id}`)).status, 200);
    assert.deepEqual(await events(), [{ type: 'attachment', op: 'remove', attachment: { id: attachment.id }, upload_space_used: (await owner.get('/attachments')).body.upload_space_used }]);
    assert.equal((await owner.download(url)).status, 404);
    assert.equal(await gone(path.join(server.data, 'uploads', attachment.path_id)), true);
  });

  test('deleting the last message that links a file deletes the file, as on Zulip', async () => {
    const owner = await server.createUser();
    const { url } = await upload(owner, 'once.txt', 'once');
    const channel = await createChannel(owner);
    const first = await sendMessage(owner, { type: 'stream', to: channel.id, topic: 't', content: `[once.txt](${url})` });
    const second = await sendMessage(owner, { type: 'stream', to: channel.id, topic: 't', content: `again [once.txt](${url})` });
    assert.equal((await owner.delete(`/messages/${first}`)).status, 200);
    assert.equal((await owner.download(url)).status, 200, 'another message still links it');
    assert.equal((await owner.delete(`/messages/${second}`)).status, 200);
    assert.equal((await owner.download(url)).status, 404);
    assert.deepEqual((await owner.get('/attachments')).body.attachments, []);
  });
});

describe('uploads on disk', () => {
  test('survive a restart, and files a crash left without a row are removed at the next start', async () => {
    let owner = await server.createUser();
    const { url } = await upload(owner, 'keep.txt', 'kept');
    const realmId = server.stoa.realm.get()!.id;
    // What a crash between storing a file and committing its row leaves behind.
    const orphan = path.join(server.data, 'uploads', String(realmId), 'ab', 'crashedbeforeitsrow00000', 'lost.txt');
    mkdirSync(path.dirname(orphan), { recursive: true });
    writeFileSync(orphan, 'lost');
    const arrival = path.join(server.data, 'uploads', '.incoming', 'interrupted');
    writeFileSync(arrival, 'half');
    const past = new Date(Date.now() - 60_000);
    utimesSync(orphan, past, past);
    utimesSync(arrival, past, past);

    await server.restart();
    owner = again(owner);
    assert.equal(await gone(orphan), true, 'a file without a row is removed');
    assert.equal(await gone(arrival), true, 'an interrupted arrival is removed');
    const kept = await owner.download(url);
    assert.deepEqual([kept.status, kept.bytes.toString()], [200, 'kept']);
  });

  test('a size limit and a quota from the server’s settings', async () => {
    const small = await TestServer.start({ config: { maxFileUploadSizeMib: 1, uploadQuotaMib: 2 } });
    try {
      const tooBig = await small.owner.upload('/user_uploads', [{ name: 'big.bin', bytes: Buffer.alloc(1024 * 1024 + 1) }]);
      assert.deepEqual([tooBig.status, tooBig.body.msg], [400, 'Uploaded file is larger than the allowed limit of 1 MiB']);
      for (let i = 0; i < 2; i++) {
        const fits = await small.owner.upload('/user_uploads', [{ name: `part${i}.bin`, bytes: Buffer.alloc(1024 * 1024) }]);
        assert.equal(fits.status, 200, JSON.stringify(fits.body));
      }
      const over = await small.owner.upload('/user_uploads', [{ name: 'one-more.bin', bytes: Buffer.alloc(10) }]);
      assert.deepEqual([over.status, over.body.msg], [400, "Upload would exceed your organization's upload quota."]);
      const state = (await small.owner.post('/register', { fetch_event_types: ['realm'] })).body;
      assert.deepEqual([state.max_file_upload_size_mib, state.realm_upload_quota_mib], [1, 2]);
    } finally {
      await small.close();
    }
  });
});
