import { sendEvent, write } from '../events/send';
import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { accessMessage, messageAudience } from './access';
import type { MessageRow } from './queries';
import { checkWidgetEvent, isCheckedWidgetType, parseJson, WIDGET_MSG_TYPE, widgetTypeOf } from './widgets';

/**
 * Stores a submessage and tells everyone who may read the message. Zulip tells only those
 * with the message in their history; we also tell the subscribers of a channel that shares
 * its history (as for reactions) and the poster, so a vote cast on a message read from a
 * channel's history shows up for the voter and everyone else reading it.
 */
export function addSubmessage(stoa: Stoa, sender: UserRow, row: MessageRow, msgType: string, content: string): number {
  return write(stoa, () => {
    const id = stoa.messages.insertSubmessage({ message_id: row.id, sender_id: sender.id, msg_type: msgType, content });
    const audience = messageAudience(stoa, row);
    audience.add(sender.id);
    sendEvent(
      stoa,
      { type: 'submessage', msg_type: msgType, message_id: row.id, submessage_id: id, sender_id: sender.id, content },
      audience,
    );
    return id;
  });
}

interface SubmessageParams {
  message_id: number;
  msg_type: string;
  content: string;
}

/**
 * POST /submessage. Anyone who may read the message may add to it, but the message's sender
 * has to start: until they have a submessage on it (which sending a widget gives them), no one
 * else may attach one. On a poll or to-do list, the content must be one of that widget's events.
 */
export const submessageView = endpoint<SubmessageParams>({
  params: {
    properties: {
      message_id: { type: 'integer' },
      msg_type: { type: 'string', enum: [WIDGET_MSG_TYPE] },
      content: { type: 'string' },
    },
    required: ['message_id', 'msg_type', 'content'],
  },
  view: ({ stoa, user, params }) => {
    const { row } = accessMessage(stoa, user, params.message_id, { modifying: true });
    const byAuthor = row.sender_id === user.id;
    if (!byAuthor && !stoa.messages.hasSubmessageFrom(row.id, row.sender_id)) {
      throw badRequest('You cannot attach a submessage to this message.');
    }
    let data: unknown;
    try {
      data = parseJson(params.content);
    } catch {
      throw badRequest('Invalid json for submessage');
    }
    const widgetType = widgetTypeOf(stoa.messages.firstSubmessageOfType(row.id, WIDGET_MSG_TYPE));
    if (isCheckedWidgetType(widgetType)) checkWidgetEvent(widgetType, data, byAuthor);
    addSubmessage(stoa, user, row, params.msg_type, params.content);
    return {};
  },
});
