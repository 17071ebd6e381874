import { generateApiKey } from '../auth/credentials';
import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { createUser } from '../users/actions';
import { Role, type UserRow } from '../users/queries';
import { announceBotUpdate, botAddEvent } from './announce';
import { botAudience, presentServices } from './present';

export interface NewBot {
  email: string;
  fullName: string;
  type: number;
  ownerId: number;
  sendingChannelId: number | null;
  eventsChannelId: number | null;
  allPublicChannels: boolean;
  /** An outgoing-webhook bot's endpoint: where messages that set it off are POSTed, and in which format. */
  service?: { name: string; baseUrl: string; interface: number };
}

/** Creates a bot owned by `ownerId`: everyone learns of the new account, its administrators of the bot. */
export function createBot(stoa: Stoa, spec: NewBot): UserRow {
  return write(stoa, () => {
    const id = createUser(stoa, {
      email: spec.email,
      fullName: spec.fullName,
      passwordHash: null,
      role: Role.MEMBER,
      bot: { type: spec.type, ownerId: spec.ownerId },
    });
    stoa.users.setBotDefaults(id, spec);
    if (spec.service) {
      const { name, baseUrl, interface: serviceInterface } = spec.service;
      stoa.botServices.insert({ bot_id: id, name, base_url: baseUrl, interface: serviceInterface, token: generateApiKey() });
    }
    const bot = stoa.users.byId(id)!;
    sendEvent(stoa, botAddEvent(stoa, bot), botAudience(stoa, bot));
    return bot;
  });
}

/**
 * Hands a bot to a new owner. An owner who is not an administrator gains or loses the bot
 * from their bot list; the remaining administrators see the owner change; everyone sees
 * the bot's new bot_owner_id.
 */
export function changeBotOwner(stoa: Stoa, botId: number, ownerId: number): void {
  write(stoa, () => {
    const before = stoa.users.byId(botId)!;
    if (before.bot_owner_id === ownerId) return;
    const previous = before.bot_owner_id === null ? undefined : stoa.users.byId(before.bot_owner_id);
    stoa.users.setBotOwner(botId, ownerId);
    const bot = stoa.users.byId(botId)!;
    const updated = new Set(botAudience(stoa, bot));
    if (previous && previous.role > Role.ADMINISTRATOR) {
      if (previous.is_active) sendEvent(stoa, { type: 'realm_bot', op: 'delete', bot: { user_id: botId } }, [previous.id]);
      updated.delete(previous.id);
    }
    const owner = stoa.users.byId(ownerId)!;
    if (owner.role > Role.ADMINISTRATOR) {
      sendEvent(stoa, botAddEvent(stoa, bot), [ownerId]);
      updated.delete(ownerId);
    }
    const person = { user_id: botId, bot_owner_id: ownerId };
    sendEvent(stoa, { type: 'realm_user', op: 'update', person }, stoa.users.activeIds());
  });
}

export function changeBotDefaults(
  stoa: Stoa,
  botId: number,
  changes: { sendingChannelId?: number | null; eventsChannelId?: number | null; allPublicChannels?: boolean },
): void {
  write(stoa, () => {
    const bot = stoa.users.byId(botId)!;
    const defaults = {
      sendingChannelId: changes.sendingChannelId === undefined ? bot.default_sending_stream_id : changes.sendingChannelId,
      eventsChannelId: changes.eventsChannelId === undefined ? bot.default_events_register_stream_id : changes.eventsChannelId,
      allPublicChannels: changes.allPublicChannels ?? bot.default_all_public_streams === 1,
    };
    stoa.users.setBotDefaults(botId, defaults);
    const name = (id: number | null) => (id === null ? null : stoa.channels.byId(id)!.name);
    if (changes.sendingChannelId !== undefined) {
      announceBotUpdate(stoa, bot, { default_sending_stream: name(defaults.sendingChannelId) });
    }
    if (changes.eventsChannelId !== undefined) {
      announceBotUpdate(stoa, bot, { default_events_register_stream: name(defaults.eventsChannelId) });
    }
    if (changes.allPublicChannels !== undefined) {
      announceBotUpdate(stoa, bot, { default_all_public_streams: defaults.allPublicChannels });
    }
  });
}

/** Gives a bot a new API key; the old one stops working at once. */
export function regenerateBotApiKey(stoa: Stoa, botId: number): string {
  return write(stoa, () => {
    const apiKey = generateApiKey();
    stoa.users.setApiKey(botId, apiKey);
    return apiKey;
  });
}

/** Points an outgoing-webhook bot at a new URL and format; its token stays. */
export function changeBotService(stoa: Stoa, botId: number, baseUrl: string, serviceInterface: number): void {
  write(stoa, () => {
    stoa.botServices.setEndpoint(botId, baseUrl, serviceInterface);
    const bot = stoa.users.byId(botId)!;
    announceBotUpdate(stoa, bot, { services: presentServices(stoa, bot) });
  });
}

/** Sets entries of a bot's storage, together. Nobody is told: the storage is the bot's alone. */
export function storeBotStorageEntries(stoa: Stoa, botId: number, entries: ReadonlyArray<[string, string]>): void {
  write(stoa, () => {
    for (const [key, value] of entries) stoa.botStorage.put(botId, key, value);
  });
}

export function removeBotStorageEntries(stoa: Stoa, botId: number, keys: readonly string[]): void {
  write(stoa, () => {
    for (const key of keys) stoa.botStorage.remove(botId, key);
  });
}
