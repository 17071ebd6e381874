import type { IncomingMessage } from 'node:http';
import { isZulipMobileApp } from '../http/client-name';
import { badRequest } from '../http/errors';
import { emojiCodeByName, emojiNameByCode, ZULIP_EXTRA_EMOJI } from '../markdown/emoji';

/**
 * The emoji namespaces of the specification. `service_extra_emoji` is what Zulip calls
 * `zulip_extra_emoji`; we answer with the specification's name and accept either.
 */
export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';

const REACTION_TYPE_ALIASES: Record<string, string> = { zulip_extra_emoji: 'service_extra_emoji' };

/**
 * Which name the Zulip emoji's type goes by in what a client reads. The specification's name
 * is the default; Zulip's own mobile apps know only Zulip's name and refuse a message, an
 * event or a whole initial state that carries another, so they are answered in theirs.
 * Chosen once per request (or per event queue, at registration) and passed down with the
 * other knobs of presentation, never by rewriting JSON text.
 */
export type ReactionTypeNames = 'specification' | 'zulip';

/** The names for a request: Zulip's for Zulip's mobile apps, the specification's for everyone else. */
export function reactionTypeNamesFor(req: IncomingMessage): ReactionTypeNames {
  return isZulipMobileApp(req) ? 'zulip' : 'specification';
}

/** A stored reaction type as a client reading `names` must see it. */
export function presentReactionType(stored: string, names: ReactionTypeNames): string {
  return names === 'zulip' && stored === 'service_extra_emoji' ? 'zulip_extra_emoji' : stored;
}

/** An emoji a user picked (for a reaction or a status). The type is as the client sent it until checked. */
export interface EmojiChoice<Type extends string = ReactionType> {
  name: string;
  code: string;
  reactionType: Type;
}

/** A reaction type a client sent, under the name we store; unknown types are left for checkEmoji. */
export function storedReactionType(requested: string): string {
  return REACTION_TYPE_ALIASES[requested] ?? requested;
}

/** The organization's custom emoji, as checking a choice needs them. */
export interface CustomEmojiLookup {
  byId(id: number): { id: number; name: string; deactivated: 0 | 1 } | undefined;
  activeByName(name: string): { id: number } | undefined;
}

/**
 * The code and type an emoji name stands for, when a client sends only the name: an active
 * custom emoji first (its name hides a built-in one, as on Zulip), then the Zulip emoji, then
 * a Unicode emoji of the emoji data.
 */
function emojiByName(name: string, custom: CustomEmojiLookup): { code: string; reactionType: ReactionType } {
  const realm = custom.activeByName(name);
  if (realm) return { code: String(realm.id), reactionType: 'realm_emoji' };
  if (name === ZULIP_EXTRA_EMOJI.name) return { code: ZULIP_EXTRA_EMOJI.code, reactionType: 'service_extra_emoji' };
  const code = emojiCodeByName(name);
  if (code === null) throw badRequest(`Emoji '${name}' does not exist`);
  return { code, reactionType: 'unicode_emoji' };
}

/**
 * Fills in what the client left out, the code or the type or both, from the name. What the
 * client gave is kept even where the name alone would say otherwise, as Zulip does.
 */
export function completeEmoji(
  custom: CustomEmojiLookup,
  name: string,
  code: string | undefined,
  reactionType: string | undefined,
): EmojiChoice<string> {
  const type = reactionType === undefined ? undefined : storedReactionType(reactionType);
  if (code !== undefined && type !== undefined) return { name, code, reactionType: type };
  const found = emojiByName(name, custom);
  return { name, code: code ?? found.code, reactionType: type ?? found.reactionType };
}

/**
 * THE ONE PLACE an emoji choice is checked, for reactions and status alike; answers the
 * choice with its type known to be one of ours. A Unicode emoji is identified by its code,
 * and its name must be one of that emoji's names, aliases included, as on Zulip. A custom emoji
 * is identified by its ID, must go by its own name, and must not be deactivated: what already
 * shows a deactivated one keeps it, but nothing new may use it.
 */
export function checkEmoji(custom: CustomEmojiLookup, choice: EmojiChoice<string>): EmojiChoice {
  const { name, code, reactionType } = choice;
  switch (reactionType) {
    case 'unicode_emoji':
      if (emojiNameByCode(code) === null) throw invalidEmojiCode();
      if (emojiCodeByName(name) !== code) throw invalidEmojiName();
      return { name, code, reactionType };
    case 'service_extra_emoji':
      if (code !== ZULIP_EXTRA_EMOJI.code) throw invalidEmojiCode();
      if (name !== code) throw invalidEmojiName();
      return { name, code, reactionType };
    case 'realm_emoji': {
      const emoji = /^\d{1,15}$/.test(code) ? custom.byId(Number(code)) : undefined;
      if (!emoji) throw badRequest('Invalid custom emoji.');
      if (emoji.name !== name) throw badRequest('Invalid custom emoji name.');
      if (emoji.deactivated) throw badRequest('This custom emoji has been deactivated.');
      return { name, code, reactionType };
    }
    default:
      throw badRequest('Invalid emoji type.');
  }
}

// With the closing period of Zulip's source (zulip.yaml's example drops it).
function invalidEmojiCode() {
  return badRequest('Invalid emoji code.');
}

function invalidEmojiName() {
  return badRequest('Invalid emoji name.');
}
