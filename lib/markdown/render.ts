import type { Renderer, StateBlock, StateCore, StateInline, Token } from 'markdown-it';
import { EMOTICONS, emojiCodeByName, emojiCodeForText, emojiNameByCode, ZULIP_EXTRA_EMOJI } from './emoji';
import { findLinks, mayHoldLink } from './autolink';
import { highlightCode } from './highlight';
import { codeLanguage } from './languages';
import { compileLinkifiers, type CompiledLinkifier } from './linkifiers';
import { flatString } from '../flat-string';

export interface MarkdownUser {
  id: number;
  fullName: string;
}

/** What the renderer may look up about the realm while rendering one message. */
export interface MarkdownContext {
  /** Active users and bots that may be mentioned, by full name compared case-insensitively;
   *  several when names collide (then only @**Name|id** picks one). */
  usersByName(name: string): ReadonlyArray<MarkdownUser>;
  userById(id: number): MarkdownUser | null;
  /** An active (not deactivated) user group by exact name; displayName is what a silent
   *  mention shows when it is not the name (system groups show "Administrators", not "role:administrators"). */
  groupByName(name: string): { id: number; name: string; displayName?: string } | null;
  /** A channel by name, case-insensitively (archived ones too). */
  channelByName(name: string): { id: number; name: string } | null;
  /** Custom (realm) emoji by name. */
  realmEmoji(name: string): { id: string; name: string; url: string; stillUrl: string | null } | null;
  /** Realm linkifiers in order (pattern is Zulip's regex syntax, url_template an RFC 6570 template). */
  linkifiers: ReadonlyArray<{ id: number; pattern: string; url_template: string }>;
  /** Candidate alert words (lowercase) of everyone who may receive the message. */
  alertWords: ReadonlyArray<string>;
  /** The server's base URL, e.g. http://127.0.0.1:9991, for deciding which links are internal. */
  realmUrl: string;
  /** The message a #**channel>topic** link goes "with", so it follows the topic when moved:
   *  the oldest message in the topic the sender can read, or null when there is none. */
  topicLinkMessageId?(channelId: number, topic: string): number | null;
  /** realm_empty_topic_display_name; "general chat" when not given. */
  emptyTopicDisplayName?: string;
  /**
   * An uploaded image by path ID, for its preview; null for any other file, for none, and
   * whenever the organization turns inline_image_preview off.
   */
  uploadedImage?(pathId: string): UploadedImage | null;
  /** The organization's default language for fenced code that names none ('' for none). */
  defaultCodeLanguage?(): string;
  /** Whether an upload, by path ID, is a sound a browser plays (Zulip's audio types). */
  uploadedAudio?(pathId: string): boolean;
}

export interface UploadedImage {
  width: number;
  height: number;
  contentType: string;
  animated: boolean;
  /** The thumbnail's URL, which the preview shows in place of the original. */
  thumbnailUrl: string;
}

export interface RenderOptions {
  /** The sender's translate_emoticons setting: ":)" becomes :smile: and so on. */
  translateEmoticons?: boolean;
}

export interface RenderedMarkdown {
  html: string;
  /** Non-silent user mentions, by name or by id. */
  mentionedUserIds: Set<number>;
  /** Non-silent user group mentions. */
  mentionedGroupIds: Set<number>;
  /** @**all**, @**everyone**, @**channel** or @**stream**, not silent. */
  mentionsChannelWildcard: boolean;
  /** @**topic**, not silent. */
  mentionsTopicWildcard: boolean;
  /** A "/me ..." status message. */
  isMeMessage: boolean;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /** The path IDs of the uploads the message links (/user_uploads/...), decoded. */
  uploadPathIds: Set<string>;
  /** Which of the context's alert words occur, as whole words. */
  alertWordsFound: Set<string>;
}

/** Escapes text for HTML, so no input can inject markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Text between tags needs only these three escaped (quotes stay as typed, as Zulip renders them). */
function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

/** Attribute values are always double-quoted, so quotes must be escaped too. */
function escapeAttribute(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

interface RenderEnv {
  context: MarkdownContext;
  options: RenderOptions;
  linkifiers: CompiledLinkifier[];
  result: RenderedMarkdown;
  /** Image previews waiting for the end of the top-level block their links are in. */
  previews: string[];
  /** How many quote and spoiler blocks enclose what is being rendered. */
  depth: number;
}

/**
 * Quote and spoiler blocks render their content as Markdown of its own, so each level parses
 * what it holds again. Deeper blocks show their content as code: nobody reads a quote twenty
 * deep, and without a bound a message of nested fences costs time quadratic in its length
 * and a stack frame per level.
 */
const MAX_FENCE_DEPTH = 16;

const WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);
/** Mentions start a word: Zulip looks for one of these (or the start) just before the "@". */
const MENTION_MAY_FOLLOW = /[\s'"({[/<]/;

/** Zulip's hash encoding for narrow URLs: percent-encoding with "." standing in for "%". */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');
}

function channelNarrow(channel: { id: number; name: string }): string {
  return `/#narrow/channel/${channel.id}-${encodeHashComponent(channel.name.replace(/ /g, '-'))}`;
}

function emojiSpan(code: string, name: string): string {
  const label = escapeAttribute(name.replace(/_/g, ' '));
  return `<span aria-label="${label}" class="emoji emoji-${code}" role="img" title="${label}">:${escapeText(name)}:</span>`;
}

/** An emoji by name as Zulip renders it: realm emoji first, then Unicode, then Zulip's own; null if none. */
function emojiByName(name: string, context: MarkdownContext): string | null {
  const realm = context.realmEmoji(name);
  if (realm) {
    const title = escapeAttribute(name.replace(/_/g, ' '));
    return `<img alt=":${escapeAttribute(name)}:" class="emoji" src="${escapeAttribute(realm.url)}" title="${title}">`;
  }
  const code = emojiCodeByName(name);
  if (code) return emojiSpan(code, name);
  if (name === ZULIP_EXTRA_EMOJI.name) {
    return `<img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip">`;
  }
  return null;
}

/** Inline syntax, each matched where the parser stands (sticky), never reading past the end of its span. */
const MENTION = /@(_?)(\*\*([^*]+)\*\*|\*([^*]+)\*)/y;
const CHANNEL_LINK = /#\*\*([^*>]+)(?:>([^*]*))?\*\*/y;
const EMOJI_NAME = /:([\w+-]+):/y;
const INLINE_MATH = /\$\$([^\n_$](?:\\\$|[^\n$])*)\$\$(?!\$)/y;
// Bounded, so a message of unclosed "<time:" does not scan to its end from each of them.
const GLOBAL_TIME = /<time:([^>]{1,200})>/y;

