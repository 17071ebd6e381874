import type { Integration } from './types';

/** Wekan's outgoing webhooks: a sentence whose last line is the link to the card. */
export const wekan: Integration = {
  name: 'wekan',
  displayName: 'Wekan',
  handle(request) {
    const text: string = request.json().text;
    const url = text.split('\n').at(-1)!;
    const sentence = text.replaceAll(url, '').replaceAll('\n', '');
    return { topic: 'Wekan Notification', content: `${sentence}.\n\n[See in Wekan](${url})` };
  },
};
