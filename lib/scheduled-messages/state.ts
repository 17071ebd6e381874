import type { StateContext } from '../events/state-context';
import { presentScheduledMessage } from './present';

/** Register state for fetch type `scheduled_messages`: the user's messages not yet sent, soonest first. */
export function scheduledMessagesState({ stoa, user }: StateContext): Record<string, unknown> {
  return { scheduled_messages: stoa.scheduledMessages.pendingOf(user.id).map(presentScheduledMessage) };
}