function matchAt(pattern: RegExp, state: StateInline): RegExpExecArray | null {
  pattern.lastIndex = state.pos;
  const match = pattern.exec(state.src);
  return match && state.pos + match[0].length <= state.posMax ? match : null;
}

function pushHtml(state: StateInline, html: string): void {
  const token = state.push('zulip_html', '', 0);
  token.content = html;
}

function envOf(state: { env: unknown }): RenderEnv {
  return state.env as RenderEnv;
}

/** @**Name**, @**Name|id**, @_**Name** (silent), wildcards, @*group* and @_*group*. */
function mentionRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x40 /* @ */) return false;
  if (pos > 0 && !MENTION_MAY_FOLLOW.test(src[pos - 1])) return false;
  const match = matchAt(MENTION, state);
  if (!match) return false;
  const isSilent = match[1] === '_';
  const env = envOf(state);
  let html: string | null = null;
  if (match[3] !== undefined) html = userMention(match[3], isSilent, env);
  else html = groupMention(match[4], isSilent, env);
  if (html === null) return false;
  if (!silent) pushHtml(state, html);
  state.pos += match[0].length;
  return true;
}

function userMention(text: string, isSilent: boolean, env: RenderEnv): string | null {
  const { context, result } = env;
  const prefix = isSilent ? '' : '@';
  const silentClass = isSilent ? ' silent' : '';
  if (WILDCARDS.has(text)) {
    if (!isSilent) result.mentionsChannelWildcard = true;
    return `<span class="user-mention channel-wildcard-mention${silentClass}" data-user-id="*">${prefix}${text}</span>`;
  }
  if (text === 'topic') {
    if (!isSilent) result.mentionsTopicWildcard = true;
    return `<span class="topic-mention${silentClass}">${prefix}topic</span>`;
  }
  let user: MarkdownUser | null = null;
  const withId = /^(.*)\|(\d+)$/.exec(text);
  if (withId) {
    user = context.userById(Number(withId[2]));
    if (user && withId[1] !== '' && user.fullName.toLowerCase() !== withId[1].toLowerCase()) user = null;
  } else {
    const candidates = context.usersByName(text);
    if (candidates.length === 1) user = candidates[0];
  }
  if (!user) return null;
  if (!isSilent) result.mentionedUserIds.add(user.id);
  return `<span class="user-mention${silentClass}" data-user-id="${user.id}">${prefix}${escapeText(user.fullName)}</span>`;
}

function groupMention(name: string, isSilent: boolean, env: RenderEnv): string | null {
  const group = env.context.groupByName(name);
  if (!group) return null;
  if (!isSilent) env.result.mentionedGroupIds.add(group.id);
  const silentClass = isSilent ? ' silent' : '';
  const prefix = isSilent ? '' : '@';
  const shown = isSilent ? (group.displayName ?? group.name) : group.name;
  return `<span class="user-group-mention${silentClass}" data-user-group-id="${group.id}">${prefix}${escapeText(shown)}</span>`;
}

/** #**channel**, #**channel>topic** and #**channel>topic@message_id**. */
function channelLinkRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x23 /* # */) return false;
  const match = matchAt(CHANNEL_LINK, state);
  if (!match) return false;
  const { context } = envOf(state);
  const channel = context.channelByName(match[1]);
  if (!channel) return false;
  if (!silent) pushHtml(state, channelLink(channel, match[2], context));
  state.pos += match[0].length;
  return true;
}

function channelLink(channel: { id: number; name: string }, topicAndMessage: string | undefined, context: MarkdownContext): string {
  const channelText = `#${escapeText(channel.name)}`;
  if (topicAndMessage === undefined) {
    return `<a class="stream" data-stream-id="${channel.id}" href="${escapeAttribute(channelNarrow(channel))}">${channelText}</a>`;
  }
  const messageLink = /^(.*)@(\d+)$/s.exec(topicAndMessage);
  const topic = messageLink ? messageLink[1] : topicAndMessage;
  // The empty topic shows as the realm's name for it, set apart in italics.
  const topicText = topic === '' ? `<em>${escapeText(context.emptyTopicDisplayName ?? 'general chat')}</em>` : escapeText(topic);
  const topicNarrow = `${channelNarrow(channel)}/topic/${encodeHashComponent(topic)}`;
  if (messageLink) {
    const href = `${topicNarrow}/near/${messageLink[2]}`;
    return `<a class="message-link" href="${escapeAttribute(href)}">${channelText} &gt; ${topicText} @ 💬</a>`;
  }
  // Links to a topic with messages follow the topic wherever it moves, through one of its messages.
  const withId = context.topicLinkMessageId?.(channel.id, topic) ?? null;
  const href = withId === null ? topicNarrow : `${topicNarrow}/with/${withId}`;
  return `<a class="stream-topic" data-stream-id="${channel.id}" href="${escapeAttribute(href)}">${channelText} &gt; ${topicText}</a>`;
}

/** :name: emoji. */
function emojiNameRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x3a /* : */) return false;
  const match = matchAt(EMOJI_NAME, state);
  if (!match) return false;
  const html = emojiByName(match[1], envOf(state).context);
  if (html === null) return false;
  if (!silent) pushHtml(state, html);
  state.pos += match[0].length;
  return true;
}

/**
 * KaTeX is loaded on the first formula: evaluating it builds large symbol tables, which
 * would cost every start (time and memory) though most servers rarely see math.
 */
let katexModule: typeof import('katex') | undefined;
const katex = () => (katexModule ??= require('katex') as typeof import('katex'));

/** KaTeX takes a millisecond or so per formula, and the same formulas come back (quotes, edits). */
const renderedTex = new Map<string, string | null>();
const RENDERED_TEX_KEPT = 500;
/** A long formula renders to a lot of HTML, so the cache is bounded by size as well as count. */
const RENDERED_TEX_CHARS_KEPT = 2_000_000;
let renderedTexChars = 0;
const texChars = (key: string, html: string | null) => key.length + (html?.length ?? 0);

/** What the formula cache holds, for tests of its bounds. */
export function renderedTexCacheSize(): { entries: number; chars: number } {
  return { entries: renderedTex.size, chars: renderedTexChars };
}

/** Empties the formula cache (when the server goes quiet, see memory/idle-release.ts); returns how many formulas it held. */
export function clearRenderedTexCache(): number {
  const entries = renderedTex.size;
  renderedTex.clear();
  renderedTexChars = 0;
  return entries;
}

