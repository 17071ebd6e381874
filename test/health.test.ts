import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TestServer } from './support/server';

describe('GET /health', () => {
  test('answers success without credentials while the database answers, and 500 SERVER_NOT_READY when it does not', async () => {
    const server = await TestServer.start();
    try {
      const healthy = await fetch(new URL('/health', server.url));
      assert.equal(healthy.status, 200);
      assert.equal(healthy.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await healthy.json(), { result: 'success', msg: '' });

      // A deactivated organization answers almost nothing, but the server is still healthy.
      const deactivated = await server.owner.post('/realm/deactivate');
      assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));
      assert.equal((await fetch(new URL('/health', server.url))).status, 200);

      server.stoa.db.close();
      const broken = await fetch(new URL('/health', server.url));
      assert.equal(broken.status, 500);
      assert.deepEqual(await broken.json(), { result: 'error', msg: 'Cannot query the database', code: 'SERVER_NOT_READY' });
    } finally {
      await server.close();
    }
  });
});
