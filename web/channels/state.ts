import { signal } from '@preact/signals';
import { session, updateMap } from '../state';

/**
 * What channel settings need beyond the sidebar's state, kept current by the event loop: the
 * organization's default channels, the subscriber lists of the channels whose settings were
 * opened, the realm's settings that decide what may be changed, and the person's own
 * notification defaults that a channel's overrides start from.
 */

export type ChannelTab = 'general' | 'personal' | 'subscribers';

/** The address of a channel's settings (a tab of them), as Zulip writes it: #channels/ID/name/tab. */
export function channelSettingsHash(channelId: number, name: string, tab: ChannelTab = 'general'): string {
  return `#channels/${channelId}/${encodeURIComponent(name.replace(/[^\p{L}\p{N}]+/gu, '-'))}/${tab}`;
}

/** The channels new people join (register's realm_default_streams, `default_streams` events). */
export const defaultChannelIds = signal<Set<number>>(new Set());

/** Subscribers of the channels whose list was fetched (GET /streams/{id}/members), by channel ID. */
export const channelSubscribers = signal<Map<number, Set<number>>>(new Map());

/** The realm_* and server_* values of register (permissions, web-public channels ...). */
export const realmSettings = signal<Record<string, unknown>>({});

/** Takes this module's part of the register answer. */
export function applyChannelRegister(answer: Record<string, unknown>): void {
  defaultChannelIds.value = new Set((answer.realm_default_streams as number[] | undefined) ?? []);
  realmSettings.value = Object.fromEntries(Object.entries(answer).filter(([key]) => key.startsWith('realm_') || key.startsWith('server_')));
  // Lists fetched before a new registration may have missed events.
  channelSubscribers.value = new Map();
}

/** Applies the events of this module's part; other parts of the same events are handled elsewhere. */
export function applyChannelEvent(event: Record<string, unknown>): void {
  if (event.type === 'default_streams') defaultChannelIds.value = new Set(event.default_streams as number[]);
  else if (event.type === 'subscription' && (event.op === 'peer_add' || event.op === 'peer_remove')) {
    const adding = event.op === 'peer_add';
    updateMap(channelSubscribers, (copy) => {
      for (const id of event.stream_ids as number[]) {
        const known = copy.get(id);
        if (!known) continue;
        const next = new Set(known);
        for (const user of event.user_ids as number[]) adding ? next.add(user) : next.delete(user);
        copy.set(id, next);
      }
    });
  } else if (event.type === 'subscription' && (event.op === 'add' || event.op === 'remove')) {
    // One's own subscriptions change the lists one has open.
    const self = session.value?.user_id ?? 0;
    updateMap(channelSubscribers, (copy) => {
      for (const sub of event.subscriptions as Array<{ stream_id: number }>) {
        const known = copy.get(sub.stream_id);
        if (!known) continue;
        const next = new Set(known);
        event.op === 'add' ? next.add(self) : next.delete(self);
        copy.set(sub.stream_id, next);
      }
    });
  } else if (event.type === 'realm' && event.op === 'update') {
    realmSettings.value = { ...realmSettings.value, [`realm_${event.property as string}`]: event.value };
  } else if (event.type === 'realm' && event.op === 'update_dict') {
    const data = Object.fromEntries(Object.entries(event.data as Record<string, unknown>).map(([key, value]) => [`realm_${key}`, value]));
    realmSettings.value = { ...realmSettings.value, ...data };
  } else if (event.type === 'realm_linkifiers' || event.type === 'realm_playgrounds') {
    // These lists come whole in events of their own name (the organization's settings pages show them).
    realmSettings.value = { ...realmSettings.value, [event.type]: event[event.type] };
  }
}
