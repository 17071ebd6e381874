import { badRequest } from '../http/errors';

/**
 * Widgets: polls and to-do lists that live on a message as submessages.
 *
 * A message whose content starts with `/poll` or `/todo` becomes a widget when sent: the
 * server stores a first submessage of msg_type `widget` naming the widget and the data the
 * command line gave (a poll's question and options, a list's title and tasks). Clients then
 * post the widget's events (votes, new options, ticked tasks) as further submessages, which
 * this module checks the way Zulip does before they are stored.
 */

/** The msg_type of widgets' submessages: the only kind there is. */
export const WIDGET_MSG_TYPE = 'widget';

export type WidgetType = 'poll' | 'todo';

export interface PollExtraData {
  question: string;
  options: string[];
}

export interface TodoExtraData {
  task_list_title: string;
  tasks: Array<{ task: string; desc: string }>;
}

/** What a widget's first submessage holds: which widget, and what it starts with. */
export interface WidgetContent {
  widget_type: string;
  extra_data: unknown;
}

// Zulip parses the command with Python's notion of whitespace and of line breaks, which
// differs from JavaScript's (\x1c-\x1f and \x85 are whitespace there, \ufeff is not); these
// classes are Python's, so the same message gives the same widget on both servers.
const SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const WHITESPACE_RUN = new RegExp(`[${SPACE}]+`);
const IS_SPACE = new RegExp(`[${SPACE}]`);
/** Every space character is at most U+0020 or at least U+0085, so most text skips the test. */
const isSpace = (c: string) => (c <= ' ' || c >= '\x85') && IS_SPACE.test(c);
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
/** A list marker ("-" or "*") and the space after it, which options and tasks may start with. */
const LIST_MARKER = new RegExp(`^[-*]?[${SPACE}]*`);

/** The text without space at either end. A scan, not a regular expression: `\s+$` takes quadratic time on long inner runs of space. */
function strip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text[start])) start++;
  while (end > start && isSpace(text[end - 1])) end--;
  return text.slice(start, end);
}

/** Lines as Python's splitlines gives them: no empty line after a final line break. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(LINE_BREAK);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The widget a message's content creates, or null. Only a first word of exactly `/poll` or
 * `/todo` counts; the rest of the first line is the question or title, and each further
 * non-blank line an option or task (a task's description follows its first ": ").
 */
export function widgetOfContent(content: string): WidgetContent | null {
  const command = content.split(WHITESPACE_RUN)[0];
  if (command !== '/poll' && command !== '/todo') return null;
  const lines = splitLines(content.slice(command.length));
  // An empty first line (the command alone on its line) leaves the question or title empty.
  const heading = lines.length > 0 && lines[0] !== '' ? strip(lines.shift()!) : '';
  const items = lines.map((line) => strip(line).replace(LIST_MARKER, '')).filter((item) => item.length > 0);
  if (command === '/poll') {
    return { widget_type: 'poll', extra_data: { question: heading, options: items } satisfies PollExtraData };
  }
  const tasks = items.map((item) => {
    const split = item.indexOf(': ');
    return split < 0 ? { task: strip(item), desc: '' } : { task: strip(item.slice(0, split)), desc: strip(item.slice(split + 2)) };
  });
  return { widget_type: 'todo', extra_data: { task_list_title: heading, tasks } satisfies TodoExtraData };
}

/**
 * JSON text as Zulip's server writes a widget's first submessage (Python's json.dumps):
 * ", " and ": " between items, and every character outside printable ASCII escaped. Clients
 * parse it either way; matching it keeps what clients see identical to Zulip.
 */
