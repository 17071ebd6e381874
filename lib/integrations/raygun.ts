import { UnsupportedEvent } from './errors';
import { cTime, num, pythonStr, str } from './payload';
import type { Integration } from './types';

/** Raygun's error notifications (new, reoccurred, follow-ups) and activity on errors, all in one topic. */

type Payload = any;

function occurrences(error: Payload): string[] {
  const message = str(error, 'message');
  return [
    ...(message !== '' ? [`* **Message**: ${message}`] : []),
    `* **First occurred**: ${cTime(str(error, 'firstOccurredOn'))}`,
    `* **Last occurred**: ${cTime(str(error, 'lastOccurredOn'))}`,
    `* ${num(error, 'usersAffected')} users affected with ${num(error, 'totalOccurrences')} total occurrences`,
  ];
}

function application(p: Payload): string {
  return `* **Application details**: [${str(p.application, 'name')}](${str(p.application, 'url')})`;
}

/** A new or reoccurred error, with its instance's tags, user and custom data. */
function occurred(p: Payload, eventType: string): string[] {
  const error = p.error;
  const link = `[Error](${str(error, 'url')})`;
  const heading = eventType === 'NewErrorOccurred' ? `New ${link} occurred:` : `${link} reoccurred:`;
  const { tags, affectedUser, customData } = error.instance;
  const lines = [heading, ...occurrences(error)];
  if (tags !== null) lines.push(`* **Tags**: ${(tags as string[]).join(', ')}`);
  if (affectedUser !== null) {
    const uuid = str(affectedUser, 'UUID');
    lines.push(`* **Affected user**: ${uuid.slice(0, 6)}...${uuid.slice(-5)}`);
  }
  if (customData !== null) {
    for (const key of Object.keys(customData).sort()) lines.push(`* **${key}**: ${pythonStr(customData[key])}`);
  }
  return lines;
}

/** "OneMinuteFollowUp" → "One minute", "HourlyFollowUp" → "Hourly". */
function followUp(p: Payload, eventType: string): string[] {
  const prefix = eventType === 'HourlyFollowUp' ? 'Hourly' : `${eventType.slice(0, -'MinuteFollowUp'.length)} minute`;
  return [`${prefix} [follow-up error](${str(p.error, 'url')}):`, ...occurrences(p.error)];
}

function notification(p: Payload, eventType: string): string[] {
  if (eventType === 'NewErrorOccurred' || eventType === 'ErrorReoccurred') return [...occurred(p, eventType), application(p)];
  if (eventType.includes('FollowUp')) return [...followUp(p, eventType), application(p)];
  throw new UnsupportedEvent(eventType);
}

/** Someone changed an error's status, commented on it or assigned it. */
function activity(p: Payload, eventType: string): string[] {
  const error = p.error;
  const link = `[Error](${str(error, 'url')})`;
  const user = str(error, 'user');
  let heading: string;
  if (eventType === 'StatusChanged') heading = `${link} status changed to **${str(error, 'status')}** by ${user}:`;
  else if (eventType === 'CommentAdded') heading = `${user} commented on ${link}:\n\n\`\`\` quote\n${str(error, 'comment')}\n\`\`\``;
  else if (eventType === 'AssignedToUser') heading = `${user} assigned ${link} to ${str(error, 'assignedTo')}:`;
  else throw new UnsupportedEvent(eventType);
  return [heading, `* **Timestamp**: ${cTime(str(error, 'activityDate'))}`, application(p)];
}

const EVENTS: Record<string, (p: Payload, eventType: string) => string[]> = { error_notification: notification, error_activity: activity };

export const raygun: Integration = {
  name: 'raygun',
  displayName: 'Raygun',
  eventTypes: Object.keys(EVENTS),
  handle(request) {
    const p = request.json();
    const event = str(p, 'event');
    if (!Object.hasOwn(EVENTS, event)) throw new UnsupportedEvent(event);
    return { topic: 'test', content: EVENTS[event](p, str(p, 'eventType')).join('\n'), event };
  },
};
