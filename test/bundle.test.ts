import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { openBundleFile } from '../lib/bundle-layout';
import { bundledPackageName, loadPackage } from '../lib/first-use';
import { bundledWebFileName } from '../lib/web/assets';
import { buildWebBundle } from '../lib/web/build';
import { buildBundle } from '../scripts/build';
import { Client } from './support/client';
import { readZuliprc, REPO_ROOT, spawnStoa, tempDir } from './support/server';

/** A package and everything it needs at run time, by name, from the project's node_modules. */
function runtimeClosure(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8'));
  for (const dependency of Object.keys(manifest.dependencies ?? {})) runtimeClosure(dependency, seen);
  // Native builds for each platform come as optional dependencies; those installed here count.
  for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) {
    if (existsSync(path.join(REPO_ROOT, 'node_modules', dependency))) runtimeClosure(dependency, seen);
  }
  return seen;
}

test('the bundle dist/stoa.js starts with only better-sqlite3 and sharp installed beside it, and answers the API', async () => {
  const built = await buildBundle(path.join(REPO_ROOT, 'dist', 'stoa.js'));
  assert.ok(readFileSync(built, 'utf8').includes('CREATE TABLE realm'), 'schema.sql is inside the bundle');

  // A folder holding the bundle and nothing but better-sqlite3 (with its own dependencies):
  // anything else the bundle tried to load from node_modules would fail here.
  const install = tempDir('stoa-bundle-');
  const bundle = path.join(install, 'stoa.js');
  copyFileSync(built, bundle);
  mkdirSync(path.join(install, 'node_modules'));
  const native = runtimeClosure('sharp', runtimeClosure('better-sqlite3'));
  for (const name of native) {
    mkdirSync(path.dirname(path.join(install, 'node_modules', name)), { recursive: true });
    symlinkSync(path.join(REPO_ROOT, 'node_modules', name), path.join(install, 'node_modules', name), 'dir');
  }
  const data = path.join(install, 'data');
  const child = spawnStoa(['--port', '0', '--data', data], {}, bundle);
  try {
    const url = await child.listening;
    const settings = await new Client(url).get('/server_settings');
    assert.equal(settings.status, 200);
    assert.equal(settings.body.realm_url, url);
    const rc = readZuliprc(path.join(data, 'zuliprc'));
    const owner = new Client(url, { email: rc.email, apiKey: rc.key });
    const me = await owner.get('/users/me');
    assert.equal(me.status, 200);
    // Markdown's data (emoji, top-level domains), KaTeX and highlight.js are inside the bundle too.
    const description = 'Party :tada: at example.com, $$x^2$$';
    await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'bundled', description }] });
    const subs = (await owner.get('/users/me/subscriptions')).body.subscriptions as Array<{ rendered_description: string }>;
    const rendered = subs[0].rendered_description;
    assert.match(rendered, /class="emoji emoji-1f389"/);
    assert.match(rendered, /<a href="http:\/\/example.com">example.com<\/a>/);
    assert.match(rendered, /class="katex"/);
    const code = await owner.post('/messages/render', { content: '```py\nx = 1\n```' });
    assert.match(code.body.rendered, /<code><span class="n">x<\/span> <span class="o">=<\/span> <span class="mi">1<\/span>/);
    // RE2JS, carried in the data, checks a linkifier's pattern and links what it matches.
    const linkifier = await owner.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/issues/{id}' });
    assert.equal(linkifier.status, 200, JSON.stringify(linkifier.body));
    const linked42 = await owner.post('/messages/render', { content: 'see #42' });
    assert.match(linked42.body.rendered, /<a href="https:\/\/example.com\/issues\/42"/);
    // Images are decoded and thumbnailed by sharp, installed beside the bundle.
    const form = new FormData();
    const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
    form.append('file', new Blob([pixel], { type: 'image/png' }), 'pixel.png');
    const auth = { authorization: `Basic ${Buffer.from(`${rc.email}:${rc.key}`).toString('base64')}` };
    const uploaded = (await (await fetch(`${url}/api/v1/user_uploads`, { method: 'POST', headers: auth, body: form })).json()) as { result: string; url: string };
    assert.equal(uploaded.result, 'success', JSON.stringify(uploaded));
    const thumbnail = await fetch(`${url}/user_uploads/thumbnail/${uploaded.url.slice('/user_uploads/'.length)}/840x560.webp`, { headers: auth });
    assert.equal(thumbnail.status, 200);
    assert.equal(thumbnail.headers.get('content-type'), 'image/webp');
    // The web client is inside the bundle: its page and every file it links, with no esbuild here.
    const page = await (await fetch(`${url}/`)).text();
    const linked = [...page.matchAll(/(?:src|href)="(\/static\/web\/[^"]+)"/g)].map((m) => m[1]);
    // The script, the stylesheet, and the chunks the script imports (named to be preloaded).
    assert.ok(linked.some((asset) => /\/app-[^/]+\.js$/.test(asset)) && linked.some((asset) => /\/app-[^/]+\.css$/.test(asset)), page);
    for (const asset of linked) assert.equal((await fetch(`${url}${asset}`)).status, 200, asset);
    // Every file of the client, read from the bundle's data, is served as the client's build made it, byte for byte.
    const web = await buildWebBundle();
    assert.deepEqual(openBundleFile(bundle).data.names().filter((name) => name.startsWith('web/')).sort(), web.assets.map((asset) => bundledWebFileName(asset.name)).sort());
    for (const asset of web.assets) {
      const served = await fetch(`${url}/static/web/${asset.name}`, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(served.status, 200, asset.name);
      assert.equal(served.headers.get('content-type'), asset.contentType, asset.name);
      assert.ok(Buffer.from(await served.arrayBuffer()).equals(asset.body), `${asset.name} served as built`);
    }
    child.process.kill('SIGTERM');
    assert.equal(await child.exited, 0);
  } finally {
    if (child.process.exitCode === null) child.process.kill('SIGKILL');
    rmSync(install, { recursive: true, force: true });
  }
});

