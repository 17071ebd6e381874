import { signal } from '@preact/signals';
import { realmSettings } from '../channels/state';
import { updateMap } from '../state';

/**
 * What the bot settings need beyond the people's list (where a bot's name, email, type, owner
 * and whether it is active live): the bots the person administers, with their defaults and
 * outgoing-webhook service (register's realm_bots, kept by realm_bot events), and the
 * incoming-webhook integrations the server offers (realm_incoming_webhook_bots).
 */

/** An outgoing-webhook bot's endpoint. */
export interface BotService {
  base_url: string;
  interface: number;
  token: string;
}

export interface BotRecord {
  user_id: number;
  default_sending_stream?: string | null;
  default_events_register_stream?: string | null;
  default_all_public_streams?: boolean;
  services?: BotService[];
}

/** A URL parameter of an integration, as the URL builder asks for it. */
export interface IntegrationUrlOption {
  key: string;
  label: string;
  input_type: string;
}

export interface IncomingIntegration {
  name: string;
  display_name: string;
  all_event_types: string[] | null;
  url_options?: IntegrationUrlOption[];
}

/** The bots the person administers (their own; every bot for administrators), by user ID. */
export const administeredBots = signal<Map<number, BotRecord>>(new Map());

export const incomingIntegrations = signal<IncomingIntegration[]>([]);

/** Takes this module's part of the register answer. */
export function applyBotRegister(answer: Record<string, unknown>): void {
  administeredBots.value = new Map(((answer.realm_bots as BotRecord[] | undefined) ?? []).map((bot) => [bot.user_id, bot]));
  incomingIntegrations.value = (answer.realm_incoming_webhook_bots as IncomingIntegration[] | undefined) ?? [];
}

/** Applies realm_bot events; the bot's account changes come as realm_user events to the people's list. */
export function applyBotEvent(event: Record<string, unknown>): void {
  if (event.type !== 'realm_bot') return;
  const bot = event.bot as BotRecord;
  updateMap(administeredBots, (copy) => {
    if (event.op === 'delete' || event.op === 'remove') copy.delete(bot.user_id);
    else copy.set(bot.user_id, { ...copy.get(bot.user_id), ...bot });
  });
}

/** The organization's address, as the server names it, for zuliprc files and webhook URLs. */
export function realmUrl(): string {
  return (realmSettings.value.realm_url as string | undefined) ?? location.origin;
}
