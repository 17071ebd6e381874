import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TestServer } from './support/server';

/** The invitation form offers email invitations only where the server can send mail. */

async function emailInvitationsEnabled(config: { smtp?: string }): Promise<boolean> {
  const server = await TestServer.start({ config });
  try {
    const response = await server.anonymous.get('/server_settings');
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body.email_invitations_enabled;
  } finally {
    await server.close();
  }
}

test('server_settings says whether email invitations can be sent: only with a mail server (--smtp)', async () => {
  assert.equal(await emailInvitationsEnabled({}), false);
  // Nothing is sent unless someone invites by email, so an unreachable mail server will do.
  assert.equal(await emailInvitationsEnabled({ smtp: 'smtp://127.0.0.1:9' }), true);
});
