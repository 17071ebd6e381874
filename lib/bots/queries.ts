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
