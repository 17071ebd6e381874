import type { Statements } from '../db';

/** Kinds of bot (users.bot_type). */
export const BotType = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;

/** How an outgoing-webhook bot's server wants its requests (Zulip's Service.interface). */
export const ServiceInterface = { GENERIC: 1, SLACK: 2 } as const;

export interface BotServiceRow {
  bot_id: number;
  name: string;
  base_url: string;
  interface: number;
  token: string;
}

export function prepareBotServiceQueries(db: Statements) {
  const ofBot = db.prepare<[number], BotServiceRow>('SELECT * FROM bot_services WHERE bot_id = ?');
  const activeBotIds = db.prepare<[], { bot_id: number }>(
    `SELECT s.bot_id FROM bot_services s JOIN users u ON u.id = s.bot_id WHERE u.is_active = 1 ORDER BY s.bot_id`,
  );
  const insert = db.prepare<BotServiceRow>(
    `INSERT INTO bot_services (bot_id, name, base_url, interface, token)
     VALUES (@bot_id, @name, @base_url, @interface, @token)`,
  );
  const setEndpoint = db.prepare<[string, number, number]>('UPDATE bot_services SET base_url = ?, interface = ? WHERE bot_id = ?');
  return {
    ofBot: (botId: number) => ofBot.get(botId),
    /** Active bots that have a service: the ones a message can set off. */
    activeBotIds: () => activeBotIds.all().map((row) => row.bot_id),
    insert: (service: BotServiceRow) => void insert.run(service),
    setEndpoint: (botId: number, baseUrl: string, serviceInterface: number) => void setEndpoint.run(baseUrl, serviceInterface, botId),
  };
}

export function prepareBotStorageQueries(db: Statements) {
  const all = db.prepare<[number], { key: string; value: string }>('SELECT key, value FROM bot_storage WHERE bot_id = ? ORDER BY rowid');
  const get = db.prepare<[number, string], { value: string }>('SELECT value FROM bot_storage WHERE bot_id = ? AND key = ?');
  // length() counts characters, as Zulip's limit does.
  const size = db.prepare<[number], { size: number }>('SELECT coalesce(sum(length(key) + length(value)), 0) AS size FROM bot_storage WHERE bot_id = ?');
  const put = db.prepare<[number, string, string]>(
    'INSERT INTO bot_storage (bot_id, key, value) VALUES (?, ?, ?) ON CONFLICT (bot_id, key) DO UPDATE SET value = excluded.value',
  );
  const remove = db.prepare<[number, string]>('DELETE FROM bot_storage WHERE bot_id = ? AND key = ?');
  return {
    /** A bot's entries, oldest first. */
    all: (botId: number) => all.all(botId),
    get: (botId: number, key: string) => get.get(botId, key)?.value,
    /** Characters the bot's keys and values take together. */
    size: (botId: number) => size.get(botId)!.size,
    put: (botId: number, key: string, value: string) => void put.run(botId, key, value),
    remove: (botId: number, key: string) => void remove.run(botId, key),
  };
}
