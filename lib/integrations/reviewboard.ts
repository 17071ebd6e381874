import { UnsupportedEvent } from './errors';
import { num, str } from './payload';
import type { Integration } from './types';

/** Review Board's review requests, reviews and replies (named by X-ReviewBoard-Event), in the repository's topic. */

type Payload = any;

/** "**a**", "**a**, and **b**", "**a**, **b**, and **c**". */
function targetPeople(request: Payload): string {
  const titles: string[] = request.target_people.map((person: Payload) => `**${str(person, 'title')}**`);
  return titles.length === 1 ? titles[0] : `${titles.slice(0, -1).map((title) => `${title}, `).join('')}and ${titles.at(-1)}`;
}

const requestLink = (request: Payload, url: string) => `[#${num(request, 'id')}: ${str(request, 'summary')}](${url})`;

/** A review request opened, reopened or closed, with its details quoted; `extra` lines go before the branch. */
function requestChanged(action: string, userOf: (p: Payload) => string, extra: (p: Payload) => string[] = () => []) {
  return (p: Payload): string => {
    const request = p.review_request;
    const branch: string | null = request.branch ?? null;
    const extraLines = [...extra(p), ...(branch ? [`**Branch**: ${branch}`] : [])];
    return (
      `**${userOf(p)}** ${action} ${requestLink(request, str(request, 'absolute_url'))}:\n\n` +
      `\`\`\` quote\n**Description**: ${str(request, 'description')}\n**Status**: ${str(request, 'status')}\n` +
      `**Target people**: ${targetPeople(request)}\n${extraLines.join('\n')}\n\`\`\``
    );
  };
}

function reviewPublished(p: Payload): string {
  const request = p.review_request;
  return (
    `**${str(p.review.links.user, 'title')}** [reviewed](${str(p.review, 'absolute_url')}) ${requestLink(request, str(request, 'absolute_url'))}:\n\n` +
    `**Review**:\n\`\`\` quote\n${str(p.review, 'body_top')}\n\`\`\``
  );
}

function replyPublished(p: Payload): string {
  const request = p.review_request;
  return (
    `**${str(p.reply.links.user, 'title')}** [replied](${str(p.reply.links.self, 'href')}) to ${requestLink(request, str(request.links.self, 'href'))}:\n\n` +
    `**Reply**:\n\`\`\` quote\n${str(p.reply, 'body_top')}\n\`\`\``
  );
}

const EVENTS: Record<string, (p: Payload) => string> = {
  review_request_published: requestChanged('opened', (p) => str(p.review_request.links.submitter, 'title')),
  review_request_reopened: requestChanged('reopened', (p) => str(p.reopened_by, 'username')),
  review_request_closed: requestChanged('closed', (p) => str(p.closed_by, 'username'), (p) => [`**Close type**: ${str(p, 'close_type')}`]),
  review_published: reviewPublished,
  reply_published: replyPublished,
};

export const reviewboard: Integration = {
  name: 'reviewboard',
  displayName: 'ReviewBoard',
  menuName: 'Review Board',
  eventTypes: Object.keys(EVENTS),
  handle(request) {
    const event = request.requireHeader('X-ReviewBoard-Event', 'Review Board');
    if (!Object.hasOwn(EVENTS, event)) throw new UnsupportedEvent(event);
    const p = request.json();
    const content = EVENTS[event](p);
    return { topic: str(p.review_request.links.repository, 'title'), content, event };
  },
};
