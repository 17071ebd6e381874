import { seededRandom } from '../seeded-random';
import type { DemoChannel, DemoPerson } from './organization';

// A few days of conversation for the demo organization, the same on every run: every choice
// comes from a seeded generator, so tests and screenshots see the same messages, topics,
// senders and reactions each time.

/** How many messages the demo holds, and what share of them are direct messages. */
export const DEMO_MESSAGE_COUNT = 300;
const DIRECT_SHARE = 0.15;
const GROUP_DIRECT_SHARE = 0.1;
/** Chance that a message continues the previous conversation, as chat does. */
const STICKINESS = 0.35;
/**
 * The documentation's examples act on the first messages: they flag messages 4, 8 and 15,
 * match messages 31 and 32 against a narrow, and read, edit, react to and delete message 43
 * (in Denmark, whose topic "Castle" they also use). So the first of them are channel messages
 * that Iago, the examples' user, can read, and message 43 is in Denmark > Castle.
 */
const CHANNEL_ONLY_OPENING = 50;
const DOCUMENTED_MESSAGE = { position: 43, channel: 'denmark', topic: 'Castle' };

export type DemoAddress =
  | { type: 'channel'; channel: string; topic: string }
  /** People's keys, the sender included. */
  | { type: 'direct'; people: string[] };

export interface DemoMessage {
  sender: string;
  address: DemoAddress;
  content: string;
  /** Reactions as [person key, emoji name]. */
  reactions: Array<[string, string]>;
}

const SENTENCES = [
  'Has anyone seen the keys to the east gate?',
  'I will bring bread and olives; someone else should bring the wine.',
  'The tide turns at four, so we should leave before then.',
  'That plan has more holes than a fishing net.',
  'Agreed, let us meet after the bells ring noon.',
  'I wrote it down so that nobody can claim they were not told.',
  'Could we move this to tomorrow? Today is already full.',
  'The courier arrived late again, but the letters were all there.',
  'I measured twice and it still does not fit through the door.',
  'Good news: the roof no longer leaks over the library.',
  'Whoever borrowed my lantern, please return it by tonight.',
  'I can take the first watch if someone takes the second.',
  'The musicians want to rehearse in the great hall on Friday.',
  'There is a rumour of snow, so pack something warm.',
  'Thanks, that was exactly what I needed.',
  'Let me check the ledger and get back to you.',
  'Has the new stock of parchment come in yet?',
  'Three of us voted yes and nobody voted no, so it passes.',
  'I think the old map is wrong about the river crossing.',
  'The cook says dinner will be an hour late; the oven is sulking.',
  'I tried the shortcut through the orchard. Do not try the shortcut through the orchard.',
  'Please review the list below before the meeting.',
  'That is a fair point, and I had not thought of it.',
  'We are out of candles in the west wing.',
  'The painters finished early, and the colour is better than expected.',
  'Remind me: are we still expecting guests from the north?',
  'I left a note on the board by the stairs.',
  'Someone should tell the gardener the fountain is running again.',
  'If the bridge is closed we will go around by the mill.',
  'Nothing urgent, just checking everyone is alive.',
];

const LIST_ITEMS = ['rope', 'two lanterns', 'a spare cloak', 'bread and cheese', 'the signed letter', 'a small boat', 'ink', 'a map'];
const EMOJI = ['+1', 'smile', 'tada', 'heart', 'eyes', 'thinking', 'clap', 'rocket', 'joy', 'check'];
const LINKS = [
  ['the API documentation', 'https://zulip.com/api/'],
  ['the help center', 'https://zulip.com/help/'],
  ['the Markdown guide', 'https://zulip.com/help/format-your-message-using-markdown'],
];
const CODE = [
  ['python', 'def greet(name):\n    return f"Good morrow, {name}!"'],
  ['javascript', 'const bells = [1, 2, 3].map((n) => n * 4);\nconsole.log(bells);'],
  ['bash', 'curl -sSu "$EMAIL:$API_KEY" "$SITE/api/v1/users/me"'],
];

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** Distinct items, as many as asked for (or all there are). */
function sample<T>(random: Random, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const chosen: T[] = [];
  while (chosen.length < count && pool.length > 0) chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  return chosen;
}

