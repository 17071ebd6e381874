import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createChannel } from './support/channels';
import { ok } from './support/fixtures';
import { TestServer } from './support/server';

describe('narrows too large for one SQL statement', () => {
  test('a narrow of 10,000 terms answers 400 with a clear message wherever a narrow is taken, and one of 100 works', async () => {
    const server = await TestServer.start();
    try {
      const channel = await createChannel(server.owner);
      ok(await server.owner.post('/messages', { type: 'stream', to: channel.name, topic: 'plans', content: 'the build is green' }), 'send');
      const huge = Array.from({ length: 10_000 }, (_, i) => ({ operator: 'topic', operand: `topic ${i}`, negated: true }));
      const refusal = { result: 'error', msg: 'narrow has too many terms (limit: 100)', code: 'BAD_REQUEST' };
      for (const [path, params] of [
        ['/messages/flags/narrow', { anchor: 'newest', num_before: 10, num_after: 0, op: 'add', flag: 'read' }],
        ['/register', {}],
      ] as const) {
        const response = await server.owner.post(path, { ...params, narrow: huge });
        assert.equal(response.status, 400, path);
        assert.deepEqual(response.body, refusal, path);
      }
      // GET /messages takes it in the query string, where 101 terms fit.
      const over = await server.owner.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: huge.slice(0, 101) });
      assert.equal(over.status, 400);
      assert.deepEqual(over.body, refusal);

      // A hundred terms of the kind that adds the most conditions still compile.
      const hundred = Array.from({ length: 100 }, (_, i) => ({ operator: 'search', operand: `green word${i}`, negated: i % 2 === 1 }));
      const fetched = await server.owner.post('/messages/flags/narrow', { anchor: 'newest', num_before: 10, num_after: 0, op: 'add', flag: 'read', narrow: hundred });
      assert.equal(fetched.status, 200, JSON.stringify(fetched.body));
      assert.ok(!server.logs.some((line) => line.startsWith('error')), server.logs.join('\n'));
    } finally {
      await server.close();
    }
  });
  test("narrows at SQLite's other limits (long searches, expression depth, variables, LIKE pattern length) are searched, never a server error", async () => {
    const server = await TestServer.start();
    try {
      const channel = await createChannel(server.owner);
      ok(await server.owner.post('/messages', { type: 'stream', to: channel.name, topic: 'plans', content: 'the build is green' }), 'send');
      const words = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(' ');
      const fetchWith = (narrow: unknown[]) => server.owner.post('/messages/flags/narrow', { anchor: 'newest', num_before: 10, num_after: 0, op: 'add', flag: 'read', narrow });
      const matching = async (narrow: unknown[]) => {
        const response = await fetchWith(narrow);
        assert.equal(response.status, 200, JSON.stringify(response.body));
        return response.body.processed_count as number;
      };
      // A search of 5,000 words (one full-text query of 5,000 terms): nothing has them all.
      assert.equal(await matching([{ operator: 'search', operand: words(5000, 'word') }]), 0);
      // A channel and 99 negated searches of a hundred words each: the deepest expression a narrow can make.
      const negated = Array.from({ length: 99 }, (_, i) => ({ operator: 'search', operand: words(100, `w${i}x`), negated: true }));
      const inChannel = [{ operator: 'channel', operand: channel.name }];
      assert.equal(await matching([...inChannel, ...negated]), await matching(inChannel));
      // 60,000 characters of LIKE wildcards (SQLite refuses LIKE patterns over 50,000 bytes) and
      // of full-text query syntax are searched as text.
      assert.equal(await matching([{ operator: 'search', operand: '%_'.repeat(30_000) }]), 0);
      assert.equal(await matching([{ operator: 'search', operand: '"a" OR (b NEAR c) * ^ - "'.repeat(2000) }]), 0);
      // A topic of 200,000 characters names no topic.
      assert.equal(await matching([{ operator: 'topic', operand: 'x'.repeat(200_000) }]), 0);
      // A direct-message operand of 40,000 IDs (more than SQLite binds in one statement), all
      // the owner's: one person, whose notes to themselves are none.
      assert.equal(await matching([{ operator: 'dm', operand: Array.from({ length: 40_000 }, () => server.ownerId) }]), 0);
      assert.ok(!server.logs.some((line) => line.startsWith('error')), server.logs.join('\n'));
    } finally {
      await server.close();
    }
  });
});
