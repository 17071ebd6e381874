import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT, TestServer } from './support/server';

/**
 * What a browser downloads for the first view (issue 20's budget): few files, so the first
 * requests to the API do not queue behind them (a browser opens six connections to a server),
 * and at most 80 KB gzipped together.
 */

let server: TestServer;

before(async () => {
  server = await TestServer.start();
});

after(async () => {
  await server.close();
});

test('the first view comes in a handful of files, together at most 80 KB gzipped', async () => {
  const html = await (await fetch(`${server.url}/`)).text();
  const linked = [...html.matchAll(/(?:src|href)="(\/static\/web\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="(\/static\/web\/[^"]+)">/g)].map((m) => m[1]);
  assert.ok(preloaded.length > 0, html);
  // The script and stylesheet, the script's own imports, the app and its imports: a few, not a score.
  assert.ok(linked.length <= 6, `${linked.length} files: ${linked.join(', ')}`);
  let total = 0;
  for (const asset of linked) {
    const answer = await fetch(`${server.url}${asset}`);
    assert.equal(answer.status, 200, asset);
    // As the server sends it (gzip at level 9 to a browser that takes it).
    total += gzipSync(Buffer.from(await answer.arrayBuffer()), { level: 9 }).length;
  }
  assert.ok(total <= 80 * 1024, `the first view is ${(total / 1024).toFixed(1)} KB gzipped`);

  // Whatever a lazily loaded part imports from the first view comes from those same files.
  const chunks = new Set(linked.map((asset) => path.basename(asset)));
  const app = linked.find((asset) => /\/app-[^/]+\.js$/.test(asset))!;
  const seen = new Set<string>();
  const lazy: string[] = [];
  const visit = async (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = await (await fetch(`${server.url}/static/web/${name}`)).text();
    for (const m of text.matchAll(/import\((["'])\.\/([^"']+\.js)\1\)/g)) lazy.push(m[2]);
    for (const m of text.matchAll(/(?:from|import)\s*["']\.\/([^"']+\.js)["']/g)) await visit(m[1]);
  };
  await visit(path.basename(app));
  for (const name of lazy) await visit(name);
  const lazyOnly = [...seen].filter((name) => !chunks.has(name));
  assert.ok(lazyOnly.length > 0, 'settings and the like still load later');
});

test('the web client builds whatever folder the server was started from', { timeout: 120_000 }, async () => {
  const loader = path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  const build = path.join(REPO_ROOT, 'lib', 'web', 'build.ts');
  const script = `require(${JSON.stringify(build)}).buildWebBundle().then((b) => console.log(JSON.stringify({ script: b.script, preloads: b.preloads.length })))`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', loader, '-e', script], { cwd: tmpdir() });
  const built = JSON.parse(stdout) as { script: string; preloads: number };
  assert.match(built.script, /^app-[A-Z0-9]+\.js$/);
  assert.ok(built.preloads > 0);
});
