import { ApiError, badRequest } from '../http/errors';
import { capitalize, pythonStr } from './payload';
import type { Integration } from './types';

/** New Relic's workflow notifications (its default payload and Zulip's suggested template). */

type Payload = any;

const PRIORITY_ICONS: Record<string, string> = {
  CRITICAL: ':red_circle:',
  HIGH: ':orange_circle:',
  MEDIUM: ':yellow:',
  LOW: ':blue_circle:',
};
const STATES = ['CREATED', 'ACTIVATED', 'CLOSED'];
const DEFAULT_URL = 'https://one.newrelic.com/alerts-ai';
/** What the message is made of; a payload without one of them gets a warning instead. */
const EXPECTED_FIELDS = ['issueUrl', 'title', 'priority', 'totalIncidents', 'state', 'createdAt', 'updatedAt', 'alertPolicyNames', 'alertConditionNames'];
/** Python's datetime ends at year 9999. */
const LAST_MILLISECOND = 253402300799999;

/** Unix milliseconds as a global time, written as Python writes a UTC datetime. */
function time(milliseconds: unknown): string {
  if (typeof milliseconds !== 'number' || !Number.isInteger(milliseconds) || Math.abs(milliseconds) > LAST_MILLISECOND) {
    throw new ApiError('BAD_REQUEST', 'The newrelic webhook expects time in milliseconds.', 400);
  }
  const iso = new Date(milliseconds).toISOString();
  const fraction = ((milliseconds % 1000) + 1000) % 1000;
  const stamp = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${String(fraction * 1000).padStart(6, '0')}` : ''}+00:00`;
  return `<time: ${stamp} >`;
}

const codeList = (names: string[]) => names.map((name) => `\`${name}\``).join(', ');
const isScalar = (value: unknown) => value === null || ['number', 'string', 'boolean'].includes(typeof value);

/** The fields a user adds to the payload under zulipCustomFields: scalars and lists of them. */
function customFields(fields: Record<string, unknown> | undefined): string {
  let text = '';
  for (const [key, value] of Object.entries(fields ?? {})) {
    let shown: string;
    if (isScalar(value)) shown = pythonStr(value);
    else if (Array.isArray(value) && value.every(isScalar)) shown = value.map(pythonStr).join(', ');
    else shown = '*Value is not a supported data type*';
    text += `- **${capitalize(key)}**: ${shown}\n`;
  }
  return text;
}

export const newrelic: Integration = {
  name: 'newrelic',
  displayName: 'NewRelic',
  eventTypes: ['CREATED', 'ACTIVATED', 'CLOSED'],
  handle(request) {
    const p: Payload = request.json();
    const missing = EXPECTED_FIELDS.filter((key) => !(key in p));
    if (missing.length > 0) {
      return {
        topic: 'New Relic incident alerts',
        content:
          `:danger: A New Relic [incident](${DEFAULT_URL}) updated\n\n**Warning**: Unable to use the default notification format because at least one expected field was missing from the incident payload. See [New Relic integration documentation](/integrations/doc/newrelic).\n\n` +
          `**Missing fields**: ${missing.map((key) => `\`${key}\``).join(', ')}`,
      };
    }
    if (!(p.priority in PRIORITY_ICONS)) throw badRequest('Invalid priority');
    if (!STATES.includes(p.state)) throw badRequest('Invalid state');
    const owner = p.owner;
    const acknowledged = owner && owner !== 'N/A' ? `**Acknowledged by**: ${owner}` : '';
    const details =
      `\n- **Alert policies**: ${codeList(p.alertPolicyNames)}\n- **Conditions**: ${codeList(p.alertConditionNames)}\n` +
      `- **Total incidents**: ${p.totalIncidents}\n- **Incident created at**: ${time(p.createdAt)}\n${customFields(p.zulipCustomFields)}`;
    const content =
      `${PRIORITY_ICONS[p.priority]} **[${p.title}](${p.issueUrl})**\n\n\`\`\`quote\n**Priority**: ${p.priority}\n**State**: ${p.state}\n` +
      `**Updated at**: ${time(p.updatedAt)}\n${acknowledged}\n\`\`\`\n\n\`\`\`spoiler :file: Incident details\n${details}\n\`\`\``;
    return { topic: p.title, content, event: p.state };
  },
};
