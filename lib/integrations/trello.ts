import { UnsupportedEvent } from './errors';
import { pythonStr, truthy } from './payload';
import type { Integration } from './types';

/**
 * Trello's board webhooks: what happened to a card or to the board, said by the person who did
 * it, in a topic named after the board. Trello checks the URL with a HEAD request first.
 */

type Payload = any;
/** One kind of change: its text after the person's name. */
type Describe = (data: Payload, action: Payload) => string;

const cardLink = (data: Payload) => `[${data.card.name}](https://trello.com/c/${data.card.shortLink})`;
const boardLink = (data: Payload) => `[${data.board.name}](https://trello.com/b/${data.board.shortLink})`;
const prettyDate = (date: string) => date.replace('T', ' ').replace('.000', '').replace('Z', ' UTC');

const CARD_CHANGES: Record<string, Describe> = {
  createCard: (d) => `created ${cardLink(d)}.`,
  changeList: (d) => `moved ${cardLink(d)} from ${d.listBefore.name} to ${d.listAfter.name}.`,
  changeName: (d) => `renamed the card from "${d.old.name}" to ${cardLink(d)}.`,
  setDesc: (d) => `set description for ${cardLink(d)} to:\n~~~ quote\n${d.card.desc}\n~~~\n`,
  changeDesc: (d) => `changed description for ${cardLink(d)} from\n~~~ quote\n${d.old.desc}\n~~~\nto\n~~~ quote\n${d.card.desc}\n~~~\n`,
  removeDesc: (d) => `removed description from ${cardLink(d)}.`,
  archiveCard: (d) => `archived ${cardLink(d)}.`,
  reopenCard: (d) => `reopened ${cardLink(d)}.`,
  setDueDate: (d) => `set due date for ${cardLink(d)} to ${prettyDate(d.card.due)}.`,
  changeDueDate: (d) => `changed due date for ${cardLink(d)} from ${prettyDate(d.old.due)} to ${prettyDate(d.card.due)}.`,
  removeDueDate: (d) => `removed the due date from ${cardLink(d)}.`,
  addLabelToCard: (d) => `added a ${d.value} label with "${d.text}" to ${cardLink(d)}.`,
  removeLabelFromCard: (d) => `removed a ${d.value} label with "${d.text}" from ${cardLink(d)}.`,
  addMemberToCard: (d, a) => `added ${a.member.fullName} to ${cardLink(d)}.`,
  removeMemberFromCard: (d, a) => `removed ${a.member.fullName} from ${cardLink(d)}.`,
  addAttachmentToCard: (d) => `added [${d.attachment.name}](${d.attachment.url}) to ${cardLink(d)}.`,
  addChecklistToCard: (d) => `added the ${d.checklist.name} checklist to ${cardLink(d)}.`,
  commentCard: (d) => `commented on ${cardLink(d)}:\n~~~ quote\n${d.text}\n~~~\n`,
  updateCheckItemStateOnCard: (d) =>
    `${d.checkItem.state === 'complete' ? 'checked' : 'unchecked'} **${d.checkItem.name}** in **${d.checklist.name}** (${cardLink(d)}).`,
};

const CARD_ACTIONS = new Set([
  'updateCard',
  'createCard',
  'addLabelToCard',
  'removeLabelFromCard',
  'addMemberToCard',
  'removeMemberFromCard',
  'addAttachmentToCard',
  'addChecklistToCard',
  'commentCard',
  'updateCheckItemStateOnCard',
]);
const IGNORED_CARD_ACTIONS = new Set(['copyCard', 'createCheckItem', 'updateCheckItem', 'updateList']);
/** Card updates not worth a message: moves within a list, covers. */
const IGNORED_CARD_FIELDS = ['cover', 'dueComplete', 'idAttachmentCover', 'pos'];

const BOARD_CHANGES: Record<string, Describe> = {
  removeMemberFromBoard: (d, a) => `removed ${a.member.fullName} from ${boardLink(d)}.`,
  addMemberToBoard: (d, a) => `added ${a.member.fullName} to ${boardLink(d)}.`,
  createList: (d) => `added ${d.list.name} list to ${boardLink(d)}.`,
  changeName: (d) => `renamed the board from ${d.old.name} to ${boardLink(d)}.`,
};

/** Which change an updateCard action reports, or null for one not worth a message. */
function cardUpdate(data: Payload): string | null {
  const old = data.old;
  const card = data.card;
  if (truthy(data.listBefore)) return 'changeList';
  if (truthy(old.name)) return 'changeName';
  if (old.desc === '') return 'setDesc';
  if (truthy(old.desc)) return card.desc === '' ? 'removeDesc' : 'changeDesc';
  if ('due' in old && old.due === null) return 'setDueDate';
  if (truthy(old.due)) return 'due' in card && card.due === null ? 'removeDueDate' : 'changeDueDate';
  if (old.closed === false && card.closed) return 'archiveCard';
  if (truthy(old.closed) && card.closed === false) return 'reopenCard';
  if (IGNORED_CARD_FIELDS.some((field) => field in old)) return null;
  throw new UnsupportedEvent('updateCard');
}

/** Which change an updateBoard action reports: only renames (not new backgrounds). */
function boardUpdate(data: Payload): string | null {
  if (data.old.prefs && 'background' in data.old.prefs) return null;
  if (truthy(data.old.name)) return 'changeName';
  throw new UnsupportedEvent('updateBoard');
}

export const trello: Integration = {
  name: 'trello',
  displayName: 'Trello',
  otherMethods: ['HEAD'],
  handle(request) {
    if (request.method === 'HEAD') return null;
    const action = request.json().action;
    const type: string = action.type;
    const data = action.data;
    let describe: Describe;
    if (CARD_ACTIONS.has(type)) {
      const change = type === 'updateCard' ? cardUpdate(data) : type;
      if (change === null) return null;
      describe = CARD_CHANGES[change];
    } else if (IGNORED_CARD_ACTIONS.has(type)) return null;
    else if (type in BOARD_CHANGES || type === 'updateBoard') {
      const change = type === 'updateBoard' ? boardUpdate(data) : type;
      if (change === null) return null;
      describe = BOARD_CHANGES[change];
    } else throw new UnsupportedEvent(type);
    return { topic: data.board.name, content: `${pythonStr(action.memberCreator.fullName)} ${describe(data, action)}` };
  },
};