function renderTex(tex: string, displayMode: boolean): string | null {
  const key = (displayMode ? 'D' : 'I') + tex;
  const known = renderedTex.get(key);
  if (known !== undefined) return known;
  let html: string | null;
  try {
    // Kept flat: KaTeX joins its HTML from thousands of pieces, which as V8's lazy joins took
    // more memory than the characters themselves.
    html = flatString(katex().renderToString(tex, { displayMode, throwOnError: true, strict: 'ignore', trust: false }));
  } catch {
    html = null;
  }
  renderedTexChars += texChars(key, html);
  while (renderedTex.size > 0 && (renderedTex.size >= RENDERED_TEX_KEPT || renderedTexChars > RENDERED_TEX_CHARS_KEPT)) {
    const [oldest, oldHtml] = renderedTex.entries().next().value!;
    renderedTex.delete(oldest);
    renderedTexChars -= texChars(oldest, oldHtml);
  }
  renderedTex.set(key, html);
  return html;
}

/** $$inline math$$; a lone "$$$" is money talk, not math. */
function inlineMathRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x24 /* $ */ || src.charCodeAt(pos + 1) !== 0x24) return false;
  if (pos > 0 && src[pos - 1] === '$') return false;
  const match = matchAt(INLINE_MATH, state);
  if (!match) return false;
  if (!silent) {
    const rendered = renderTex(match[1], false);
    pushHtml(state, rendered ?? `<span class="tex-error">${escapeText(match[0])}</span>`);
  }
  state.pos += match[0].length;
  return true;
}

/** <time:...> global times. */
function timeRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x3c /* < */) return false;
  const match = matchAt(GLOBAL_TIME, state);
  if (!match) return false;
  if (!silent) {
    const when = parseGlobalTime(match[1]);
    // Since Zulip 12 (feature level 451) a time that is not one shows as the text typed.
    pushHtml(state, when === null ? escapeText(match[0]) : `<time datetime="${when}">${escapeText(match[1])}</time>`);
  }
  state.pos += match[0].length;
  return true;
}

const LATEST_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/** Time zone abbreviations people write after a time, as UTC offsets (IST is India's, as in Zulip). */
const ZONE_ABBREVIATIONS: Record<string, string> = {
  UTC: '+0000', GMT: '+0000', WET: '+0000', WEST: '+0100', BST: '+0100', CET: '+0100', CEST: '+0200',
  EET: '+0200', EEST: '+0300', MSK: '+0300', IST: '+0530', PKT: '+0500', ICT: '+0700', WIB: '+0700',
  SGT: '+0800', HKT: '+0800', AWST: '+0800', JST: '+0900', KST: '+0900', ACST: '+0930', AEST: '+1000',
  AEDT: '+1100', NZST: '+1200', NZDT: '+1300', SAST: '+0200', CAT: '+0200', EAT: '+0300', WAT: '+0100',
  HST: '-1000', AKST: '-0900', AKDT: '-0800', PST: '-0800', PDT: '-0700', MST: '-0700', MDT: '-0600',
  CST: '-0600', CDT: '-0500', EST: '-0500', EDT: '-0400', AST: '-0400', NST: '-0330', BRT: '-0300', ART: '-0300',
};

/** An ISO 8601 UTC time without fractions, or null when the text is not a time. */
export function parseGlobalTime(text: string): string | null {
  const value = text.trim();
  let ms: number;
  if (/^-?\d+(\.\d+)?$/.test(value)) {
    ms = Number(value) * 1000;
  } else {
    const iso = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(value);
    if (iso) {
      const offset = iso[3];
      if (offset && offset.toUpperCase() !== 'Z' && Math.abs(parseInt(offset.slice(0, 3), 10)) >= 24) return null;
      const zone = !offset || offset.toUpperCase() === 'Z' ? 'Z' : offset.length === 3 ? `${offset}:00` : offset.includes(':') ? offset : `${offset.slice(0, 3)}:${offset.slice(3)}`;
      ms = Date.parse(`${iso[1]}T${iso[2] ?? '00:00'}${zone}`);
    } else if (/[a-z]{3}/i.test(value)) {
      // Written dates ("Jun 5th 2017, 10:30PM"): without a zone they are UTC, as in Zulip.
      const cleaned = value
        .replace(/(\d)(st|nd|rd|th)\b/gi, '$1')
        .replace(/,/g, ' ')
        .replace(/(\d)(am|pm)\b/gi, '$1 $2');
      const zone = /\s([A-Z]{2,5})$/.exec(cleaned);
      const offset = zone ? ZONE_ABBREVIATIONS[zone[1]] : undefined;
      const hasZone = /\b(UTC|GMT|Z)\b|[+-]\d{2}:?\d{2}$/i.test(cleaned);
      ms = Date.parse(offset !== undefined ? `${cleaned.slice(0, zone!.index)} GMT${offset}` : hasZone ? cleaned : `${cleaned} UTC`);
    } else {
      return null;
    }
  }
  if (!Number.isFinite(ms) || Math.abs(ms) > LATEST_TIME_MS) return null;
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Zulip has no underscore emphasis: runs of "_" are plain text. */
function underscoreRule(state: StateInline, silent: boolean): boolean {
  const { src } = state;
  if (src.charCodeAt(state.pos) !== 0x5f /* _ */) return false;
  let end = state.pos;
  while (end < state.posMax && src.charCodeAt(end) === 0x5f) end++;
  if (!silent) state.pending += src.slice(state.pos, end);
  state.pos = end;
  return true;
}

/**
 * ~~strikethrough~~, which in Zulip may have spaces just inside the tildes, holds no tilde and
 * no line break, and has no tilde just outside it.
 */
function strikethroughRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x7e || src.charCodeAt(pos + 1) !== 0x7e || src[pos - 1] === '~') return false;
  let close = pos + 2;
  while (close < state.posMax && src[close] !== '~' && src[close] !== '\n') close++;
  if (close === pos + 2 || close + 2 > state.posMax || !src.startsWith('~~', close) || src[close + 2] === '~') return false;
  if (!silent) {
    const oldMax = state.posMax;
    state.push('del_open', 'del', 1);
    state.pos = pos + 2;
    state.posMax = close;
    state.md.inline.tokenize(state);
    state.posMax = oldMax;
    state.push('del_close', 'del', -1);
  }
  state.pos = close + 2;
  return true;
}

