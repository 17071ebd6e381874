import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { HEAP_FLAGS } from '../lib/memory/bounded-heap';
import { buildBundle } from '../scripts/build';
import { REPO_ROOT, spawnStoa, tempDir, type ChildServer } from './support/server';

/** A process's command line and environment, as the kernel has them. */
function processInfo(pid: number): { argv: string[]; env: string[] } {
  const read = (name: string) => readFileSync(`/proc/${pid}/${name}`, 'utf8').split('\0').filter((part) => part !== '');
  return { argv: read('cmdline'), env: read('environ') };
}

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
      assert.ok(env.includes('MALLOC_ARENA_MAX=2'));
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
      const { argv } = processInfo(child.process.pid!);
      assert.deepEqual(argv.slice(1, 1 + HEAP_FLAGS.length), HEAP_FLAGS);
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