export function widgetJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(widgetJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, item]) => `${widgetJson(key)}: ${widgetJson(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** How deeply JSON may nest: Zulip's JSON parser refuses deeper text as invalid. */
const MAX_JSON_DEPTH = 1024;

/**
 * JSON.parse, refusing (with a SyntaxError, as for any invalid text) what nests more deeply
 * than Zulip's parser takes; that also keeps the recursive writer above within the stack.
 */
export function parseJson(text: string): unknown {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) throw new SyntaxError('JSON nests too deeply');
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return JSON.parse(text);
}

/**
 * The `widget_content` of POST /messages (undocumented, used by bots): a widget given whole
 * instead of by command. Zulip knows one kind, `zform`, a set of choice buttons whose replies
 * the client sends as messages. Throws Zulip's errors, prefixed `Widgets: `.
 */
export function parseWidgetContent(raw: string): WidgetContent {
  let value: unknown;
  try {
    value = parseJson(raw);
  } catch {
    throw badRequest('Widgets: API programmer sent invalid JSON content');
  }
  const fail = (message: string) => badRequest(`Widgets: ${message}`);
  if (!isDict(value)) throw fail('widget_content is not a dict');
  if (!('widget_type' in value)) throw fail('widget_type is not in widget_content');
  if (!('extra_data' in value)) throw fail('extra_data is not in widget_content');
  const { widget_type: widgetType, extra_data: extraData } = value;
  if (!isDict(extraData)) throw fail('extra_data is not a dict');
  if (widgetType !== 'zform') throw fail(`unknown widget type: ${String(widgetType)}`);
  if (!('type' in extraData)) throw fail('zform is missing type field');
  if (extraData.type !== 'choices') throw fail(`unknown zform type: ${String(extraData.type)}`);
  const choices: Checker = (name, list) => {
    if (!Array.isArray(list)) throw badRequest(`${name} is not a list`);
    list.forEach((choice, i) =>
      checkDict(`${name}[${i}]`, choice, [['short_name', string], ['long_name', string], ['reply', string]], false),
    );
  };
  try {
    checkDict('extra_data', extraData, [['heading', string], ['choices', choices]], false);
  } catch (error) {
    throw fail((error as Error).message);
  }
  return { widget_type: widgetType, extra_data: extraData };
}

/** The widget type a message's first `widget` submessage names, if it is a well-formed one. */
export function widgetTypeOf(firstWidgetContent: string | undefined): unknown {
  if (firstWidgetContent === undefined) return undefined;
  try {
    const data: unknown = JSON.parse(firstWidgetContent);
    return isDict(data) ? data.widget_type : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------
// Checking widget events, in the words Zulip's validators use: each field is named by its
// path (`poll data["vote"]`), so a client's error tells it which part was wrong.
// ---------------------------------------------------------------------------

/** The most options or tasks a widget may number; the clients use the same bound. */
const MAX_IDX = 1000;

type Checker = (name: string, value: unknown) => void;

function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An integer as Zulip's Python sees one: booleans are integers there (1 and 0). */
function asInteger(name: string, value: unknown): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw badRequest(`${name} is not an integer`);
  return value;
}

const string: Checker = (name, value) => {
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
};
const boolean: Checker = (name, value) => {
  if (typeof value !== 'boolean') throw badRequest(`${name} is not a boolean`);
};
const oneOf =
  (allowed: readonly number[]): Checker =>
  (name, value) => {
    if (!allowed.includes(asInteger(name, value))) throw badRequest(`Invalid ${name}`);
  };
const between =
  (low: number, high: number): Checker =>
  (name, value) => {
    const n = asInteger(name, value);
    if (n < low) throw badRequest(`${name} is too small`);
    if (n > high) throw badRequest(`${name} is too large`);
  };

/** Checks the listed keys in order; with `only`, any other key is refused too. */
function checkDict(name: string, value: unknown, keys: ReadonlyArray<[string, Checker]>, only: boolean): asserts value is Record<string, unknown> {
  if (!isDict(value)) throw badRequest(`${name} is not a dict`);
  for (const [key, check] of keys) {
    if (!(key in value)) throw badRequest(`${key} key is missing from ${name}`);
    check(`${name}["${key}"]`, value[key]);
  }
  if (only) {
    const extra = Object.keys(value).filter((key) => !keys.some(([listed]) => listed === key));
    if (extra.length > 0) throw badRequest(`Unexpected arguments: ${extra.join(', ')}`);
  }
}

interface EventRule {
  keys: ReadonlyArray<[string, Checker]>;
  /** Refused to anyone but the message's sender, with this message. */
  authorOnly?: string;
}

const RULES: Record<WidgetType, { label: string; events: Record<string, EventRule> }> = {
  poll: {
    label: 'poll data',
    events: {
      // key: "<sender ID or canned>,<option index>"; vote: 1 to add one's vote, -1 to take it back.
      vote: { keys: [['type', string], ['key', string], ['vote', oneOf([1, -1])]] },
      question: {
        keys: [['type', string], ['question', string]],
        authorOnly: "You can't edit a question unless you are the author.",
      },
      new_option: { keys: [['type', string], ['option', string], ['idx', between(0, MAX_IDX)]] },
    },
  },
  todo: {
    label: 'todo data',
    events: {
      // Here `key` is the new task's index; in `strike` it is the task's full key ("<index>,<sender ID or canned>").
      new_task: {
        keys: [['type', string], ['key', between(0, MAX_IDX)], ['task', string], ['desc', string], ['completed', boolean]],
      },
      strike: { keys: [['type', string], ['key', string]] },
      new_task_list_title: {
        keys: [['type', string], ['title', string]],
        authorOnly: "You can't edit the task list title unless you are the author.",
      },
    },
  },
};

/**
 * Checks one event of a poll or to-do widget; throws the API error Zulip gives for the first
 * thing wrong. `byAuthor`: whether it comes from the message's sender, who alone may change a
 * poll's question or a list's title.
 */
export function checkWidgetEvent(widgetType: WidgetType, data: unknown, byAuthor: boolean): void {
  const { label, events } = RULES[widgetType];
  checkDict(label, data, [['type', string]], false);
  const type = data.type as string;
  const rule = Object.hasOwn(events, type) ? events[type] : undefined;
  if (!rule) throw badRequest(`Unknown type for ${label}: ${type}`);
  if (rule.authorOnly && !byAuthor) throw badRequest(rule.authorOnly);
  checkDict(label, data, rule.keys, true);
}

export function isCheckedWidgetType(type: unknown): type is WidgetType {
  return type === 'poll' || type === 'todo';
}
