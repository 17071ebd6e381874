import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { ok, png } from './support/fixtures';
import { ManualClock, spawnStoa, tempDir, TestServer } from './support/server';

type Row = Record<string, any>;

/** Runs `stoa backup` or `stoa restore` as a user would, and answers its exit code and output. */
async function stoaCommand(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawnStoa(args);
  const code = await child.exited;
  return { code, output: child.output() };
}

/** Every file under a folder, by its path inside it, with its bytes' SHA-256 (thumbnails and arrivals are not data). */
function filesUnder(root: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(root)) return files;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const relative = path.relative(root, path.join(entry.parentPath, entry.name));
    if (relative.startsWith('.thumbnails') || relative.startsWith('.incoming')) continue;
    files.set(relative, createHash('sha256').update(readFileSync(path.join(root, relative))).digest('hex'));
  }
  return files;
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** All messages the client can see, by ID, as the API gives them (rendered or raw). */
async function messagesById(client: Client, applyMarkdown: boolean): Promise<Map<number, Row>> {
  const body = ok(await client.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 5000, apply_markdown: applyMarkdown }), 'messages');
  return new Map((body.messages as Row[]).map((m) => [m.id as number, m]));
}

/** Waits until a server's log has a line matching, and answers it. */
async function logLine(server: TestServer, pattern: RegExp, count = 1): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const lines = server.logs.filter((line) => pattern.test(line));
    if (lines.length >= count) return lines[count - 1];
    await sleep(25);
  }
  throw new Error(`no ${count} log line(s) matching ${pattern}:\n${server.logs.join('\n')}`);
}

