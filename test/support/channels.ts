import assert from 'node:assert/strict';
import type { Client } from './client';

let channelCount = 0;

/** A channel name no other test in this process uses. */
export function uniqueName(prefix = 'channel'): string {
  channelCount += 1;
  return `${prefix} ${channelCount}`;
}

/** Creates a channel through the subscribe endpoint, as clients do, and returns its name and ID. */
export async function createChannel(client: Client, params: Record<string, unknown> = {}, name = uniqueName()) {
  const response = await client.post('/users/me/subscriptions', { subscriptions: [{ name }], ...params });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  const id = (await client.get('/get_stream_id', { stream: name })).body.stream_id as number;
  return { name, id };
}
