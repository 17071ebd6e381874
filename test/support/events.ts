import assert from 'node:assert/strict';
import type { Client } from './client';
import { assertValidEvent, assertValidEvent12 } from './openapi';

/**
 * Registers a queue for the client and returns a reader of what arrived since the last read
 * (acknowledging it), each event checked against zulip.yaml and given without its `id`.
 */
export async function listen(client: Client, params: Record<string, unknown> = {}, check = assertValidEvent) {
  const registered = await client.post('/register', { fetch_event_types: [], ...params });
  assert.equal(registered.status, 200, JSON.stringify(registered.body));
  const queueId = registered.body.queue_id as string;
  let lastEventId = -1;
  return async (): Promise<Array<Record<string, any>>> => {
    const response = await client.get('/events', { queue_id: queueId, last_event_id: lastEventId, dont_block: true });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    for (const event of response.body.events) check(event);
    if (response.body.events.length > 0) lastEventId = response.body.events.at(-1).id;
    return response.body.events.map(({ id: _id, ...event }: Record<string, any>) => event);
  };
}

/** Like listen, with each event checked against Zulip 12's description (zulip-12.yaml) only. */
export function listen12(client: Client, params: Record<string, unknown> = {}) {
  return listen(client, params, assertValidEvent12);
}
