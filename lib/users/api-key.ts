import { generateApiKey } from '../auth/credentials';
import { regenerateBotApiKey } from '../bots/actions';
import { write } from '../events/send';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import type { Stoa } from '../stoa';

/**
 * Gives a person a new API key; the old one stops working at once. Their legacy push
 * registrations go with it, as on Zulip: the phones that held the old key are signed out.
 */
function regenerateApiKey(stoa: Stoa, userId: number): string {
  return write(stoa, () => {
    const apiKey = generateApiKey();
    stoa.users.setApiKey(userId, apiKey);
    for (const token of stoa.push.tokensOfUser(userId)) stoa.push.deleteToken(token.id);
    return apiKey;
  });
}

/** POST /users/me/api_key/regenerate; a bot regenerating its own key is announced to its owner, as any bot key change is. */
export const regenerateOwnApiKeyView = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => ({ api_key: user.is_bot ? regenerateBotApiKey(stoa, user.id) : regenerateApiKey(stoa, user.id) }),
});
