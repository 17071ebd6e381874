import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import vm from 'node:vm';
import { bundleText, serverOfBundle } from '../lib/bundle-layout';
import { HEAP_FLAGS, MALLOC_ENV } from '../lib/memory/bounded-heap';
import { buildBundle } from '../scripts/build';
import { REPO_ROOT, spawnStoa, tempDir, type ChildServer } from './support/server';

/** A process's command line and environment, as the kernel has them. */
function processInfo(pid: number): { argv: string[]; env: string[] } {
  const read = (name: string) => readFileSync(`/proc/${pid}/${name}`, 'utf8').split('\0').filter((part) => part !== '');
  return { argv: read('cmdline'), env: read('environ') };
}

/** The C library's malloc settings the launcher gives the Node it starts, as NAME=value. */
const mallocSettings = Object.entries(MALLOC_ENV).map(([name, value]) => `${name}=${value}`);

async function stop(child: ChildServer): Promise<void> {
  child.process.kill('SIGTERM');
  assert.equal(await child.exited, 0, child.output());
}

describe('the bundle bounds its own memory', { skip: process.platform !== 'linux' && 'the heap flags are given by execve on Linux only' }, () => {
  let bundle: string;
  before(async () => {
    bundle = path.relative(REPO_ROOT, await buildBundle(path.join(REPO_ROOT, 'dist', 'stoa.js')));
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

  test('the Node that replaces itself compiles only the launcher: the server waits inside a comment', () => {
    const text = readFileSync(path.join(REPO_ROOT, bundle), 'latin1');
    // serverOfBundle takes the escapes out within the buffer it is given: a copy of its own.
    const { code, lineOffset } = serverOfBundle(Buffer.from(text, 'latin1'));
    // What V8 parses before the exec is the launcher, a few kilobytes; the server's megabytes follow in the comment.
    const launcherBytes = text.indexOf('\n/*stoa-server\n');
    assert.ok(launcherBytes > 0 && launcherBytes < 16_384, `launcher of ${launcherBytes} bytes`);
    assert.ok(code.length > 1_000_000, `server of ${code.length} bytes`);
    // Stack traces give the file's own lines: the server's first line is the file's line after the comment's opening.
    const lines = text.split('\n');
    assert.equal(lines[lineOffset - 1], '/*stoa-server');
    assert.equal(lines[lineOffset], code.slice(0, code.indexOf('\n')).replaceAll('*/', '*\x0b/'));
    assert.doesNotThrow(() => new vm.Script(code, { filename: bundle }));
  });

  test('a server whose code holds the end of a comment comes out of the bundle as it went in', () => {
    const server = 'a="*/*";b=/x*/.source;c=[/[*/]/,2*/y/.source.length];\nd=`*/`;/*\n*/e=4*/2/.source.length';
    assert.doesNotThrow(() => new vm.Script(server));
    const text = bundleText('launch();\nlaunch();', server);
    // The whole file is a script whose only code is the launcher's (a call of an undefined function).
    assert.throws(() => vm.runInNewContext(text), /launch is not defined/);
    assert.deepEqual(serverOfBundle(Buffer.from(text, 'latin1')), { code: server, lineOffset: 4 });
    assert.throws(() => serverOfBundle(Buffer.from(text.slice(0, -2), 'latin1')), /missing from the bundle/);
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
