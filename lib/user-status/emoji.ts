import { badRequest } from '../http/errors';

/** The emoji namespaces of the specification; `service_extra_emoji` is Zulip's `zulip_extra_emoji`. */
export const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'] as const;

/** The built-in extra emoji, named by themselves. */
const EXTRA_EMOJI = new Set(['zulip']);

/** Unicode emoji codes: dash-separated hex code points, as in 1f697 or 1f468-200d-1f4bb. */
const UNICODE_EMOJI_CODE = /^[0-9a-f]{1,6}(-[0-9a-f]{1,6})*$/;
const EMOJI_NAME = /^[a-z0-9_+-]+$/;

/**
 * THE ONE PLACE status emoji are checked. Loose for now: it checks the shape of the name and
 * code, not that they name a real emoji, and cannot find a code from a name alone. Switch it
 * to the emoji data of lib/markdown/emoji.ts once that exists: look up the code when only a
 * name is given, and refuse names and codes that do not match. No custom emoji exist yet, so
 * `realm_emoji` is always refused.
 */
export function checkStatusEmoji(
  name: string,
  code: string | undefined,
  reactionType: string | undefined,
): { code: string; reactionType: string } {
  if (!EMOJI_NAME.test(name)) throw badRequest(`Emoji '${name}' does not exist`);
  const type = reactionType ?? 'unicode_emoji';
  if (code === undefined) {
    if (type === 'service_extra_emoji' && EXTRA_EMOJI.has(name)) return { code: name, reactionType: type };
    throw badRequest(`Emoji '${name}' does not exist`);
  }
  switch (type) {
    case 'unicode_emoji':
      if (!UNICODE_EMOJI_CODE.test(code)) throw badRequest('Invalid emoji code');
      break;
    case 'service_extra_emoji':
      if (!EXTRA_EMOJI.has(code)) throw badRequest('Invalid emoji code');
      if (name !== code) throw badRequest('Invalid emoji name.');
      break;
    case 'realm_emoji':
      throw badRequest('Invalid custom emoji.');
    default:
      throw badRequest('Invalid emoji type.');
  }
  return { code, reactionType: type };
}
