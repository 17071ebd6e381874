import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { removeBotStorageEntries, storeBotStorageEntries } from './actions';

/** Zulip's USER_STATE_SIZE_LIMIT: characters of keys and values together, per bot. */
export const BOT_STORAGE_LIMIT = 10_000_000;

const KEYS = { keys: { type: 'array', items: { type: 'string' } } } as const;

/** Only bots keep storage (Zulip 12, feature level 494); a person's request is refused. */
function requireBot(user: UserRow): void {
  if (!user.is_bot) throw badRequest('Must be a bot user');
}

function keyDoesNotExist() {
  return badRequest('Key does not exist.');
}

/** The keys asked for, or every key when none were named. */
function keysOf(stoa: Stoa, botId: number, keys: string[] | undefined): string[] {
  return keys ?? stoa.botStorage.all(botId).map((entry) => entry.key);
}

/** Characters a key and its value take, counted as Zulip counts them (code points). */
function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** GET /bot_storage: the values of the keys named (all by default); any unknown key fails the lot. */
export const getBotStorage = endpoint<{ keys?: string[] }>({
  params: { properties: KEYS },
  view: ({ stoa, user, params }) => {
    requireBot(user);
    const storage: Record<string, string> = {};
    for (const key of keysOf(stoa, user.id, params.keys)) {
      const value = stoa.botStorage.get(user.id, key);
      if (value === undefined) throw keyDoesNotExist();
      storage[key] = value;
    }
    return { storage };
  },
});

/** PUT /bot_storage: sets each entry given, all or none, within the bot's storage limit. */
export const putBotStorage = endpoint<{ storage: Record<string, string> }>({
  params: { properties: { storage: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['storage'] },
  view: ({ stoa, user, params }) => {
    requireBot(user);
    const entries = Object.entries(params.storage);
    let size = stoa.botStorage.size(user.id);
    for (const [key, value] of entries) {
      const before = stoa.botStorage.get(user.id, key);
      size += characters(key) + characters(value) - (before === undefined ? 0 : characters(key) + characters(before));
    }
    if (size > BOT_STORAGE_LIMIT) {
      throw badRequest(
        `Request exceeds storage limit by ${size - BOT_STORAGE_LIMIT} characters. The limit is ${BOT_STORAGE_LIMIT} characters.`,
      );
    }
    storeBotStorageEntries(stoa, user.id, entries);
    return {};
  },
});

/** DELETE /bot_storage: removes the keys named (all by default); any unknown key removes none. */
export const removeBotStorage = endpoint<{ keys?: string[] }>({
  params: { properties: KEYS },
  view: ({ stoa, user, params }) => {
    requireBot(user);
    const keys = keysOf(stoa, user.id, params.keys);
    if (keys.some((key) => stoa.botStorage.get(user.id, key) === undefined)) throw keyDoesNotExist();
    removeBotStorageEntries(stoa, user.id, keys);
    return {};
  },
});