/** Emoji typed as Unicode characters (with sequences, keycaps and flags). */
const UNICODE_EMOJI =
  /\p{RI}\p{RI}|[#*0-9]\uFE0F?\u20E3|\p{Extended_Pictographic}(?:\uFE0F|\p{EMod})?(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{EMod})?)*/gu;
const NON_ASCII = /[^\x00-\x7f]/;
const EMOTICON_EDGE = `[\\s.,;!?()\\[\\]{}'"]`;
const EMOTICON_PATTERN = new RegExp(
  `(?<=^|${EMOTICON_EDGE})(${EMOTICONS.map(([e]) => e.replace(/[()|/[\]]/g, '\\$&')).join('|')})(?=$|${EMOTICON_EDGE})`,
  'g',
);

interface Piece {
  start: number;
  end: number;
  html?: string;
  link?: { href: string; text: string };
}

function mayHavePieces(text: string, env: RenderEnv): boolean {
  return env.linkifiers.length > 0 || env.options.translateEmoticons === true || NON_ASCII.test(text);
}

/** Finds, in one text run, what Zulip turns into markup there: linkifier matches, Unicode emoji, emoticons. */
function piecesIn(text: string, env: RenderEnv): Piece[] {
  const pieces: Piece[] = [];
  // Emoji never overlap one another, nor emoticons (which are ASCII) emoji; only linkifier matches can overlap.
  const linked: Piece[] = [];
  const taken = (start: number, end: number) => linked.some((p) => start < p.end && end > p.start);
  for (const linkifier of env.linkifiers) {
    for (const found of linkifier.matches(text)) {
      if (!taken(found.start, found.end)) linked.push({ start: found.start, end: found.end, link: { href: found.url, text: found.text } });
    }
  }
  pieces.push(...linked);
  for (const match of NON_ASCII.test(text) ? text.matchAll(UNICODE_EMOJI) : []) {
    const code = emojiCodeForText(match[0]);
    const end = match.index + match[0].length;
    if (code && !taken(match.index, end)) pieces.push({ start: match.index, end, html: emojiSpan(code, emojiNameByCode(code)!) });
  }
  if (env.options.translateEmoticons) {
    for (const match of text.matchAll(EMOTICON_PATTERN)) {
      const code = EMOTICONS.find(([e]) => e === match[0])![1];
      const end = match.index + match[0].length;
      const name = emojiNameByCode(code);
      if (name && !taken(match.index, end)) pieces.push({ start: match.index, end, html: emojiSpan(code, name) });
    }
  }
  return pieces.sort((a, b) => a.start - b.start);
}

/** After links are found: split plain text runs (outside links) where linkifiers, emoji and emoticons apply. */
function textPiecesRule(state: StateCore): void {
  const env = envOf(state);
  for (const blockToken of state.tokens) {
    if (blockToken.type !== 'inline' || !blockToken.children) continue;
    const out: Token[] = [];
    let linkDepth = 0;
    for (const token of blockToken.children) {
      if (token.type === 'link_open') linkDepth++;
      if (token.type === 'link_close') linkDepth--;
      if (token.type !== 'text' || linkDepth > 0) {
        out.push(token);
        continue;
      }
      const pieces = mayHavePieces(token.content, env) ? piecesIn(token.content, env) : [];
      if (pieces.length === 0) {
        out.push(token);
        continue;
      }
      let at = 0;
      const text = (content: string) => {
        const t = new state.Token('text', '', 0);
        t.content = content;
        out.push(t);
      };
      for (const piece of pieces) {
        if (piece.start > at) text(token.content.slice(at, piece.start));
        if (piece.html !== undefined) {
          const t = new state.Token('zulip_html', '', 0);
          t.content = piece.html;
          out.push(t);
        } else if (piece.link) {
          const open = new state.Token('link_open', 'a', 1);
          open.attrs = [['href', piece.link.href]];
          out.push(open);
          text(piece.link.text);
          out.push(new state.Token('link_close', 'a', -1));
        }
        at = piece.end;
      }
      if (at < token.content.length) text(token.content.slice(at));
    }
    blockToken.children = out;
  }
}

/** Zulip keeps the spaces that end a paragraph's last line, which CommonMark trims. */
function trailingSpacesRule(state: StateCore): void {
  if (!/[ \t](\n|$)/.test(state.src)) return;
  const lines = state.src.split('\n');
  for (let i = 1; i < state.tokens.length; i++) {
    const token = state.tokens[i];
    if (token.type !== 'inline' || state.tokens[i - 1].type !== 'paragraph_open' || !token.map) continue;
    const trailing = /[ \t]+$/.exec(lines[token.map[1] - 1] ?? '');
    if (trailing && !token.content.endsWith(trailing[0])) token.content += trailing[0];
  }
}

/** A list item's first paragraph keeps the spaces its later lines were typed with, as in Zulip. */
function listItemIndentRule(state: StateCore): void {
  if (!/\n[ \t]/.test(state.src)) return;
  const lines = state.src.split('\n');
  const itemLines: number[] = [];
  for (let i = 0; i + 1 < state.tokens.length; i++) {
    const token = state.tokens[i];
    if (token.type === 'list_item_open') itemLines.push(token.map?.[0] ?? -1);
    if (token.type === 'list_item_close') itemLines.pop();
    if (token.type !== 'paragraph_open' || !token.map || token.map[0] !== itemLines[itemLines.length - 1]) continue;
    const inline = state.tokens[i + 1];
    inline.content = inline.content
      .split('\n')
      .map((line, k) => {
        const typed = lines[token.map![0] + k] ?? '';
        const text = line.trimStart();
        return k > 0 && typed.endsWith(text) && /^[ \t]*$/.test(typed.slice(0, typed.length - text.length)) ? typed : line;
      })
      .join('\n');
  }
}

/** A link without text shows its URL, as Zulip's do. */
function emptyLinkTextRule(state: StateCore): void {
  for (const blockToken of state.tokens) {
    const children = blockToken.children;
    if (!children) continue;
    for (let i = 0; i < children.length; i++) {
      if (children[i].type !== 'link_open') continue;
      let close = i + 1;
      while (close < children.length && children[close].type === 'text' && children[close].content.trim() === '') close++;
      if (children[close]?.type !== 'link_close') continue;
      const text = new state.Token('text', '', 0);
      text.content = String(children[i].attrGet('href') ?? '');
      children.splice(i + 1, close - i - 1, text);
    }
  }
}

/** Zulip's emphasis and strong emphasis never span lines: their asterisks then stay as typed. */
function emphasisOnOneLineRule(state: StateCore): void {
  for (const blockToken of state.tokens) {
    const children = blockToken.children;
    if (!children) continue;
    for (let i = 0; i < children.length; i++) {
      const open = children[i];
      if (open.type !== 'em_open' && open.type !== 'strong_open') continue;
      const closeType = open.type === 'em_open' ? 'em_close' : 'strong_close';
      let depth = 0;
      let crossesLine = false;
      let close = i;
      for (; close < children.length; close++) {
        const token = children[close];
        if (token.type === 'softbreak' || token.type === 'hardbreak') crossesLine = true;
        if (token.type === open.type) depth++;
        if (token.type === closeType && --depth === 0) break;
      }
      if (!crossesLine || close === children.length) continue;
      for (const token of [open, children[close]]) {
        token.type = 'text';
        token.tag = '';
        token.nesting = 0;
        token.content = token.markup;
      }
    }
  }
}

/**
 * Quote markers with nothing after them: Zulip quotes the paragraph that follows on the next
 * line, and shows markers followed by nothing at all as the text they are.
 */
function emptyQuotesRule(state: StateCore): void {
  const tokens = state.tokens;
  let depth = 0;
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i].type === 'blockquote_close') depth--;
    if (tokens[i].type !== 'blockquote_open') continue;
    depth++;
    if (tokens[i + 1].type !== 'blockquote_close' || !tokens[i].map) continue;
    const [firstLine, endLine] = tokens[i].map!;
    const next = tokens[i + 2];
    if (next?.type === 'paragraph_open' && next.map?.[0] === endLine) {
      const paragraph = tokens.splice(i + 2, 3);
      tokens.splice(i + 1, 0, ...paragraph);
      i += 4;
      continue;
    }
    // The text is what the quotes around this one leave of its lines (">>>>>" is four quotes around ">").
    const outerMarkers = new RegExp(`^(?:[ \\t]*>[ \\t]?){${depth - 1}}`);
    const open = new state.Token('paragraph_open', 'p', 1);
    const inline = new state.Token('inline', '', 0);
    inline.content = state.src
      .split('\n')
      .slice(firstLine, endLine)
      .map((line) => line.replace(outerMarkers, ''))
      .join('\n')
      .trim();
    inline.map = [firstLine, endLine];
    inline.children = [];
    const close = new state.Token('paragraph_close', 'p', -1);
    open.block = close.block = true;
    tokens.splice(i, 2, open, inline, close);
    depth--;
    i += 2;
  }
}