/** Message text in one of Zulip's Markdown shapes; `others` are people who may be mentioned. */
function compose(random: Random, others: readonly DemoPerson[], channelNames: readonly string[]): string {
  const sentence = () => pick(random, SENTENCES);
  const roll = random();
  if (roll < 0.45) return sentence();
  if (roll < 0.55) return `${sentence()} ${sentence()}`;
  if (roll < 0.62 && others.length > 0) return `@**${pick(random, others).fullName}** ${sentence()}`;
  if (roll < 0.68) return `**Note:** ${sentence()} :${pick(random, EMOJI)}:`;
  if (roll < 0.73) return `${sentence()}\n\n${sample(random, LIST_ITEMS, 3).map((item) => `* ${item}`).join('\n')}`;
  if (roll < 0.78) return `> ${sentence()}\n\nI would put it *differently*, but yes.`;
  if (roll < 0.83) {
    const [language, code] = pick(random, CODE);
    return `This should do it:\n\n\`\`\`${language}\n${code}\n\`\`\``;
  }
  if (roll < 0.88) {
    const [text, url] = pick(random, LINKS);
    return `See [${text}](${url}) for the details.`;
  }
  if (roll < 0.92) return `Let us continue in #**${pick(random, channelNames)}**.`;
  if (roll < 0.95) return `Run \`git status\` first, then ${sentence().toLowerCase()}`;
  if (roll < 0.97) return `~~${sentence()}~~ Never mind, it is sorted.`;
  return `:${pick(random, EMOJI)}: :${pick(random, EMOJI)}:`;
}

/**
 * The demo's messages in the order they are sent. Senders are subscribers of the channel they
 * write to; direct messages go between a few fixed pairs and groups, as in Zulip's test data.
 */
export function demoConversation(
  people: readonly DemoPerson[],
  channels: readonly DemoChannel[],
  seed = 14,
): DemoMessage[] {
  const random = seededRandom(seed);
  const subscribers = new Map(channels.map((c) => [c.key, people.filter((p) => p.channels.includes(c.key))]));
  const byKey = new Map(people.map((p) => [p.key, p]));
  const channelNames = channels.filter((c) => !c.inviteOnly).map((c) => c.name);
  const pairs = Array.from({ length: 6 }, () => sample(random, people, 2).map((p) => p.key));
  const groups = Array.from({ length: 3 }, () => sample(random, people, 3 + Math.floor(random() * 2)).map((p) => p.key));
  // Channels weighted by how many people follow them, so that busy channels are busy.
  const channelPool = channels.flatMap((c) => Array<DemoChannel>(subscribers.get(c.key)!.length).fill(c));

  const messages: DemoMessage[] = [];
  for (let position = 1; position <= DEMO_MESSAGE_COUNT; position++) {
    const previous = messages.at(-1);
    let address: DemoAddress;
    if (position === DOCUMENTED_MESSAGE.position) {
      address = { type: 'channel', channel: DOCUMENTED_MESSAGE.channel, topic: DOCUMENTED_MESSAGE.topic };
    } else if (previous && random() < STICKINESS && (previous.address.type === 'channel' || position > CHANNEL_ONLY_OPENING)) {
      address = previous.address;
    } else {
      const roll = position > CHANNEL_ONLY_OPENING ? random() : 1;
      if (roll < GROUP_DIRECT_SHARE) address = { type: 'direct', people: pick(random, groups) };
      else if (roll < GROUP_DIRECT_SHARE + DIRECT_SHARE) address = { type: 'direct', people: pick(random, pairs) };
      else {
        const channel = pick(random, channelPool);
        address = { type: 'channel', channel: channel.key, topic: pick(random, channel.topics) };
      }
    }
    const audience =
      address.type === 'channel' ? subscribers.get(address.channel)! : address.people.map((key) => byKey.get(key)!);
    const sender = pick(random, audience);
    const others = audience.filter((p) => p !== sender);
    const content = compose(random, others, channelNames);
    const reactions: Array<[string, string]> = [];
    if (random() < 0.2) {
      for (const reactor of sample(random, audience, 1 + Math.floor(random() * Math.min(4, audience.length)))) {
        for (const emoji of sample(random, EMOJI, 1 + Math.floor(random() * 2))) reactions.push([reactor.key, emoji]);
      }
    }
    messages.push({ sender: sender.key, address, content, reactions });
  }
  return messages;
}
