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
});
