import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

function picture(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } }).jpeg().toBuffer();
}

async function sizeOf(bytes: Buffer): Promise<[string | undefined, number | undefined, number | undefined]> {
  const meta = await sharp(bytes).metadata();
  return [meta.format, meta.width, meta.height];
}

describe('POST /users/me/avatar', () => {
  test('makes an uploaded image the user’s avatar, served by Stoa to anyone, and tells everyone', async () => {
    let user = await server.createUser();
    const watcher = await server.createUser();
    const events = await listen(watcher, { event_types: ['realm_user'] });
    const response = await user.upload('/users/me/avatar', [{ name: 'me.jpg', bytes: await picture(640, 480), type: 'image/jpeg' }]);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const url: string = response.body.avatar_url;
    assert.match(url, /^\/user_avatars\/\d+\/[0-9a-f]{40}\.png\?version=2$/);

    const small = await user.download(url, { anonymous: true });
    assert.equal(small.status, 200);
    assert.deepEqual(await sizeOf(small.bytes), ['png', 100, 100]);
    const [update] = await events();
    assert.deepEqual(
      [update.op, update.person.user_id, update.person.avatar_source, update.person.avatar_url, update.person.avatar_version],
      ['update', user.userId, 'U', url, 2],
    );
    const medium = await user.download(update.person.avatar_url_medium, { anonymous: true });
    assert.deepEqual(await sizeOf(medium.bytes), ['png', 500, 500]);
    assert.equal((await watcher.get(`/users/${user.userId}`, { client_gravatar: true })).body.user.avatar_url, url);

    await server.restart();
    user = Object.assign(server.anonymous.as(user.credentials), { userId: user.userId, credentials: user.credentials });
    const state = (await user.post('/register', { fetch_event_types: ['realm_user'] })).body;
    assert.deepEqual([state.avatar_source, state.avatar_url], ['U', url]);
    assert.equal((await user.download(url, { anonymous: true })).status, 200, 'kept across a restart');

    const reset = await user.delete('/users/me/avatar');
    assert.match(reset.body.avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=3$/);
  });

  test('refuses no file, two files, anything that is not an image, and members when changes are off', async () => {
    const user = await server.createUser();
    const image = await picture(10, 10);
    const cases: Array<[Parameters<typeof user.upload>[1], string]> = [
      [[], 'You must upload exactly one avatar.'],
      [
        [
          { name: 'a.jpg', bytes: image },
          { name: 'b.jpg', bytes: image, field: 'second' },
        ],
        'You must upload exactly one avatar.',
      ],
      [[{ name: 'not.png', bytes: 'just text', type: 'image/png' }], 'Could not decode image; did you upload an image file?'],
    ];
    for (const [files, msg] of cases) {
      const response = await user.upload('/users/me/avatar', files, files.length === 0 ? { nothing: 'here' } : {});
      assert.deepEqual([response.status, response.body.msg], [400, msg]);
    }
    assert.equal((await server.owner.patch('/realm', { avatar_changes_disabled: true })).status, 200);
    try {
      const refused = await user.upload('/users/me/avatar', [{ name: 'a.jpg', bytes: image }]);
      assert.deepEqual([refused.status, refused.body.msg], [400, 'Avatar changes are disabled in this organization.']);
      const owner = await server.owner.upload('/users/me/avatar', [{ name: 'a.jpg', bytes: image }]);
      assert.equal(owner.status, 200, 'administrators still may');
    } finally {
      await server.owner.patch('/realm', { avatar_changes_disabled: false });
    }
  });
});

describe('bot avatars', () => {
  test('a bot is created with an uploaded avatar, and its owner changes it with PATCH /bots/{bot_id}', async () => {
    const owner = await server.createUser();
    const created = await owner.upload('/bots', [{ name: 'bot.jpg', bytes: await picture(64, 64), type: 'image/jpeg' }], {
      full_name: 'Picture Bot',
      short_name: 'picture',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.match(created.body.avatar_url, /^\/user_avatars\/\d+\/[0-9a-f]{40}\.png\?version=2$/);
    assert.equal((await owner.download(created.body.avatar_url, { anonymous: true })).status, 200);

    // From level 474 a bot's picture is told as any account's is, not as a realm_bot update.
    const events = await listen(owner, { event_types: ['realm_user', 'realm_bot'] });
    // A PATCH with a file, as Zulip's clients send it.
    const form = new FormData();
    form.append('file', new Blob([await picture(300, 200)], { type: 'image/jpeg' }), 'new.jpg');
    const patched = await fetch(new URL(`/api/v1/bots/${created.body.user_id}`, server.url), {
      method: 'PATCH',
      headers: { authorization: `Basic ${Buffer.from(`${owner.credentials.email}:${owner.credentials.apiKey}`).toString('base64')}` },
      body: form,
    });
    const body = (await patched.json()) as { avatar_url: string };
    assert.equal(patched.status, 200, JSON.stringify(body));
    assert.match(body.avatar_url, /\?version=3$/);
    const seen = await events();
    assert.ok(seen.some((e) => e.type === 'realm_user' && e.op === 'update' && e.person.user_id === created.body.user_id && e.person.avatar_url === body.avatar_url), JSON.stringify(seen));
    assert.ok(!seen.some((e) => e.type === 'realm_bot'), JSON.stringify(seen));
  });
});

describe('--no-gravatar', () => {
  test('sends nobody to the Internet for a picture: default avatars and icon are Stoa’s own', async () => {
    const offline = await TestServer.start({ config: { gravatar: false } });
    try {
      const member = await offline.createUser();
      const users = (await offline.owner.get('/users', { client_gravatar: true })).body.members as Array<{ avatar_url: string | null }>;
      assert.ok(users.every((u) => u.avatar_url === '/static/images/default-avatar.png'), JSON.stringify(users));
      const state = (await member.post('/register', { fetch_event_types: ['realm', 'realm_user'], client_gravatar: true })).body;
      assert.equal(state.avatar_url, '/static/images/default-avatar.png');
      assert.equal(state.realm_icon_url, '/static/images/default-avatar.png');
      assert.ok(!JSON.stringify(state).includes('gravatar.com'));
      const picture = await member.download('/static/images/default-avatar.png', { anonymous: true });
      assert.deepEqual([picture.status, picture.headers.get('content-type')], [200, 'image/png']);
      assert.deepEqual(await sizeOf(picture.bytes), ['png', 100, 100]);
    } finally {
      await offline.close();
    }
  });
});
