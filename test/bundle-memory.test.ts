import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';
import { bundleText, openBundle, type OpenedBundle } from '../lib/bundle-layout';
import { CODE_CACHE_FILE, readCodeCache } from '../lib/code-cache';
import { dataFolderNamed } from '../lib/data-folder';
import { HEAP_FLAGS, MALLOC_ENV } from '../lib/memory/bounded-heap';
import { buildBundle } from '../scripts/build';
import { Client } from './support/client';
import { readZuliprc, REPO_ROOT, spawnStoa, tempDir, type ChildServer } from './support/server';

/** dist/stoa.js, built once for every test of this file (relative to the repository). */
let built: Promise<string> | undefined;
const builtBundle = () => (built ??= buildBundle(path.join(REPO_ROOT, 'dist', 'stoa.js')).then((file) => path.relative(REPO_ROOT, file)));

/** A process's command line and environment, as the kernel has them. */
function processInfo(pid: number): { argv: string[]; env: string[] } {
  const read = (name: string) => readFileSync(`/proc/${pid}/${name}`, 'utf8').split('\0').filter((part) => part !== '');
  return { argv: read('cmdline'), env: read('environ') };
}

/** The C library's malloc settings the launcher gives the Node it starts, as NAME=value. */
const mallocSettings = Object.entries(MALLOC_ENV).map(([name, value]) => `${name}=${value}`);

/** Opens a bundle held in memory as the launcher opens its file (the buffer is left as it is). */
function openInMemory(bundle: Buffer): OpenedBundle {
  return openBundle(bundle.length, (target, offset, length, position) => bundle.copy(target, offset, position, position + length));
}

async function stop(child: ChildServer): Promise<void> {
  child.process.kill('SIGTERM');
  assert.equal(await child.exited, 0, child.output());
}

