import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from './support/client';
import { readZuliprc, REPO_ROOT, spawnStoa, tempDir, TestServer, type ChildServer } from './support/server';

/** Stops a child server and waits for it, whatever state it is in. */
async function stop(child: ChildServer): Promise<void> {
  if (child.process.exitCode === null) child.process.kill('SIGKILL');
  await child.exited;
}

function ownerClient(url: string, data: string): Client {
  const rc = readZuliprc(path.join(data, 'zuliprc'));
  return new Client(url, { email: rc.email, apiKey: rc.key });
}

describe('the command line', () => {
  test('--help prints every flag with its environment variable and exits 0', async () => {
    const child = spawnStoa(['--help']);
    assert.equal(await child.exited, 0);
    for (const flag of ['--host', '--port', '--data', '--realm-name', '--admin-email', '--admin-password', '--dev', '--web-public', '--site', '--smtp', '--mail-from', '--slack-api', '--help']) {
      assert.ok(child.output().includes(flag), flag);
    }
    assert.ok(child.output().includes('STOA_ADMIN_PASSWORD'));
    assert.ok(child.output().includes('STOA_SMTP'));
  });

  test('a bad flag or value gets a one-line error and exit code 2', async () => {
    const cases: Array<[string[], Record<string, string>]> = [
      [['--no-such-flag'], {}],
      [['--port', 'eighty'], {}],
      [['--port', '70000'], {}],
      [[], { STOA_PORT: 'abc' }],
      [[], { STOA_DEV: 'maybe' }],
      [[], { STOA_WEB_PUBLIC: 'sometimes' }],
      [['--admin-email', 'not an email'], {}],
      [['--data', ''], {}],
      [['--site', 'chat.example.org'], {}],
      [['--site', 'ftp://chat.example.org'], {}],
      [[], { STOA_SITE: 'https://chat.example.org/stoa' }],
      [['--outgoing-webhook-timeout-seconds', '0'], {}],
      [[], { STOA_OUTGOING_WEBHOOK_TIMEOUT_SECONDS: 'soon' }],
      [['--smtp', 'mail.example.org:587'], {}],
      [[], { STOA_SMTP: 'https://mail.example.org' }],
      [['--mail-from', 'nobody'], {}],
      [['--slack-api', 'slack.com/api'], {}],
    ];
    for (const [args, env] of cases) {
      const child = spawnStoa(args, env);
      const code = await child.exited;
      assert.equal(code, 2, `${args.join(' ')} ${JSON.stringify(env)}: ${child.output()}`);
      const lines = child.output().trim().split('\n');
      assert.equal(lines.length, 1, child.output());
      assert.match(lines[0], /^stoa: /);
    }
  });

  test('every setting can come from its STOA_* variable', async () => {
    const data = tempDir();
    const child = spawnStoa([], {
      STOA_HOST: '127.0.0.1',
      STOA_PORT: '0',
      STOA_DATA: data,
      STOA_REALM_NAME: 'Classroom',
      STOA_ADMIN_EMAIL: 'teacher@example.com',
      STOA_ADMIN_PASSWORD: 'teacher-password',
      STOA_DEV: 'true',
      STOA_WEB_PUBLIC: 'true',
    });
    try {
      const url = await child.listening;
      const settings = await new Client(url).get('/server_settings');
      assert.equal(settings.body.realm_name, 'Classroom');
      assert.equal(settings.body.authentication_methods.dev, true);
      const login = await new Client(url).post('/fetch_api_key', {
        username: 'teacher@example.com',
        password: 'teacher-password',
      });
      assert.equal(login.status, 200);
      assert.equal(readZuliprc(path.join(data, 'zuliprc')).email, 'teacher@example.com');
      const teacher = new Client(url, { email: 'teacher@example.com', apiKey: login.body.api_key });
      const state = await teacher.post('/register', { fetch_event_types: ['realm'] });
      assert.equal(state.body.server_web_public_streams_enabled, true);
    } finally {
      await stop(child);
      rmSync(data, { recursive: true, force: true });
    }
  });

  test('flags win over environment variables', async () => {
    const data = tempDir();
    const child = spawnStoa(['--port', '0', '--data', data, '--realm-name', 'From flag'], {
      STOA_REALM_NAME: 'From env',
      STOA_PORT: '1',
    });
    try {
      const url = await child.listening;
      assert.equal((await new Client(url).get('/server_settings')).body.realm_name, 'From flag');
    } finally {
      await stop(child);
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe('the organization’s URL', () => {
  test('is the --site address in every place a client reads it, while the server listens locally', async () => {
    const data = tempDir();
    const child = spawnStoa(['--port', '0', '--data', data, '--site', 'https://chat.example.org/']);
    try {
      const url = await child.listening;
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.match(child.output(), /People reach it at https:\/\/chat\.example\.org$/m);
      const settings = (await new Client(url).get('/server_settings')).body;
      assert.deepEqual([settings.realm_url, settings.realm_uri], ['https://chat.example.org', 'https://chat.example.org']);
      assert.equal(readZuliprc(path.join(data, 'zuliprc')).site, 'https://chat.example.org');
      const state = await ownerClient(url, data).post('/register', { fetch_event_types: ['realm'] });
      assert.equal(state.body.realm_url, 'https://chat.example.org');
    } finally {
      await stop(child);
      rmSync(data, { recursive: true, force: true });
    }
  });

  test('comes from STOA_SITE too, and without either is never a wildcard address', async () => {
    const data = tempDir();
    const fromEnv = spawnStoa(['--port', '0', '--data', data], { STOA_SITE: 'http://10.1.2.3:8080' });
    try {
      const url = await fromEnv.listening;
      assert.equal((await new Client(url).get('/server_settings')).body.realm_url, 'http://10.1.2.3:8080');
    } finally {
      await stop(fromEnv);
    }
    const everywhere = spawnStoa(['--port', '0', '--data', data, '--host', '0.0.0.0']);
    try {
      const url = await everywhere.listening;
      const realmUrl: string = (await new Client(url).get('/server_settings')).body.realm_url;
      assert.doesNotMatch(realmUrl, /0\.0\.0\.0/);
      assert.match(realmUrl, /^http:\/\/[\d.]+:\d+$/);
    } finally {
      await stop(everywhere);
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe('the first start', () => {
  test('writes a zuliprc readable only by its owner, with the owner’s working credentials', async () => {
    const data = tempDir();
    const child = spawnStoa(['--port', '0', '--data', data]);
    try {
      const url = await child.listening;
      const file = path.join(data, 'zuliprc');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const rc = readZuliprc(file);
      assert.deepEqual(Object.keys(rc).sort(), ['email', 'key', 'site']);
      assert.equal(rc.site, url);
      assert.equal(rc.email, 'owner@stoa.local');
      assert.ok(child.output().includes(file), 'prints where the zuliprc is');
      assert.match(child.output(), /password is \S+ \(shown this once\)/);
      const me = await ownerClient(url, data).get('/users/me');
      assert.equal(me.status, 200);
      assert.equal(me.body.role, 100);
    } finally {
      await stop(child);
      rmSync(data, { recursive: true, force: true });
    }
  });

  test('with --data :memory: writes nothing to disk and prints the credentials instead', async () => {
    const before = readdirSync(REPO_ROOT).sort();
    const child = spawnStoa(['--port', '0', '--data', ':memory:']);
    try {
      const url = await child.listening;
      const key = /^key=(\S+)$/m.exec(child.output())![1];
      const me = await new Client(url, { email: 'owner@stoa.local', apiKey: key }).get('/users/me');
      assert.equal(me.status, 200);
      assert.deepEqual(readdirSync(REPO_ROOT).sort(), before);
      assert.ok(!existsSync(path.join(REPO_ROOT, ':memory:')));
    } finally {
      await stop(child);
    }
  });
});

describe('later starts', () => {
  test('reuse the organization, its users and their keys', async () => {
    const data = tempDir();
    const server = await TestServer.start({ data });
    try {
      const alice = await server.createUser('Alice');
      const ownerKey = server.owner.credentials!.apiKey;
      const firstStartLines = server.logs.length;
      await server.restart();
      assert.equal(server.owner.credentials!.apiKey, ownerKey, 'the zuliprc keeps the same key');
      const users = await server.owner.get('/users');
      assert.ok(users.body.members.some((m: { full_name: string }) => m.full_name === 'Alice'));
      const again = await server.anonymous.as(alice.credentials).get('/users/me');
      assert.equal(again.status, 200);
      assert.equal(again.body.user_id, alice.userId);
      const restartLines = server.logs.slice(firstStartLines);
      assert.ok(!restartLines.some((line) => line.startsWith('Created the organization')));
    } finally {
      await server.close();
      rmSync(data, { recursive: true, force: true });
    }
  });

  test('of a second server on the same data folder are refused, and the first keeps working', async () => {
    const data = tempDir();
    const first = spawnStoa(['--port', '0', '--data', data]);
    try {
      const url = await first.listening;
      const second = spawnStoa(['--port', '0', '--data', data]);
      assert.equal(await second.exited, 1);
      assert.match(second.output(), /in use by another Stoa server/);
      const me = await ownerClient(url, data).get('/users/me');
      assert.equal(me.status, 200);
    } finally {
      await stop(first);
    }
    // After the first one stops, the folder is free and intact.
    const third = spawnStoa(['--port', '0', '--data', data]);
    try {
      const url = await third.listening;
      assert.equal((await ownerClient(url, data).get('/users/me')).status, 200);
    } finally {
      await stop(third);
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe('shutting down', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`on ${signal} exits 0 within 2 seconds and leaves the database reusable`, async () => {
      const data = tempDir();
      const child = spawnStoa(['--port', '0', '--data', data]);
      try {
        const url = await child.listening;
        // A keep-alive connection left open must not hold the shutdown up.
        await ownerClient(url, data).get('/users/me');
        const start = Date.now();
        child.process.kill(signal);
        assert.equal(await child.exited, 0);
        assert.ok(Date.now() - start < 2000, `took ${Date.now() - start} ms`);
        await assert.rejects(fetch(`${url}/api/v1/server_settings`));
      } finally {
        await stop(child);
      }
      const again = spawnStoa(['--port', '0', '--data', data]);
      try {
        const url = await again.listening;
        assert.equal((await ownerClient(url, data).get('/users/me')).status, 200);
      } finally {
        await stop(again);
        rmSync(data, { recursive: true, force: true });
      }
    });
  }
});
