/**
 * The one error type of the API. Views and actions throw it for anything a client did
 * wrong; the error middleware in app.ts is the only place that turns it into a response.
 */
export class ApiError extends Error {
  constructor(
    /** Zulip's machine-readable error code, e.g. BAD_REQUEST. */
    readonly code: string,
    message: string,
    readonly status = 400,
    /** Extra body fields Zulip sends with some codes, e.g. var_name or queue_id. */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    // As Zulip's json_response_from_error: an "error" answered with a 2xx status (an
    // unsupported webhook event) is a success whose msg says why nothing happened.
    const result = this.status >= 200 && this.status < 300 ? 'success' : 'error';
    return { result, msg: this.message, code: this.code, ...this.extra };
  }
}

/** The generic client error: Zulip's JsonableError. */
export function badRequest(message: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError('BAD_REQUEST', message, 400, extra);
}

export function missingArgument(name: string): ApiError {
  return new ApiError('REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, 400, { var_name: name });
}

/** Zulip answers every authentication failure on /api paths with this challenge header. */
const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="zulip"' };

export function unauthorized(
  message = 'Not logged in: API authentication or user session required',
): ApiError {
  return new ApiError('UNAUTHORIZED', message, 401, {}, BASIC_CHALLENGE);
}

/**
 * Zulip's challenge on /json paths, which take the session cookie: a scheme browsers do not
 * know, so a refused request never opens the browser's password dialog.
 */
const SESSION_CHALLENGE = { 'WWW-Authenticate': 'Session realm="zulip"' };

/** The refusal of a request that needs a browser session and came without a valid one. */
export function sessionRequired(): ApiError {
  return new ApiError('UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401, {}, SESSION_CHALLENGE);
}

/** An error for a path that takes the session cookie: its Basic challenge, if any, becomes the session one. */
export function withSessionChallenge(err: unknown): unknown {
  if (!(err instanceof ApiError) || !err.headers['WWW-Authenticate']) return err;
  return new ApiError(err.code, err.message, err.status, err.extra, { ...err.headers, ...SESSION_CHALLENGE });
}

/** Django's CSRF refusal, in the words Zulip answers it with; `reason` says what was wrong. */
export function csrfFailed(reason: string): ApiError {
  return new ApiError('CSRF_FAILED', `CSRF error: ${reason}`, 403);
}

/** Too many attempts: wait this many seconds (in the body and in Retry-After). */
export function rateLimited(seconds: number): ApiError {
  return new ApiError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429, { 'retry-after': seconds }, { 'Retry-After': String(seconds) });
}

export function realmDeactivated(): ApiError {
  return new ApiError('REALM_DEACTIVATED', 'This organization has been deactivated', 401);
}

export function invalidApiKey(message = 'Invalid API key'): ApiError {
  return new ApiError('INVALID_API_KEY', message, 401, {}, BASIC_CHALLENGE);
}

export function userDeactivated(): ApiError {
  return new ApiError('USER_DEACTIVATED', 'Account is deactivated', 401, {}, BASIC_CHALLENGE);
}

export function authenticationFailed(): ApiError {
  return new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
}

/** Zulip reports a missing organization role with this code and a 400 status. */
export function administratorRequired(): ApiError {
  return new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
}

/**
 * Zulip's refusal of an action a role or a group setting does not allow (acting on another
 * person, a bot or a group, or what an organization permission gates): 400, BAD_REQUEST.
 */
export function insufficientPermission(): ApiError {
  return badRequest('Insufficient permission');
}

/** The refusal of an action only organization owners may take. */
export function ownerRequired(): ApiError {
  return new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
}