describe('the bundle bounds its own memory', { skip: process.platform !== 'linux' && 'the heap flags are given by execve on Linux only' }, () => {
  let bundle: string;
  before(async () => {
    bundle = await builtBundle();
  });

  test('node dist/stoa.js without flags runs, in the same process, with the heap flags', async () => {
    const child = spawnStoa(['--data', tempDir(), '--port', '0'], { NODE_OPTIONS: '' }, bundle);
    try {
      await child.listening;
      const { argv, env } = processInfo(child.process.pid!);
      assert.deepEqual(argv.slice(1, 1 + HEAP_FLAGS.length), HEAP_FLAGS);
      assert.ok(argv.includes('--port'), argv.join(' '));
      // Two malloc arenas, and large blocks in mappings of their own, returned when freed.
      assert.deepEqual(mallocSettings, ['MALLOC_ARENA_MAX=2', 'MALLOC_MMAP_THRESHOLD_=131072']);
      for (const setting of mallocSettings) assert.ok(env.includes(setting), `${setting} missing from the server's environment`);
      // Started once: the organization was created and announced one time.
      assert.equal(child.output().match(/listening on/g)?.length, 1, child.output());
    } finally {
      await stop(child);
    }
  });

  test('npm start runs the bundle in its own process, with the same heap flags, not the sources through tsx', async () => {
    const scripts = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    const [node, script, ...rest] = scripts.start.split(/\s+/);
    assert.equal(node, 'node');
    assert.deepEqual(rest, [], scripts.start);
    // The bundle was just built, so npm start does not build it again.
    const child = spawnStoa(['--data', tempDir(), '--port', '0'], { NODE_OPTIONS: '' }, script);
    try {
      const url = await child.listening;
      const { argv, env } = processInfo(child.process.pid!);
      assert.deepEqual(argv.slice(1, 1 + HEAP_FLAGS.length), HEAP_FLAGS);
      for (const setting of mallocSettings) assert.ok(env.includes(setting), `${setting} missing from npm start's server`);
      assert.ok(!argv.includes('tsx') && !argv.some((arg) => arg.endsWith('.ts')), argv.join(' '));
      assert.doesNotMatch(child.output(), /Built /, 'a fresh bundle is not built again');
      // It serves what the bundle serves: the web client embedded in it.
      const page = await fetch(url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<script/);
    } finally {
      await stop(child);
    }
  });

  test('the Node that replaces itself compiles only the launcher: the server waits inside a comment, its data after it', () => {
    const bytes = readFileSync(path.join(REPO_ROOT, bundle));
    const text = bytes.toString('latin1');
    const { code, lineOffset, data } = openInMemory(bytes);
    // What V8 parses before the exec is the launcher, a few kilobytes; the server's megabytes follow in the comment.
    const launcherBytes = text.indexOf('\n/*stoa-server ');
    assert.ok(launcherBytes > 0 && launcherBytes < 16_384, `launcher of ${launcherBytes} bytes`);
    assert.ok(code.length > 1_000_000, `server of ${code.length} bytes`);
    // Stack traces give the file's own lines: the wrapper's line stands for the comment's opening, the server's first line for the next.
    const lines = text.split('\n');
    assert.match(lines[lineOffset], /^\/\*stoa-server [0-9a-f]{32} \d+ \d+ \d+$/);
    const codeLines = code.split('\n', 2);
    assert.match(codeLines[0], /^\(function \(exports, require, module, __filename, __dirname\) \{$/);
    assert.equal(lines[lineOffset + 1], codeLines[1].replaceAll('*/', '*\x0b/'));
    assert.doesNotThrow(() => new vm.Script(code, { filename: bundle }));
    // The data is no part of the script V8 keeps: neither the client's files nor the packages' are in the server's code.
    const names = data.names();
    assert.ok(names.some((name) => name.startsWith('web/')) && names.includes('package/katex'), names.join());
    for (const name of names) {
      const sample = data.read(name).toString('base64').slice(0, 64);
      assert.ok(sample.length < 16 || !code.includes(sample), `${name} is in the server's code`);
    }
  });

  test('a server whose code holds the end of a comment comes out of the bundle as it went in, its lines numbered as in the file, its data after it', () => {
    const server = 'a="*/*";b=/x*/.source;c=[/[*/]/,2*/y/.source.length];\nd=`*/`;/*\n*/e=4*/2/.source.length;\nthrow new Error(`line ${e}`)';
    assert.doesNotThrow(() => new vm.Script(server));
    const files = new Map([
      ['web/app.js', Buffer.from('console.log("*/ é")')],
      ['package/empty', Buffer.alloc(0)],
      ['package/binary', Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256))],
    ]);
    const text = bundleText('launch();\nlaunch();', server, files);
    // The whole file is a script whose only code is the launcher's (a call of an undefined function).
    assert.throws(() => vm.runInNewContext(text), /launch is not defined/);
    const hash = createHash('sha256').update(server).digest('hex').slice(0, 32);
    const wrapped = `(function (exports, require, module, __filename, __dirname) {\n${server}\n})`;
    const bytes = Buffer.from(text, 'latin1');
    const { code, lineOffset, hash: read, data } = openInMemory(bytes);
    assert.deepEqual({ code, lineOffset, hash: read }, { code: wrapped, lineOffset: 3, hash });
    // Every file comes back byte for byte, whatever order it was given in.
    assert.deepEqual(data.names(), [...files.keys()].sort());
    for (const [name, content] of files) assert.ok(data.read(name).equals(content), name);
    assert.throws(() => data.read('web/missing.js'), /no file named web\/missing\.js/);
    // The error thrown on the server's fourth line is reported at the file's line that holds it.
    const run = new vm.Script(code, { filename: 'stoa.js', lineOffset }).runInThisContext() as () => void;
    let stack = '';
    try {
      run();
    } catch (err) {
      stack = (err as Error).stack!;
    }
    const line = Number(/stoa\.js:(\d+)/.exec(stack)?.[1]);
    assert.match(text.split('\n')[line - 1], /^throw new Error/, stack);
    // Cut short anywhere in its data, the file is still a script: its launcher runs, and says what is wrong.
    assert.throws(() => vm.runInNewContext(text.slice(0, -1000)), /launch is not defined/);
    // Without the launcher's header there is no server; cut short or lengthened, the bundle is refused at once.
    assert.throws(() => openInMemory(Buffer.from('launch();\n', 'latin1')), /missing from the bundle/);
    assert.throws(() => openInMemory(bytes.subarray(0, -2)), /the bundle is damaged \(\d+ bytes where its header says \d+\); build it or copy it again/);
    assert.throws(() => openInMemory(bytes.subarray(0, text.indexOf('throw new'))), /the bundle is damaged/);
    assert.throws(() => openInMemory(Buffer.concat([bytes, Buffer.from('\n')])), /the bundle is damaged/);
    // A file changed in the data is refused when it is read, the others still read.
    const changed = Buffer.from(bytes);
    const at = text.indexOf(files.get('package/binary')!.toString('base64').slice(1000, 1010));
    changed[at] = changed[at] === 0x41 ? 0x42 : 0x41;
    const damaged = openInMemory(changed).data;
    assert.throws(() => damaged.read('package/binary'), /the bundle is damaged \(package\/binary is not what was built\); build it or copy it again/);
    assert.ok(damaged.read('web/app.js').equals(files.get('web/app.js')!));
    // An index that does not parse is refused as damage too.
    const badIndex = Buffer.from(bytes);
    badIndex[text.indexOf('{"package/')] = 0x5b;
    assert.throws(() => openInMemory(badIndex).data.read('web/app.js'), /the bundle is damaged \(the index of its data cannot be read\)/);
  });

  test('a bundle cut short is refused at start with one clear line', async () => {
    const bytes = readFileSync(path.join(REPO_ROOT, bundle));
    const folder = tempDir();
    const short = path.join(folder, 'short.js');
    writeFileSync(short, bytes.subarray(0, bytes.length - 1000));
    const refused = spawnStoa(['--data', path.join(folder, 'data'), '--port', '0'], { NODE_OPTIONS: '' }, short);
    assert.equal(await refused.exited, 1, refused.output());
    assert.match(refused.output(), /^stoa: the bundle is damaged \(\d+ bytes where its header says \d+\); build it or copy it again\n$/);
  });

  test('node dist/stoa.js --help prints the usage and exits 0, as the server it launches says', async () => {
    const child = spawnStoa(['--help'], { NODE_OPTIONS: '' }, bundle);
    assert.equal(await child.exited, 0, child.output());
    assert.match(child.output(), /^Usage: stoa/);
  });

  test('a malloc setting given by the person starting it is kept, the others are added', async () => {
    const child = spawnStoa(['--data', tempDir(), '--port', '0'], { NODE_OPTIONS: '', MALLOC_ARENA_MAX: '4' }, bundle);
    try {
      await child.listening;
      const { argv, env } = processInfo(child.process.pid!);
      assert.deepEqual(argv.slice(1, 1 + HEAP_FLAGS.length), HEAP_FLAGS);
      assert.deepEqual(env.filter((entry) => entry.startsWith('MALLOC_ARENA_MAX=')), ['MALLOC_ARENA_MAX=4']);
      assert.ok(env.includes('MALLOC_MMAP_THRESHOLD_=131072'), env.filter((entry) => entry.startsWith('MALLOC_')).join(' '));
    } finally {
      await stop(child);
    }
  });

  test("heap flags given by the person starting it are kept, and nothing is added", async () => {
    const child = spawnStoa(['--data', tempDir(), '--port', '0'], { NODE_OPTIONS: '--max-old-space-size=512' }, bundle);
    try {
      await child.listening;
      const { argv } = processInfo(child.process.pid!);
      assert.ok(!argv.some((arg) => arg.startsWith('--max-')), argv.join(' '));
    } finally {
      await stop(child);
    }
  });
});