/** "***text***" is strong around emphasis in Zulip, not the other way round. */
function strongOutsideEmRule(state: StateCore): void {
  for (const blockToken of state.tokens) {
    if (!blockToken.children) continue;
    // Emphasis leaves empty text where its delimiters were; they would hide the pairing.
    const children = blockToken.children.filter((token) => token.type !== 'text' || token.content !== '');
    blockToken.children = children;
    for (let i = 0; i + 1 < children.length; i++) {
      if (children[i].type !== 'em_open' || children[i + 1].type !== 'strong_open') continue;
      let depth = 0;
      for (let j = i + 1; j + 1 < children.length; j++) {
        if (children[j].type === 'strong_open') depth++;
        if (children[j].type !== 'strong_close' || --depth > 0) continue;
        if (children[j + 1].type === 'em_close') {
          swapTags(children[i], children[i + 1]);
          swapTags(children[j], children[j + 1]);
        }
        break;
      }
    }
  }
}

function swapTags(a: Token, b: Token): void {
  [a.type, a.tag, a.markup, b.type, b.tag, b.markup] = [b.type, b.tag, b.markup, a.type, a.tag, a.markup];
}

/** The schemes Zulip lets a link have: the web's, file, and those HTML lets pages register handlers for. */
const ALLOWED_SCHEMES =
  /^(?:https?|ftp|file|bitcoin|geo|im|irc|ircs|magnet|mailto|matrix|mms|news|nntp|openpgp4fpr|sip|sms|smsto|ssh|tel|urn|webcal|wtai|xmpp):/i;

/** Fenced blocks whose content is Markdown, not code. */
const MARKDOWN_FENCES = new Set(['quote', 'spoiler']);

function fenceKind(info: string): string {
  return (info.trim().split(/\s+/)[0] ?? '').replace(/^\./, '').toLowerCase();
}

/**
 * Fenced blocks as Zulip reads them: a code block closes only at a line holding exactly its
 * opening fence (CommonMark also closes at a longer one), so "````" inside a "```" block is
 * content. A quote or spoiler holds Markdown, so fences inside it open blocks of their own; a
 * bare fence closes the innermost open block it matches, else opens a code block. Unclosed
 * blocks run to the end of their container.
 */
function fenceRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const start = state.bMarks[startLine] + state.tShift[startLine];
  const lineEnd = state.eMarks[startLine];
  const marker = state.src.charCodeAt(start);
  if (marker !== 0x60 /* ` */ && marker !== 0x7e /* ~ */) return false;
  const fenceEnd = state.skipChars(start, marker);
  if (fenceEnd - start < 3) return false;
  const info = state.src.slice(fenceEnd, lineEnd);
  // An inline code span may open with backticks too; backticks in the info string mean it is one.
  // Zulip also reads "~~~x~~~" as text, not as a fence.
  if (info.includes(String.fromCharCode(marker))) return false;
  if (silent) return true;

  const fence = state.src.slice(start, fenceEnd);
  // The blocks open at each line: their fences, and whether each holds Markdown.
  const open = [{ fence, markdown: MARKDOWN_FENCES.has(fenceKind(info)) }];
  let line = startLine + 1;
  for (; line < endLine; line++) {
    const from = state.bMarks[line] + state.tShift[line];
    const to = state.eMarks[line];
    if (from < to && state.sCount[line] < state.blkIndent) break;
    const lineMarker = state.src.charCodeAt(from);
    if ((lineMarker !== 0x60 && lineMarker !== 0x7e) || state.sCount[line] - state.blkIndent >= 4) continue;
    const markerEnd = state.skipChars(from, lineMarker);
    if (markerEnd - from < 3) continue;
    const lineFence = state.src.slice(from, markerEnd);
    const bare = state.skipSpaces(markerEnd) >= to;
    const innermost = open[open.length - 1];
    if (bare && lineFence === innermost.fence) {
      open.pop();
      if (open.length === 0) break;
    } else if (innermost.markdown) {
      open.push({ fence: lineFence, markdown: MARKDOWN_FENCES.has(fenceKind(state.src.slice(markerEnd, to))) });
    }
  }
  const closed = open.length === 0;
  const token = state.push('fence', 'code', 0);
  token.info = info;
  token.content = state.getLines(startLine + 1, line, state.sCount[startLine], true);
  token.markup = fence;
  token.map = [startLine, line + (closed ? 1 : 0)];
  state.line = line + (closed ? 1 : 0);
  return true;
}