describe('stoa backup and stoa restore', () => {
  test('a backup taken during a send load restores every message sent before it, byte for byte, and every file', async () => {
    const server = await TestServer.start();
    const restoredData = path.join(tempDir(), 'restored');
    let restored: TestServer | undefined;
    try {
      const member = await server.createUser('Member Person');
      const channel = await createChannel(server.owner);
      ok(await member.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }] }), 'subscribe');
      const uploadUrl = ok(await member.upload('/user_uploads', [{ name: 'notes.txt', bytes: 'some notes, ünïcödé', type: 'text/plain' }]), 'upload').url as string;
      ok(await member.upload('/users/me/avatar', [{ name: 'me.png', bytes: await png({ r: 10, g: 200, b: 10 }, 120), type: 'image/png' }]), 'avatar');
      ok(await server.owner.upload('/realm/emoji/party_parrot', [{ name: 'parrot.png', bytes: await png({ r: 250, g: 10, b: 10 }), type: 'image/png' }]), 'emoji');
      ok(await member.post('/messages', { type: 'stream', to: channel.name, topic: 'files', content: `[notes](${uploadUrl}) :party_parrot:` }), 'message with file');

      // Senders keep sending, varied text, until told to stop; each acknowledged ID is noted with when it was acknowledged.
      const acknowledged: Array<{ id: number; at: number; latency: number }> = [];
      let sending = true;
      const sender = async (client: Client, n: number) => {
        for (let i = 0; sending; i++) {
          const content = `${n}:${i} **bold** \`code\` ✓ 日本語 ${'x'.repeat(i % 300)}`;
          const started = performance.now();
          const sent = ok(await client.post('/messages', { type: 'stream', to: channel.name, topic: `topic ${i % 7}`, content }), 'send');
          acknowledged.push({ id: sent.id as number, at: performance.now(), latency: performance.now() - started });
        }
      };
      const senders = [sender(server.owner, 1), sender(member, 2), sender(server.owner, 3)];
      while (acknowledged.length < 100) await sleep(10);

      const filesBefore = filesUnder(path.join(server.data, 'uploads'));
      const backupBegan = performance.now();
      const sentBefore = acknowledged.map((a) => a.id);
      const output = path.join(tempDir(), 'backup.tar.gz');
      const backup = await stoaCommand(['backup', '--data', server.data, '--output', output]);
      const backupEnded = performance.now();
      sending = false;
      await Promise.all(senders);
      assert.equal(backup.code, 0, backup.output);
      assert.match(backup.output, /Wrote .*backup\.tar\.gz \(\d+ bytes\): \d+ messages and \d+ files\./);
      assert.equal(statSync(output).mode & 0o777, 0o600, 'a backup holds credentials: readable by its owner only');
      // The server went on answering while the backup ran.
      const during = acknowledged.filter((a) => a.at > backupBegan && a.at < backupEnded);
      assert.ok(during.length > 0, 'messages were sent while the backup ran');
      const slowest = Math.max(...during.map((a) => a.latency));
      assert.ok(slowest < 2000, `a send took ${Math.round(slowest)} ms during the backup`);

      const restore = await stoaCommand(['restore', output, '--data', restoredData]);
      assert.equal(restore.code, 0, restore.output);
      assert.match(restore.output, /Restored \d+ messages and \d+ files/);

      // Every file there before the backup began is restored, byte for byte.
      const filesRestored = filesUnder(path.join(restoredData, 'uploads'));
      assert.ok(filesBefore.size >= 4, `upload, avatar (two sizes) and emoji: ${[...filesBefore.keys()].join(', ')}`);
      for (const [file, hash] of filesBefore) assert.equal(filesRestored.get(file), hash, file);

      restored = await TestServer.start({ data: restoredData });
      // The owner's credentials (in its zuliprc) and the member's API key work on the restored server.
      const restoredMember = restored.anonymous.as(member.credentials);
      for (const applyMarkdown of [true, false]) {
        const original = await messagesById(member, applyMarkdown);
        const copy = await messagesById(restoredMember, applyMarkdown);
        for (const id of sentBefore) {
          assert.ok(copy.has(id), `message ${id}, acknowledged before the backup began, is in the backup`);
          assert.deepEqual(copy.get(id), original.get(id), `message ${id}`);
        }
        // Nothing in the backup that the server did not have.
        for (const [id, message] of copy) assert.deepEqual(message, original.get(id), `message ${id}`);
      }
      const download = await restoredMember.download(uploadUrl);
      assert.equal(download.status, 200);
      assert.equal(download.bytes.toString(), 'some notes, ünïcödé');
      const emoji = ok(await restored.owner.get('/realm/emoji'), 'emoji').emoji as Record<string, Row>;
      const parrot = Object.values(emoji).find((e) => e.name === 'party_parrot')!;
      assert.equal((await restored.owner.download(parrot.source_url)).status, 200);
    } finally {
      await restored?.close();
      await server.close();
    }
  });

  test('a backup killed halfway leaves the good backup it was replacing as it was', async () => {
    const server = await TestServer.start();
    try {
      // Enough bytes that the backup takes a while: incompressible, so gzip works through all of them.
      const folder = path.join(server.data, 'uploads', '1', 'ff');
      mkdirSync(folder, { recursive: true });
      for (let i = 0; i < 4; i++) writeFileSync(path.join(folder, `big-${i}.bin`), randomBytes(10 * 1024 * 1024));
      const output = path.join(tempDir(), 'nightly.tar.gz');
      const first = await stoaCommand(['backup', '--data', server.data, '--output', output]);
      assert.equal(first.code, 0, first.output);
      const good = sha256(output);

      ok(await server.owner.post('/messages', { type: 'direct', to: [server.ownerId], content: 'after the good backup' }), 'send');
      const second = spawnStoa(['backup', '--data', server.data, '--output', output]);
      // Killed once it has begun writing.
      while (!(existsSync(`${output}.partial`) && statSync(`${output}.partial`).size > 0) && second.process.exitCode === null) await sleep(5);
      second.process.kill('SIGKILL');
      await second.exited;
      assert.equal(sha256(output), good, 'the good backup is untouched');

      const restoredData = path.join(tempDir(), 'restored');
      const restore = await stoaCommand(['restore', output, '--data', restoredData]);
      assert.equal(restore.code, 0, restore.output);

      // The next backup cleans up what the killed one left in the data folder.
      const third = await stoaCommand(['backup', '--data', server.data, '--output', output]);
      assert.equal(third.code, 0, third.output);
      assert.deepEqual(readdirSync(server.data).filter((name) => name.startsWith('.')), []);
      assert.ok(!existsSync(`${output}.partial`));
    } finally {
      await server.close();
    }
  });

  test('restore refuses a folder that holds data, and a file that is not a backup, and writes nothing', async () => {
    const server = await TestServer.start();
    try {
      const output = path.join(tempDir(), 'backup.tar.gz');
      assert.equal((await stoaCommand(['backup', '--data', server.data, '--output', output])).code, 0);

      const occupied = tempDir();
      writeFileSync(path.join(occupied, 'notes.txt'), 'mine');
      const refused = await stoaCommand(['restore', output, '--data', occupied]);
      assert.equal(refused.code, 1);
      assert.match(refused.output, /stoa: restore failed, nothing was written: .* is not empty \(it holds notes\.txt\); restore into a new folder/);
      assert.deepEqual(readdirSync(occupied), ['notes.txt']);

      // Over a server's own data folder, too.
      const overServer = await stoaCommand(['restore', output, '--data', server.data]);
      assert.equal(overServer.code, 1);
      assert.match(overServer.output, /is not empty/);

      const notBackup = path.join(tempDir(), 'notes.tar.gz');
      writeFileSync(notBackup, 'not a tarball at all');
      const fresh = path.join(tempDir(), 'fresh');
      const garbage = await stoaCommand(['restore', notBackup, '--data', fresh]);
      assert.equal(garbage.code, 1);
      assert.match(garbage.output, /is not a readable tarball/);
      assert.ok(!existsSync(fresh), 'a folder the restore made is removed again');

      for (const args of [['restore', output], ['restore', '--data', fresh], ['backup', '--data', ':memory:'], ['backup', '--nope']]) {
        const result = await stoaCommand(args);
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.output}`);
        assert.match(result.output.trim(), /^stoa: [^\n]+$/);
      }
    } finally {
      await server.close();
    }
  });
});

describe('scheduled backups', () => {
  test('the server backs itself up at start and then every --backup-every hours, keeping the newest --backup-keep', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 28, 1, 0, 0));
    const backupDir = path.join(tempDir(), 'backups');
    const server = await TestServer.start({ clock, config: { backupDir, backupEveryHours: 6, backupKeep: 2 } });
    try {
      await logLine(server, /^Backup written to .*stoa-backup-20261128-010000\.tar\.gz/);
      for (let hour = 7, n = 2; n <= 4; hour += 6, n++) {
        ok(await server.owner.post('/messages', { type: 'direct', to: [server.ownerId], content: `backup ${n}` }), 'send');
        clock.advance(6 * 60 * 60 * 1000);
        await logLine(server, /^Backup written to /, n);
      }
      assert.deepEqual(readdirSync(backupDir).sort(), ['stoa-backup-20261128-130000.tar.gz', 'stoa-backup-20261128-190000.tar.gz']);

      // The newest restores with the messages sent before it.
      const restoredData = path.join(tempDir(), 'restored');
      const restore = await stoaCommand(['restore', path.join(backupDir, 'stoa-backup-20261128-190000.tar.gz'), '--data', restoredData]);
      assert.equal(restore.code, 0, restore.output);
      const restored = await TestServer.start({ data: restoredData, clock });
      try {
        const contents = [...(await messagesById(restored.owner, false)).values()].map((m) => m.content);
        assert.deepEqual(contents, ['backup 2', 'backup 3', 'backup 4']);
      } finally {
        await restored.close();
      }
    } finally {
      await server.close();
    }

    // Started again with a recent backup in the folder, the server waits for the next one due.
    const again = await TestServer.start({ data: server.data, clock, config: { backupDir, backupEveryHours: 6, backupKeep: 2 } });
    try {
      await sleep(300);
      assert.ok(!again.logs.some((line) => line.startsWith('Backup written')), again.logs.join('\n'));
      clock.advance(6 * 60 * 60 * 1000);
      await logLine(again, /^Backup written to .*stoa-backup-20261129-010000\.tar\.gz/);
    } finally {
      await again.close();
    }
  });

  test('--backup-every and --backup-keep need --backup-dir, and take sensible numbers', async () => {
    for (const args of [['--backup-every', '6'], ['--backup-keep', '3'], ['--backup-dir', '/tmp/x', '--backup-every', '0'], ['--backup-dir', '/tmp/x', '--backup-keep', 'many'], ['--data', ':memory:', '--backup-dir', '/tmp/x']]) {
      const child = spawnStoa(args);
      assert.equal(await child.exited, 2, `${args.join(' ')}: ${child.output()}`);
      assert.match(child.output().trim(), /^stoa: [^\n]+$/);
    }
  });
});
