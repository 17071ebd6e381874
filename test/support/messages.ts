import assert from 'node:assert/strict';
import type { Client } from './client';

/** Sends a message as the client, insisting it is accepted, and returns its ID. */
export async function sendMessage(client: Client, params: Record<string, unknown>): Promise<number> {
  const response = await client.post('/messages', params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.id as number;
}

/** Sends a channel message as the client and marks it read, as the web client does with one's own message. */
export async function sendRead(client: Client, channelId: number, topic: string, content: string): Promise<number> {
  const id = await sendMessage(client, { type: 'stream', to: channelId, topic, content });
  await client.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
  return id;
}

/** The client's unread message IDs, as the server counts them (`unread_msgs` of a new queue). */
export async function unreadIds(client: Client): Promise<number[]> {
  const state = (await client.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })).body;
  const ids: number[] = [];
  for (const entry of state.unread_msgs.streams) ids.push(...entry.unread_message_ids);
  for (const entry of state.unread_msgs.pms) ids.push(...entry.unread_message_ids);
  return ids.sort((a, b) => a - b);
}