/** A code block's first line naming its language, as in "#!/usr/bin/env python3" or ":::python". */
const SHEBANG = /^(?:#!|:::+)(?:(?:\/[\w.-]+)*[/ ])?([\w#.+-]*)/;

/**
 * A code block as Zulip renders it: coloured in the fence's language, which data-code-language
 * names (as typed when it is not one we know, and then not coloured). Without a language, a
 * first line like "#!/usr/bin/python" picks the colouring but names nothing.
 */
function codeBlock(content: string, language: string | null): string {
  // Leading blank lines and trailing spaces are not part of the code; the last line always ends.
  const code = content.replace(/^\n+/, '').replace(/[ \t]+$/gm, '').replace(/\n*$/, '\n');
  let attribute = '';
  let grammar: string | null = null;
  if (language) {
    const known = codeLanguage(language);
    attribute = ` data-code-language="${escapeAttribute(known?.name ?? language)}"`;
    grammar = known?.grammar ?? null;
  } else {
    const shebang = SHEBANG.exec(code);
    grammar = shebang ? (codeLanguage(shebang[1])?.grammar ?? null) : null;
  }
  const inner = grammar ? highlightCode(code, grammar, escapeHtml) : escapeHtml(code);
  return `<div class="codehilite"${attribute}><pre><span></span><code>${inner}</code></pre></div>\n`;
}

/**
 * A table column's alignment, written as Zulip writes it (`style="text-align: left;"`):
 * the mobile app reads that exact text and treats a cell with any other style as unknown.
 */
function tableAlignmentRule(state: StateCore): void {
  for (const token of state.tokens) {
    if (token.type !== 'th_open' && token.type !== 'td_open') continue;
    const style = token.attrGet('style');
    const alignment = typeof style === 'string' && /^text-align:(left|right|center)$/.exec(style);
    if (alignment) token.attrSet('style', `text-align: ${alignment[1]};`);
  }
}

function buildParser() {
  // Loaded with the first render rather than with the server: markdown-it, its entity
  // tables and linkify-it were a noticeable part of every start.
  const MarkdownIt = require('markdown-it') as typeof import('markdown-it');
  const md = new MarkdownIt('default', { html: false, linkify: true, breaks: true, typographer: false });
  // Bare links are found by Zulip's rules, not linkify-it's (see autolink.ts), in text only:
  // the inline rule for "scheme://" would find links that Zulip's rules leave as text.
  md.linkify.test = mayHoldLink;
  md.linkify.match = (text: string) => findLinks(text) as ReturnType<typeof md.linkify.match>;
  md.inline.ruler.disable('linkify');
  // A link shows its URL exactly as typed (Zulip does not decode %-escapes in the text).
  md.normalizeLinkText = (text) => text;
  // Zulip keeps the spaces that start a paragraph's next line, which CommonMark drops.
  const newline = md.inline.ruler.__rules__.find((rule) => rule.name === 'newline')!.fn as (state: StateInline, silent: boolean) => boolean;
  md.inline.ruler.at('newline', (state, silent) => {
    const start = state.pos;
    if (!newline(state, silent)) return false;
    state.pos = start + 1;
    return true;
  });
  // Zulip keeps the spaces just inside inline code, which CommonMark would strip.
  const backticks = md.inline.ruler.__rules__.find((rule) => rule.name === 'backticks')!.fn as (state: StateInline, silent: boolean) => boolean;
  md.inline.ruler.at('backticks', (state, silent) => {
    const start = state.pos;
    if (!backticks(state, silent)) return false;
    const token = state.tokens[state.tokens.length - 1];
    if (!silent && token?.type === 'code_inline') {
      token.content = state.src.slice(start + token.markup.length, state.pos - token.markup.length);
    }
    return true;
  });
  // Zulip has no reference links, no setext headings and no <url> autolinks (the URL inside is
  // found as any bare one is, the brackets stay text).
  md.disable(['reference', 'lheading', 'strikethrough', 'autolink']);
  md.validateLink = (url) => {
    const trimmed = url.trim();
    if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return ALLOWED_SCHEMES.test(trimmed);
    return true;
  };
  // A numbered list may start right after a paragraph's line at any number, as in Zulip
  // (CommonMark lets only "1." interrupt a paragraph); an empty item still may not.
  const list = md.block.ruler.__rules__.find((rule) => rule.name === 'list')!.fn as (state: StateBlock, start: number, end: number, silent: boolean) => boolean;
  md.block.ruler.at(
    'list',
    (state, startLine, endLine, silent) => {
      if (!silent || state.parentType !== 'paragraph') return list(state, startLine, endLine, silent);
      const line = state.src.slice(state.bMarks[startLine] + state.tShift[startLine], state.eMarks[startLine]);
      if (!/^\d{1,9}[.)][ \t]+\S/.test(line)) return list(state, startLine, endLine, silent);
      const parentType = state.parentType;
      state.parentType = 'list';
      try {
        return list(state, startLine, endLine, silent);
      } finally {
        state.parentType = parentType;
      }
    },
    { alt: ['paragraph', 'reference', 'blockquote'] },
  );
  md.block.ruler.at('fence', fenceRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.inline.ruler.before('emphasis', 'zulip_underscore', underscoreRule);
  md.inline.ruler.before('emphasis', 'zulip_strikethrough', strikethroughRule);
  md.inline.ruler.before('emphasis', 'zulip_mention', mentionRule);
  md.inline.ruler.before('emphasis', 'zulip_channel_link', channelLinkRule);
  md.inline.ruler.before('emphasis', 'zulip_emoji', emojiNameRule);
  md.inline.ruler.before('backticks', 'zulip_time', timeRule);
  md.inline.ruler.after('backticks', 'zulip_math', inlineMathRule);
  md.core.ruler.after('linkify', 'zulip_text_pieces', textPiecesRule);
  md.core.ruler.after('block', 'zulip_trailing_spaces', trailingSpacesRule);
  md.core.ruler.after('block', 'zulip_empty_quotes', emptyQuotesRule);
  md.core.ruler.after('block', 'zulip_list_item_indent', listItemIndentRule);
  md.core.ruler.after('block', 'zulip_table_alignment', tableAlignmentRule);
  md.core.ruler.after('inline', 'zulip_strong_outside_em', strongOutsideEmRule);
  md.core.ruler.after('inline', 'zulip_emphasis_on_one_line', emphasisOnOneLineRule);
  md.core.ruler.after('inline', 'zulip_empty_link_text', emptyLinkTextRule);

  const rules = md.renderer.rules;
  rules.zulip_html = (tokens, idx) => tokens[idx].content;
  rules.text = (tokens, idx) => escapeText(tokens[idx].content);
  rules.code_inline = (tokens, idx) => `<code>${escapeText(tokens[idx].content)}</code>`;
  rules.code_block = (tokens, idx) => codeBlock(tokens[idx].content, null);
  rules.fence = (tokens, idx, _options, rawEnv) => {
    const token = tokens[idx];
    const [typed, ...rest] = token.info.trim().split(/\s+/);
    const language = fenceKind(token.info);
    const env = rawEnv as unknown as RenderEnv;
    if (MARKDOWN_FENCES.has(language) && env.depth >= MAX_FENCE_DEPTH) return codeBlock(token.content, null);
    const inner = (text: string) => {
      env.depth++;
      try {
        return md.render(text, rawEnv);
      } finally {
        env.depth--;
      }
    };
    if (language === 'quote') return `<blockquote>\n${inner(token.content)}</blockquote>\n`;
    if (language === 'spoiler') {
      const header = inner(rest.join(' '));
      return `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div><div class="spoiler-content" aria-hidden="true">\n${inner(token.content)}</div></div>\n`;
    }
    if (language === 'math') {
      const tex = token.content.replace(/\n$/, '');
      const rendered = renderTex(tex, true);
      // A display formula's error escapes quotes too (an inline one's does not), as Zulip's does.
      return `<p>${rendered ?? `<span class="tex-error">${escapeText(tex).replace(/"/g, '&quot;').replace(/'/g, '&#x27;')}</span>`}</p>\n`;
    }
    // An unknown language is named as typed; a fence naming none takes the organization's default.
    return codeBlock(token.content, typed ? typed.replace(/^\./, '') : env.context.defaultCodeLanguage?.() || null);
  };
  // In a tight list item, a nested list follows its item's text directly, as in Zulip.
  const nestedList = (tokens: Token[], idx: number, options: Parameters<Renderer['renderToken']>[2], _env: unknown, self: Renderer) =>
    self.renderToken(tokens, idx, options).replace(/^\n/, '');
  rules.bullet_list_open = nestedList;
  rules.ordered_list_open = nestedList;
  rules.link_open = (tokens, idx, options, rawEnv, self) => {
    const env = rawEnv as unknown as RenderEnv;
    const token = tokens[idx];
    const href = token.attrGet('href') as string | null;
    if (href !== null) {
      env.result.hasLink = true;
      token.attrSet('href', internalHref(href, env.context.realmUrl));
      const pathId = noteUpload(String(token.attrGet('href')), env);
      const image = pathId === null ? null : (env.context.uploadedImage?.(pathId) ?? null);
      if (image) env.previews.push(imagePreview(String(token.attrGet('href')), linkText(tokens, idx), image));
    }
    return self.renderToken(tokens, idx, options);
  };
  // ![alt](url), since Zulip 12 (feature levels 437 and 467): an uploaded image shows where it
  // is written, an uploaded sound as a player (level 405); any other URL stays a link.
  rules.image = (tokens, idx, options, rawEnv, self) => {
    const env = rawEnv as unknown as RenderEnv;
    const token = tokens[idx];
    const src = internalHref(String(token.attrGet('src') ?? ''), env.context.realmUrl);
    const alt = self.renderInlineAsText(token.children ?? [], options, rawEnv);
    env.result.hasLink = true;
    const pathId = noteUpload(src, env);
    const image = pathId === null ? null : (env.context.uploadedImage?.(pathId) ?? null);
    if (image) return inlineImage(src, alt, image);
    if (pathId !== null && env.context.uploadedAudio?.(pathId)) {
      return `<audio controls preload="metadata" src="${escapeAttribute(src)}" title="${escapeAttribute(alt)}"></audio>`;
    }
    return `!<a href="${escapeAttribute(src)}">${escapeText(alt.trim() === '' ? src : alt)}</a>`;
  };
  // Previews of the images a paragraph links follow it, as on Zulip; in a tight list item
  // (whose paragraph is not shown) they close the item.
  rules.paragraph_close = (tokens, idx, options, rawEnv, self) => {
    const env = rawEnv as unknown as RenderEnv;
    const html = self.renderToken(tokens, idx, options);
    if (env.previews.length === 0) return html;
    const previews = env.previews.join('');
    env.previews = [];
    return tokens[idx].hidden ? previews : `${html}${previews}\n`;
  };
  return md;
}

/** The path ID an upload link names (/user_uploads/2/ab/xyz/name.png), or null for any other link. */
function uploadPathId(href: string): string | null {
  const match = /^\/?user_uploads\/(\d+\/[^?#]+)/.exec(href);
  if (!match || match[1].startsWith('temporary/') || match[1].startsWith('thumbnail/')) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** Notes an upload a message links (for its attachments); returns its path ID, or null for any other link. */
function noteUpload(href: string, env: RenderEnv): string | null {
  const pathId = uploadPathId(href);
  if (pathId === null) return null;
  env.result.hasAttachment = true;
  env.result.uploadPathIds.add(pathId);
  if (/\.(png|jpe?g|gif|webp|bmp|tiff?)$/i.test(href)) env.result.hasImage = true;
  return pathId;
}

/** An uploaded image written with Markdown's image syntax, where it stands: its thumbnail. */
function inlineImage(src: string, alt: string, image: UploadedImage): string {
  const animated = image.animated ? ' data-animated="true"' : '';
  return (
    `<img alt="${escapeAttribute(alt)}" class="inline-image"${animated} data-original-content-type="${escapeAttribute(image.contentType)}" ` +
    `data-original-dimensions="${image.width}x${image.height}" data-original-src="${escapeAttribute(src)}" src="${escapeAttribute(image.thumbnailUrl)}">`
  );
}

/** The text of the link that opens at tokens[idx], for the preview's title. */
function linkText(tokens: Token[], idx: number): string {
  let text = '';
  for (let i = idx + 1; i < tokens.length && tokens[i].type !== 'link_close'; i++) text += tokens[i].content;
  return text;
}

/** Zulip's preview of an uploaded image: its thumbnail, linking to the original. */
function imagePreview(href: string, title: string, image: UploadedImage): string {
  const animated = image.animated ? ' data-animated="true"' : '';
  return (
    `<div class="message_inline_image"><a href="${escapeHtml(href)}" title="${escapeHtml(title)}">` +
    `<img${animated} data-original-content-type="${escapeHtml(image.contentType)}" ` +
    `data-original-dimensions="${image.width}x${image.height}" src="${escapeHtml(image.thumbnailUrl)}"></a></div>`
  );
}

/** Links into this realm's web app and uploads become relative, so they work wherever the realm is reached. */
function internalHref(href: string, realmUrl: string): string {
  if (realmUrl === '') return href;
  const prefix = `${realmUrl}/`;
  if (href.startsWith(`${prefix}#`) || href.startsWith(`${prefix}user_uploads/`)) return href.slice(prefix.length);
  return href;
}

// Built on the first render, not at start-up: building it (and loading the list of top-level
// domains) is a good part of what starting the server would otherwise cost, and a server
// need not render anything before its first request that does.
let builtParser: ReturnType<typeof buildParser> | undefined;
const parser = () => (builtParser ??= buildParser());

/** A list item that CommonMark reads differently from Zulip: indented, or bulleted after a different bullet. */
const MAY_NEED_LIST_FIX = /^ {2,}(?:[*+-]|\d{1,9}[.)])[ \t]|^ {0,3}[-+][ \t]/m;
const LIST_ITEM = /^( *)([*+-]|\d{1,9}[.)])([ \t]+)/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)/;

interface OpenItem {
  /** Where the item's marker stands, as typed and as rewritten. */
  typedIndent: number;
  indent: number;
  /** Where CommonMark wants the item's nested content to start. */
  contentIndent: number;
  marker: string;
}

/**
 * Zulip's lists, written so that CommonMark reads them the same way. Zulip nests an item under
 * the one above it when it is indented by two spaces more ("1. a" then "  1. b"), where
 * CommonMark wants the item's full content indent (three spaces for "1. "); and Zulip keeps
 * "*", "-" and "+" items in one list, where CommonMark starts a new list at each change of
 * bullet. Such lines get the indent and the bullet CommonMark needs; code blocks are left as
 * they are.
 */
function normalizeLists(content: string): string {
  const lines = content.split('\n');
  let openCodeFence: string | null = null;
  const open: OpenItem[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (openCodeFence !== null) {
      if (line.trimEnd() === openCodeFence) openCodeFence = null;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const kind = fence[2].replace(/^\./, '').toLowerCase();
      // Quotes and spoilers hold Markdown; other fenced blocks hold code.
      if (kind !== 'quote' && kind !== 'spoiler') openCodeFence = line.trimEnd().slice(0, line.indexOf(fence[1]) + fence[1].length);
      open.length = 0;
      continue;
    }
    const item = THEMATIC_BREAK.test(line) ? null : LIST_ITEM.exec(line);
    if (!item) {
      if (line.trim() !== '' && !/^\s/.test(line)) open.length = 0;
      continue;
    }
    const typedIndent = item[1].length;
    // Four spaces before anything but a list's own items make an indented code block.
    if (open.length === 0 && typedIndent >= 4) continue;
    // Items at this indent or shallower close the items open at or beyond it.
    let sibling: OpenItem | undefined;
    while (open.length > 0 && open[open.length - 1].typedIndent + 2 > typedIndent) sibling = open.pop();
    const parent = open[open.length - 1];
    let marker = item[2];
    const indent = parent ? Math.max(parent.contentIndent, typedIndent) : typedIndent;
    if (sibling && sibling.typedIndent === typedIndent && /^[*+-]$/.test(marker) && /^[*+-]$/.test(sibling.marker)) marker = sibling.marker;
    if (indent !== typedIndent || marker !== item[2]) lines[i] = ' '.repeat(indent) + marker + line.slice(typedIndent + item[2].length);
    open.push({ typedIndent, indent, contentIndent: indent + marker.length + Math.min(item[3].length, 4), marker });
  }
  return lines.join('\n');
}

/** Zulip's alert word boundaries: what may come just before and just after a word. */
const ALERT_BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const ALERT_AFTER = new Set([' ', '\n', ')', '"', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

function alertWordsIn(content: string, words: ReadonlyArray<string>): Set<string> {
  const found = new Set<string>();
  if (words.length === 0) return found;
  const text = content.toLowerCase();
  for (const word of words) {
    if (word === '' || found.has(word)) continue;
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
      const end = at + word.length;
      if ((at === 0 || ALERT_BEFORE.has(text[at - 1])) && (end === text.length || ALERT_AFTER.has(text[end]))) {
        found.add(word);
        break;
      }
    }
  }
  return found;
}

/** A /me message: one line beginning `/me `, shown as an action of its sender. */
export function isMeMessage(content: string): boolean {
  return content.startsWith('/me ') && !content.includes('\n');
}

/** Renders Zulip-flavoured Markdown to HTML, noting what Zulip notes about a message. Never throws on any input. */
export function renderMarkdown(content: string, context: MarkdownContext, options: RenderOptions = {}): RenderedMarkdown {
  const result: RenderedMarkdown = {
    html: '',
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    mentionsChannelWildcard: false,
    mentionsTopicWildcard: false,
    isMeMessage: isMeMessage(content),
    hasLink: false,
    hasImage: false,
    hasAttachment: false,
    uploadPathIds: new Set(),
    alertWordsFound: alertWordsIn(content, context.alertWords),
  };
  const env: RenderEnv = { context, options, linkifiers: compileLinkifiers(context.linkifiers), result, previews: [], depth: 0 };
  const source = MAY_NEED_LIST_FIX.test(content) ? normalizeLists(content) : content;
  const html = parser().render(source, env as unknown as Record<string, unknown>);
  // Previews of links outside paragraphs (in tables, headings) close the message.
  result.html = `${html}${env.previews.join('')}`.replace(/\n$/, '');
  return result;
}

/** topic_links for a message's topic: linkifier matches and raw URLs in the topic, in order of appearance. */
export function topicLinks(topic: string, context: MarkdownContext): Array<{ text: string; url: string }> {
  const found: Array<{ start: number; end: number; text: string; url: string }> = [];
  for (const linkifier of compileLinkifiers(context.linkifiers)) {
    for (const match of linkifier.matches(topic)) {
      if (!found.some((f) => match.start < f.end && match.end > f.start)) found.push(match);
    }
  }
  for (const match of parser().linkify.match(topic) ?? []) {
    if (found.some((f) => match.index < f.end && match.lastIndex > f.start)) continue;
    const url = match.schema === '' ? match.url.replace(/^http:/, 'https:') : match.url;
    found.push({ start: match.index, end: match.lastIndex, text: match.raw, url });
  }
  return found.sort((a, b) => a.start - b.start).map(({ text, url }) => ({ text, url }));
}