test('the bundle carries the packages loaded on first use compressed in its data, and each one works once unpacked', async () => {
  const built = await buildBundle(path.join(REPO_ROOT, 'dist', 'stoa.js'));
  const text = readFileSync(built, 'latin1');
  const { code, data } = openBundleFile(built);
  const packed = data.names().filter((name) => name.startsWith('package/')).map((name) => name.slice('package/'.length));
  const highlighting = packed.filter((name) => name.startsWith('highlight.js/'));
  assert.deepEqual(packed.filter((name) => !highlighting.includes(name)).sort(), ['iconv-lite/encodings', 'katex', 'libsodium-wrappers', 'nodemailer', 're2js', 'tar']);
  assert.ok(highlighting.includes('highlight.js/lib/core') && highlighting.includes('highlight.js/lib/languages/python'), highlighting.join());
  assert.ok(!/node_modules\/(katex|nodemailer|tar|libsodium|highlight\.js|re2js|iconv-lite\/encodings)/.test(text), 'none of them as plain source');
  // The server's code names them; their bytes are in the data, no part of it.
  assert.match(code, /loadBundledPackage\("katex"\)/);
  const unpacked = (name: string) => loadPackage(name, data.read(bundledPackageName(name)));
  const hljs = unpacked('highlight.js/lib/core') as {
    registerLanguage(name: string, grammar: unknown): void;
    highlight(code: string, options: { language: string }): { value: string };
  };
  hljs.registerLanguage('python', unpacked('highlight.js/lib/languages/python'));
  assert.match(hljs.highlight('def f(): pass', { language: 'python' }).value, /class="hljs-keyword">def</);
  const katex = unpacked('katex') as typeof import('katex');
  assert.match(katex.renderToString('x^2'), /class="katex"/);
  const nodemailer = unpacked('nodemailer') as typeof import('nodemailer');
  const sent = await nodemailer.createTransport({ jsonTransport: true }).sendMail({ from: 'a@example.com', to: 'b@example.com', text: 'hi' });
  assert.match(String(sent.message), /"text":"hi"/);
  const tar = unpacked('tar') as typeof import('tar');
  assert.equal(typeof tar.create, 'function');
  const re2js = unpacked('re2js') as typeof import('re2js');
  assert.deepEqual(Object.keys(re2js.RE2JS.compile('#(?P<id>[0-9]+)').namedGroups()), ['id']);
  // iconv-lite's tables, which it requires itself when a body in another charset is first decoded.
  const tables = unpacked('iconv-lite/encodings') as Record<string, unknown>;
  assert.ok(tables.latin1 && tables.shiftjis && tables.utf16, Object.keys(tables).slice(0, 20).join());
  const sodium = unpacked('libsodium-wrappers') as typeof import('libsodium-wrappers');
  await sodium.ready;
  const keys = sodium.crypto_box_keypair();
  const sealed = sodium.crypto_box_seal(new Uint8Array([1, 2, 3]), keys.publicKey);
  assert.deepEqual([...sodium.crypto_box_seal_open(sealed, keys.publicKey, keys.privateKey)], [1, 2, 3]);
});
