import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, passwordHashing, verifyPassword } from '../lib/auth/credentials';

/**
 * Each password hash holds 32 MB while it runs: a burst of logins must not run them all at
 * once (bench/RESULTS.md: eight logins at once took the server from 74 to 203 MB).
 */
test('passwords are hashed two at a time, the others waiting their turn, and every answer is right', async () => {
  const stored = await hashPassword('the right one');
  let mostRunning = 0;
  const sampler = setInterval(() => (mostRunning = Math.max(mostRunning, passwordHashing().running)), 1);
  const attempts = Array.from({ length: 8 }, (_, i) => verifyPassword(i % 2 === 0 ? 'the right one' : `wrong ${i}`, stored));
  // The first two start once the current turn of the event loop is over.
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(passwordHashing(), { running: 2, waiting: 6 });
  const answers = await Promise.all(attempts);
  clearInterval(sampler);
  assert.deepEqual(answers, [true, false, true, false, true, false, true, false]);
  assert.equal(mostRunning, 2);
  assert.deepEqual(passwordHashing(), { running: 0, waiting: 0 });
});
