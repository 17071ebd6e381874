import basicAuth from 'express-basic-auth';
import type { RequestHandler } from 'express';
import { hasApiKeyFormat, sameSecret } from '../auth/credentials';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { ApiError, invalidApiKey, unauthorized, userDeactivated } from './errors';

declare module 'express-serve-static-core' {
  interface Request {
    /** The authenticated caller, set by `authenticate` on endpoints that need one. */
    user?: UserRow;
  }
}

/** Checks one email:api_key pair; returns the account or the error Zulip gives for it. */
export function checkApiKey(stoa: Stoa, email: string, apiKey: string): UserRow | ApiError {
  // Zulip forgives stray whitespace around either half.
  email = email.trim();
  apiKey = apiKey.trim();
  if (!hasApiKeyFormat(apiKey)) return invalidApiKey('Malformed API key');
  const user = stoa.users.byAnyEmail(email);
  // Compare even when there is no such user, so timing does not reveal which emails exist.
  const matches = sameSecret(apiKey, user?.api_key ?? 'x'.repeat(apiKey.length));
  if (!user || !matches || user.is_system_bot) return invalidApiKey();
  if (!user.is_active) return userDeactivated();
  return user;
}

/**
 * HTTP Basic authentication with the account's email and API key. express-basic-auth parses
 * the header and answers failures with 401 and the Basic challenge; the body says why, in
 * Zulip's words and codes.
 */
export function authenticate(stoa: Stoa): RequestHandler {
  return (req, res, next) => {
    // Made only when needed: an Error captures a stack trace, too dear for every request.
    let failure: ApiError | undefined;
    // The authorizer only sees the credentials, so this request's outcome is kept in a closure.
    const middleware = basicAuth({
      authorizer: (email: string, apiKey: string) => {
        const outcome = checkApiKey(stoa, email, apiKey);
        if (outcome instanceof ApiError) {
          failure = outcome;
          return false;
        }
        req.user = outcome;
        return true;
      },
      challenge: true,
      realm: 'zulip',
      unauthorizedResponse: () =>
        (failure ?? (req.headers.authorization ? unauthorized('Invalid authorization header for basic auth') : unauthorized())).body(),
    });
    middleware(req, res, next);
  };
}
