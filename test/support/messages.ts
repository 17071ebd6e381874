import assert from 'node:assert/strict';
import type { Client } from './client';

/** Sends a message as the client, insisting it is accepted, and returns its ID. */
export async function sendMessage(client: Client, params: Record<string, unknown>): Promise<number> {
  const response = await client.post('/messages', params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.id as number;
}
