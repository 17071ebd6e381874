import { JsonText } from '../http/json';
import type { StateContext } from '../events/state-context';
import { INTEGRATIONS } from '../integrations/table';
import { botsAdministeredBy, presentBot } from './present';

/** Register state for fetch type `realm_bot`: the bots the caller administers. */
export function realmBotsState({ stoa, user }: StateContext): Record<string, unknown> {
  return { realm_bots: botsAdministeredBy(stoa, user).map((bot) => presentBot(stoa, bot)) };
}

/**
 * The incoming-webhook integrations as register describes them (Zulip 12, feature level 485):
 * one entry per integration of the table (its aliases are the same integration), with the
 * events it can filter on and its own URL parameters (`url_options`, each with its
 * `input_type`). No integration takes settings at bot creation, so `config_options` is empty.
 */
export function incomingWebhookBotsState(): Record<string, unknown> {
  return { realm_incoming_webhook_bots: (incomingWebhookBots ??= new JsonText(JSON.stringify(describeIncomingWebhookBots()))) };
}

/** The list never changes while the server runs: it is serialized once (14 KB). */
let incomingWebhookBots: JsonText | undefined;

function describeIncomingWebhookBots() {
  const integrations = [...new Set(INTEGRATIONS.values())].sort((a, b) => a.name.localeCompare(b.name));
  return integrations.map((integration) => ({
    name: integration.name,
    display_name: integration.menuName ?? integration.displayName,
    all_event_types: integration.eventTypes ? [...integration.eventTypes] : null,
    config_options: [],
    url_options: (integration.urlOptions ?? []).map((option) => ({ key: option.key, label: option.label, input_type: option.inputType })),
  }));
}
