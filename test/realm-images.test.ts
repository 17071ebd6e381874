import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { listen } from './support/events';
import { TestServer } from './support/server';

/** The organization's icon and logos: /realm/icon and /realm/logo, their register keys and events. */

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
}

async function realmState(client = server.owner) {
  return (await client.post('/register', { fetch_event_types: ['realm'] })).body;
}

async function redirect(path: string, credentials = server.owner.credentials!) {
  const authorization = `Basic ${Buffer.from(`${credentials.email}:${credentials.apiKey}`).toString('base64')}`;
  const response = await fetch(new URL(`/api/v1${path}`, server.url), { redirect: 'manual', headers: { authorization } });
  return { status: response.status, location: response.headers.get('location') };
}

describe('the organization icon', () => {
  test('is uploaded and reset by administrators, served at a versioned URL, and announced to everyone', async () => {
    const member = await server.createUser();
    const events = await listen(member, { event_types: ['realm'] });
    const before = await realmState();
    assert.equal(before.realm_icon_source, 'G');

    const uploaded = await server.owner.upload('/realm/icon', [{ name: 'icon.png', bytes: await png(300, 200), type: 'image/png' }]);
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    const realmId = server.stoa.realm.get()!.id;
    assert.equal(uploaded.body.icon_url, `/user_avatars/${realmId}/realm/icon.png?version=1`);
    assert.deepEqual(await events(), [
      { type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: uploaded.body.icon_url, icon_source: 'U' } },
    ]);
    const file = await member.download(uploaded.body.icon_url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'image/png');
    assert.deepEqual([(await sharp(file.bytes).metadata()).width, (await sharp(file.bytes).metadata()).height], [100, 100]);
    assert.deepEqual(await redirect('/realm/icon?size=50'), { status: 302, location: `${uploaded.body.icon_url}&size=50` });
    assert.equal((await server.anonymous.get('/server_settings')).body.realm_icon, uploaded.body.icon_url);

    await server.restart();
    const state = await realmState();
    assert.deepEqual([state.realm_icon_url, state.realm_icon_source], [uploaded.body.icon_url, 'U']);
    const again = await server.owner.upload('/realm/icon', [{ name: 'icon.png', bytes: await png(50, 50), type: 'image/png' }]);
    assert.equal(again.body.icon_url, `/user_avatars/${realmId}/realm/icon.png?version=2`, 'each upload has a new URL');

    const reset = await server.owner.delete('/realm/icon');
    assert.equal(reset.status, 200);
    assert.match(reset.body.icon_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon$/);
    const after = await realmState();
    assert.deepEqual([after.realm_icon_url, after.realm_icon_source], [reset.body.icon_url, 'G']);
  });

  test('refuses members, files that are not one image, and images that do not decode', async () => {
    const member = await server.createUser();
    const image = { name: 'icon.png', bytes: await png(10, 10), type: 'image/png' };
    const cases: Array<[Promise<{ status: number; body: any }>, string, string]> = [
      [member.upload('/realm/icon', [image]), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'],
      [server.owner.upload('/realm/icon', []), 'BAD_REQUEST', 'You must upload exactly one icon.'],
      [server.owner.upload('/realm/icon', [image, image]), 'BAD_REQUEST', 'You must upload exactly one icon.'],
      [
        server.owner.upload('/realm/icon', [{ name: 'icon.png', bytes: 'not an image', type: 'image/png' }]),
        'BAD_IMAGE',
        'Could not decode image; did you upload an image file?',
      ],
      [
        server.owner.upload('/realm/icon', [{ name: 'big.png', bytes: Buffer.alloc(5 * 1024 * 1024 + 1), type: 'image/png' }]),
        'BAD_REQUEST',
        'Uploaded file is larger than the allowed limit of 5 MiB',
      ],
      [member.delete('/realm/icon'), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'],
    ];
    for (const [response, code, msg] of cases) {
      const { status, body } = await response;
      assert.deepEqual([status, body.code, body.msg], [400, code, msg]);
    }
    assert.equal((await realmState()).realm_icon_source, 'G', 'nothing changed');
  });
});

describe('the organization logos', () => {
  test('light and dark are uploaded, fitted to 800 by 100, redirected to and reset apart, each announced', async () => {
    const member = await server.createUser();
    const events = await listen(member, { event_types: ['realm'] });
    const realmId = server.stoa.realm.get()!.id;
    const defaults = await realmState();
    assert.deepEqual([defaults.realm_logo_source, defaults.realm_night_logo_source], ['D', 'D']);

    const night = await server.owner.upload('/realm/logo', [{ name: 'logo.png', bytes: await png(1600, 100), type: 'image/png' }], { night: 'true' });
    assert.equal(night.status, 200, JSON.stringify(night.body));
    const nightUrl = `/user_avatars/${realmId}/realm/night_logo.png?version=1`;
    assert.deepEqual(await events(), [
      { type: 'realm', op: 'update_dict', property: 'night_logo', data: { night_logo_url: nightUrl, night_logo_source: 'U' } },
    ]);
    const file = await member.download(nightUrl);
    const { width, height } = await sharp(file.bytes).metadata();
    assert.deepEqual([width, height], [800, 50]);
    const state = await realmState(member);
    assert.deepEqual(
      [state.realm_logo_url, state.realm_logo_source, state.realm_night_logo_url, state.realm_night_logo_source],
      [defaults.realm_logo_url, 'D', nightUrl, 'U'],
    );
    assert.deepEqual(await redirect('/realm/logo?night=true'), { status: 302, location: `${nightUrl}&night=true` });
    assert.deepEqual(await redirect('/realm/logo?night=false'), { status: 302, location: `${defaults.realm_logo_url}&night=false` });

    assert.equal((await server.owner.delete('/realm/logo', { night: true })).status, 200);
    assert.deepEqual(await events(), [
      {
        type: 'realm',
        op: 'update_dict',
        property: 'night_logo',
        data: { night_logo_url: defaults.realm_night_logo_url, night_logo_source: 'D' },
      },
    ]);
    const missing = await server.owner.upload('/realm/logo', [{ name: 'logo.png', bytes: await png(10, 10), type: 'image/png' }]);
    assert.deepEqual([missing.status, missing.body.msg], [400, "Missing 'night' argument"]);
    const refused = await member.upload('/realm/logo', [{ name: 'logo.png', bytes: await png(10, 10), type: 'image/png' }], { night: 'false' });
    assert.deepEqual([refused.status, refused.body.msg], [400, 'Must be an organization administrator']);
  });
});