describe("the server's code cache in the data folder", () => {
  let bundle: string;
  let key: string;
  before(async () => {
    bundle = await builtBundle();
    const hash = /\n\/\*stoa-server ([0-9a-f]{32}) /.exec(readFileSync(path.join(REPO_ROOT, bundle), 'latin1'))![1];
    key = `${hash}/${process.version}/${process.arch}`;
  });

  /** Starts the bundle on the folder, checks it answers (signed in, a message sent and read back), and stops it. */
  async function startAndUse(data: string): Promise<void> {
    const child = spawnStoa(['--data', data, '--port', '0'], { NODE_OPTIONS: '' }, bundle);
    try {
      const url = await child.listening;
      assert.equal((await new Client(url).get('/server_settings')).status, 200);
      const rc = readZuliprc(path.join(data, 'zuliprc'));
      const owner = new Client(url, { email: rc.email, apiKey: rc.key });
      const sent = await owner.post('/messages', { type: 'direct', to: JSON.stringify([rc.email]), content: 'cached **start**' });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const read = await owner.get(`/messages/${sent.body.id}`);
      assert.equal(read.body.message.content, '<p>cached <strong>start</strong></p>');
      // The cache is written a second after listening; wait past that, so a start that was to write it has.
      await waitForCache(data);
      await sleep(1500);
    } finally {
      await stop(child);
    }
  }

  /** The cache file, once written (a start writes it a moment after it listens). */
  async function waitForCache(data: string): Promise<Buffer> {
    const file = path.join(data, CODE_CACHE_FILE);
    for (let tries = 0; tries < 100; tries++) {
      try {
        return readFileSync(file);
      } catch {
        await sleep(100);
      }
    }
    throw new Error(`no ${CODE_CACHE_FILE} in ${data}`);
  }

  test('a start writes it for this bundle and Node; the next start uses it and writes nothing', async () => {
    const data = tempDir();
    await startAndUse(data);
    const file = path.join(data, CODE_CACHE_FILE);
    const written = readFileSync(file);
    assert.equal(written.toString('latin1', 0, written.indexOf('\n')).split(' ')[1], key);
    assert.ok(readCodeCache(file, key), 'the cache is whole and of this bundle');
    const writtenAt = statSync(file).mtimeMs;
    await startAndUse(data);
    // V8 took it (a rejected cache is written again): the same file, untouched.
    assert.equal(statSync(file).mtimeMs, writtenAt);
    assert.ok(readFileSync(file).equals(written));
  });

  for (const [what, spoil] of [
    ['corrupt', (cache: Buffer) => Buffer.concat([cache.subarray(0, cache.length - 2000), Buffer.alloc(2000, 0x5a)])],
    ['of another bundle', (cache: Buffer) => Buffer.from(cache.toString('latin1').replace(/^(stoa-code-cache )[0-9a-f]{32}/, `$1${'0'.repeat(32)}`), 'latin1')],
    [
      "whole but of another script (V8 rejects it)",
      () => {
        const data = new vm.Script('1 + 1').createCachedData();
        return Buffer.concat([Buffer.from(`stoa-code-cache ${key} ${crc32(data).toString(16)}\n`, 'latin1'), data]);
      },
    ],
    ['not a cache at all', () => Buffer.from('hello')],
  ] as const) {
    test(`a cache ${what} is ignored and replaced by a good one`, async () => {
      const data = tempDir();
      await startAndUse(data);
      const file = path.join(data, CODE_CACHE_FILE);
      const good = readFileSync(file);
      const spoiled = spoil(good);
      writeFileSync(file, spoiled);
      await startAndUse(data);
      const replaced = readFileSync(file);
      assert.ok(!replaced.equals(spoiled), 'the spoiled cache was replaced');
      assert.ok(readCodeCache(file, key), 'by a whole one of this bundle');
    });
  }

  test('the launcher finds the data folder as the server does, before anything is checked', () => {
    assert.equal(dataFolderNamed(['--port', '0', '--data', '/srv/stoa'], {}), '/srv/stoa');
    assert.equal(dataFolderNamed(['--data=/srv/stoa'], { STOA_DATA: '/other' }), '/srv/stoa');
    assert.equal(dataFolderNamed(['export', '--output', 'x.tar.gz'], { STOA_DATA: '/other' }), '/other');
    assert.equal(dataFolderNamed(['--no-such-flag'], {}), './data');
  });
});
