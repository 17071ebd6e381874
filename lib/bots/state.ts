import type { StateContext } from '../events/state-context';
import { botsAdministeredBy, presentBot } from './present';

/** Register state for fetch type `realm_bot`: the bots the caller administers. */
export function realmBotsState({ stoa, user }: StateContext): Record<string, unknown> {
  return { realm_bots: botsAdministeredBy(stoa, user).map((bot) => presentBot(stoa, bot)) };
}

/** An option the person creating an incoming-webhook bot (or its URL) may set. */
interface WebhookOption {
  key: string;
  label: string;
  /** Renamed `input_type` for URL options at feature level 485, beyond the level Stoa claims. */
  validator: string;
}

/**
 * An incoming-webhook integration as register describes it (feature level 403): URL
 * parameters in `url_options`, bot-creation settings in `config_options`.
 */
interface IncomingWebhookIntegration {
  name: string;
  display_name: string;
  all_event_types: string[] | null;
  config_options: WebhookOption[];
  url_options: WebhookOption[];
}

/** Stoa receives no third-party incoming webhooks yet, so it offers none to configure. */
const INCOMING_WEBHOOK_INTEGRATIONS: readonly IncomingWebhookIntegration[] = [];

/** Register state for fetch type `realm_incoming_webhook_bots`. */
export function incomingWebhookBotsState(): Record<string, unknown> {
  return { realm_incoming_webhook_bots: [...INCOMING_WEBHOOK_INTEGRATIONS] };
}
