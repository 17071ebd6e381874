/**
 * Facts about conversations that code sending messages and code reading them (notices, emails,
 * outgoing webhooks) share; nothing here sends, so anything may import it.
 */
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';

/** Text as Zulip's narrow URLs write it: spaces as dashes, then percent-escapes with dots. */
export function narrowSlug(text: string): string {
  return encodeURIComponent(text.replace(/ /g, '-')).replace(/%/g, '.');
}

/** Everyone in a direct conversation, by the conversation's recipient. */
export function directParticipants(stoa: Stoa, recipientId: number): UserRow[] {
  const recipient = stoa.messages.recipient(recipientId)!;
  return stoa.messages.directGroupMembers(recipient.type_id).map((id) => stoa.users.byId(id)!);
}
