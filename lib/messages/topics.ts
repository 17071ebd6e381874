/** How the empty topic is shown to clients that cannot show it themselves. */
export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';

/** A topic as a client sees it: the empty topic under its display name unless the client handles it. */
export function displayTopic(topic: string, allowEmptyTopicName: boolean): string {
  return topic === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : topic;
}

/** The prefix that marks a topic as resolved. */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** Whether the topic change only marks the topic resolved or unresolved. */
export function resolutionChange(oldTopic: string, newTopic: string): 'resolved' | 'unresolved' | null {
  if (newTopic.startsWith(RESOLVED_TOPIC_PREFIX) && !oldTopic.startsWith(RESOLVED_TOPIC_PREFIX)) {
    return newTopic.slice(RESOLVED_TOPIC_PREFIX.length) === oldTopic ? 'resolved' : null;
  }
  if (oldTopic.startsWith(RESOLVED_TOPIC_PREFIX) && !newTopic.startsWith(RESOLVED_TOPIC_PREFIX)) {
    return oldTopic.replace(/^[✔\s]+/u, '') === newTopic ? 'unresolved' : null;
  }
  return null;
}
