/** Zulip's mark of a resolved topic, before its name. */
export const RESOLVED_PREFIX = '✔ ';

/** A topic's name without the resolved mark (and the spaces after it), as it was before being resolved. */
export function unresolvedTopic(topic: string): string {
  return topic.replace(/^[✔\s]+/u, '');
}
