import { ApiError, missingArgument } from '../http/errors';
import { list, str, truthy } from './payload';
import type { Integration } from './types';

/** Services that post to Slack's incoming webhooks (text, Block Kit blocks, legacy attachments). */
export const slackIncoming: Integration = {
  name: 'slack_incoming',
  displayName: 'SlackIncoming',
  menuName: 'Slack-compatible webhook',
  errorBody: ({ message }) => ({ ok: false, error: message }),
  handle(request) {
    const contentType = (request.header('content-type') ?? '').split(';')[0].trim();
    let text: string;
    if (contentType === 'application/json') text = request.raw;
    else {
      const given = request.param('payload');
      if (given === undefined) throw missingArgument('payload');
      text = given;
    }
    let payload: any;
    try {
      payload = JSON.parse(text);
    } catch {
      throw new ApiError('BAD_REQUEST', 'payload is not valid JSON', 400);
    }
    let topic = request.param('topic');
    if (topic === undefined && payload !== null && typeof payload === 'object' && 'channel' in payload) {
      topic = str(payload, 'channel').replace(/^[@#]/, '');
    }
    topic ??= '(no topic)';
    const pieces: string[] = [];
    if (truthy(payload.blocks)) pieces.push(...list(payload, 'blocks').map(renderBlock));
    if (truthy(payload.attachments)) pieces.push(...list(payload, 'attachments').map(renderAttachment));
    let body = joinPieces(pieces);
    if (body === '' && truthy(payload.text)) {
      if (truthy(payload.icon_emoji)) body = `${str(payload, 'icon_emoji')} `;
      body = (body + str(payload, 'text')).trim();
    }
    const messages = body === '' ? [] : [{ topic, content: slackToMarkdown(body) }];
    return { messages, response: { ok: true } };
  },
};

/** Pieces of a message, trimmed, empty ones left out, a blank line between. */
function joinPieces(pieces: readonly string[]): string {
  return pieces
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
    .join('\n\n');
}

/** Slack's <url|label> links and *bold* / _italic_ marks in Zulip's Markdown. */
export function slackToMarkdown(text: string): string {
  const linked = text.replace(/<(\w+?:\/\/.*?)\|(.*?)>/g, '[$2]($1)').trim();
  return linked
    .replace(/(\W|^)\*(?!\s+)([^*\n]+)(?<!\s)\*((?=\W)|$)/g, '$1**$2**$3')
    .replace(/(\W|^)_(?!\s+)([^_\n]+)(?<!\s)_((?=\W)|$)/g, '$1*$2*$3');
}

function textOf(block: any): string {
  return str(block, 'text');
}

function renderElement(element: any): string {
  return str(element, 'type') === 'image' ? `[${str(element, 'alt_text')}](${str(element, 'image_url')})` : '';
}

function renderBlock(block: any): string {
  const type = str(block, 'type');
  if (type === 'context' && truthy(block.elements)) {
    return joinPieces(list(block, 'elements').map((element) => (str(element, 'type') === 'image' ? renderElement(element) : textOf(element))));
  }
  if (type === 'divider') return '----';
  if (type === 'header') return `## ${textOf(block.text)}`;
  if (type === 'image') {
    const alt = 'title' in block ? textOf(block.title) : str(block, 'alt_text');
    return `[${alt}](${str(block, 'image_url')})`;
  }
  if (type === 'section') {
    const pieces: string[] = [];
    if ('text' in block) pieces.push(textOf(block.text));
    if ('accessory' in block) pieces.push(renderElement(block.accessory));
    if ('fields' in block) {
      const fields = list(block, 'fields').map(textOf);
      if (fields.length === 1) pieces.push(fields[0]);
      else {
        // Slack shows fields in two columns; a table without a header row does the same.
        const cells = fields.map((f) => f.replace(/\n/g, ' ').replace(/\|/g, ' '));
        let table = '| | |\n|-|-|\n';
        for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i]} | ${cells[i + 1] ?? ''} |\n`;
        pieces.push(table);
      }
    }
    return joinPieces(pieces);
  }
  return '';
}

function renderAttachment(attachment: any): string {
  const pieces: string[] = [];
  if (truthy(attachment.title)) {
    const title = str(attachment, 'title');
    pieces.push(truthy(attachment.title_link) ? `## [${title}](${str(attachment, 'title_link')})` : `## ${title}`);
  }
  if (truthy(attachment.pretext)) pieces.push(str(attachment, 'pretext'));
  if (truthy(attachment.text)) pieces.push(str(attachment, 'text'));
  if ('fields' in attachment) {
    const lines: string[] = [];
    for (const field of list(attachment, 'fields')) {
      if (truthy(field.title) && truthy(field.value)) lines.push(`*${field.title}*: ${field.value}`);
      else if (truthy(field.title)) lines.push(`*${field.title}*`);
      else if (truthy(field.value)) lines.push(`${field.value}`);
    }
    pieces.push(lines.join('\n'));
  }
  if (truthy(attachment.blocks)) pieces.push(...list(attachment, 'blocks').map(renderBlock));
  if (truthy(attachment.image_url)) pieces.push(`[](${str(attachment, 'image_url')})`);
  if (truthy(attachment.footer)) pieces.push(str(attachment, 'footer'));
  if (truthy(attachment.ts)) pieces.push(`<time:${attachment.ts}>`);
  return joinPieces(pieces);
}
