/** How the empty topic is shown to clients that cannot show it themselves. */
export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';

/** A topic as a client sees it: the empty topic under its display name unless the client handles it. */
export function displayTopic(topic: string, allowEmptyTopicName: boolean): string {
  return topic === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : topic;
}

/** The prefix that marks a topic as resolved. */
export const RESOLVED_TOPIC_PREFIX = '✔ ';
