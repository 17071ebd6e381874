import type { RequestListener } from 'node:http';
import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { EMOJI_DATA_FOLDER, serveEmojiData } from './emoji/data';
import { serveZulipEmojiImage, ZULIP_EMOJI_IMAGE_PATH } from './emoji/zulip-image';
import { serveRealmEmoji } from './realm-emoji/serve';
import { discardFiles } from './uploads/receive';
import { serveTemporaryUpload, serveThumbnail, serveUpload, thumbnailOfUrlView } from './uploads/serve';
import { redirectToAvatar, serveAvatar, serveDefaultAvatar, serveInaccessibleUserAvatar } from './users/avatar-views';
import { INACCESSIBLE_USER_AVATAR_PATH } from './users/access';
import { DEFAULT_AVATAR_PATH, USER_AVATARS_PATH } from './users/avatars';
import { serveRealmImage } from './realm/images';
import {
  authenticate,
  authenticateEither,
  authenticateEitherOrSpectator,
  authenticateSession,
  authenticateSessionOrSpectator,
} from './http/auth';
import { webPublicChannelsEnabled } from './realm/settings-store';
import { compileEndpoint } from './http/endpoint';
import { ApiError, withSessionChallenge } from './http/errors';
import { isLongPoll, longPollListener } from './http/long-poll';
import { parseBody, parseBodyOrJson, parseBodyWithFiles, requestParams } from './http/params';
import { pathOf, requestLogger, sendError, type Log } from './http/respond';
import { mountAccountPages } from './mail/pages';
import { ACCOUNT_ROUTES, ACCOUNTS_PREFIX, API_PREFIX, JSON_PREFIX, ROUTES, type Method, type Route } from './http/routes';
import { refuseWhileDeactivated } from './realm/deactivation';
import type { Stoa } from './stoa';
import { EXPORTS_URL_PATH } from './export/present';
import { serveExport } from './export/views';
import { mountWebClient } from './web/serve';
import { WEBHOOK_PATH, webhookHandler } from './integrations/view';
import { healthView } from './health/views';
import type { Turns } from './http/turns';

function routeHandler(stoa: Stoa, route: Route) {
  const pathParams = [...route.path.matchAll(/[:*](\w+)/g)].map((m) => m[1]);
  const run = compileEndpoint(stoa, route.endpoint, pathParams);
  const patterns = Object.entries(route.endpoint.pathPatterns ?? {});

  return (req: Request, res: Response, next: NextFunction) => {
    // A path parameter that does not fit belongs to a later route with the same shape.
    for (const [name, pattern] of patterns) {
      if (!pattern.test(String(req.params[name]))) return next('route');
    }
    return run(req, res, req.user, requestParams(req), pathParamsOf(req));
  };
}

/**
 * The endpoint's check of the caller, for a route that takes a file, made before the body is
 * read: someone who may not call it at all is refused (as Zulip's decorators refuse them
 * first) without their file ever being written.
 */
function authorizeBeforeBody(stoa: Stoa, route: Route): RequestHandler {
  const authorize = route.endpoint.authorize;
  return (req, _res, next) => {
    try {
      if (authorize && req.user) authorize(req.user, stoa);
    } catch (err) {
      return next(err);
    }
    next();
  };
}

/**
 * A route that takes a file: a request refused before its view runs (its parameters) leaves
 * no file behind. Views remove the files they do not keep themselves.
 */
function fileRouteHandler(stoa: Stoa, route: Route) {
  const handler = routeHandler(stoa, route);
  return (req: Request, res: Response, next: NextFunction) => {
    try {
      return handler(req, res, next);
    } catch (err) {
      void discardFiles(req).finally(() => next(err));
    }
  };
}

/** Path parameters as text: Express 5 hands a wildcard (`*name`) over as its segments. */
function pathParamsOf(req: Request): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.params as Record<string, string | string[]>)) {
    params[name] = Array.isArray(value) ? value.join('/') : value;
  }
  return params;
}

function notFound(): ApiError {
  return new ApiError('BAD_REQUEST', 'Not Found', 404);
}

/**
 * What the HTTP server runs for every request: the request log, then the long-poll path for
 * GET /events and the Express application for everything else. Registrations, which take
 * long, wait in line and are served a few a turn of the event loop (lib/http/turns.ts).
 */
export function createRequestListener(stoa: Stoa, log: Log, turns: Turns): RequestListener {
  const serve = longPollListener(stoa, createApp(stoa, log), log);
  const logRequest = requestLogger(log, isLongPoll);
  return (req, res) => {
    logRequest(req, res);
    // Refused here, before either path routes it: Express would fail decoding a path
    // parameter deep in its router, and the long-poll path compares the raw path.
    const undecodable = undecodablePath(req.url);
    if (undecodable) return sendError(req, res, undecodable, log);
    if (!isRegistration(req.method, pathOf(req.url))) return serve(req, res);
    turns.wait(() => {
      // A client that gave up while it waited is not answered.
      if (!req.socket.destroyed) serve(req, res);
      return res;
    });
  };
}

/** POST /register, by an API client or the browser. */
function isRegistration(method: string | undefined, path: string): boolean {
  return method === 'POST' && (path === `${API_PREFIX}/register` || path === `${JSON_PREFIX}/register`);
}

/**
 * A path whose percent-encoding does not decode (a "%" without two hex digits, or bytes that
 * are not UTF-8, such as an encoded surrogate) names nothing: it is the client's mistake.
 */
function undecodablePath(url: string | undefined): ApiError | undefined {
  const path = pathOf(url);
  if (!path.includes('%')) return undefined;
  try {
    decodeURIComponent(path);
    return undefined;
  } catch {
    return new ApiError('BAD_REQUEST', 'Malformed URL: the path is not valid percent-encoded UTF-8', 400);
  }
}

/**
 * Each path of the route table with the methods it has, in the table's order. A `:name`
 * segment matches what Express matches there (one or more characters other than "/"), and a
 * trailing slash is optional, as in the router (not strict).
 */
function allowedMethods(routes: readonly Route[]): Array<{ pattern: RegExp; methods: Method[] }> {
  const methodsByPath = new Map<string, Method[]>();
  for (const route of routes) methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
  return [...methodsByPath].map(([path, methods]) => {
    const source = path
      .split('/')
      .map((segment) =>
        segment.startsWith(':') ? '[^/]+' : segment.startsWith('*') ? '.+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    return { pattern: new RegExp(`^${source}/?$`), methods };
  });
}

/**
 * One route table as an Express router, its authenticated endpoints behind `auth`: the same
 * table serves API clients (HTTP Basic) and the browser (session cookie).
 */
function routeTable(
  stoa: Stoa,
  table: readonly Route[],
  auth: RequestHandler,
  bodyParser: RequestHandler = parseBody,
  /** Authentication for the endpoints spectators may use, where this table lets them in. */
  spectatorAuth: RequestHandler = auth,
): express.Router {
  const api = express.Router({ caseSensitive: true, strict: false });
  const routes = table.filter((route) => !route.devOnly || stoa.config.dev);
  // Routes that take a file come first, with their own body parser, after authentication: no
  // stranger's file is ever written.
  for (const route of routes) {
    const receiver = route.endpoint.fileReceiver;
    if (!receiver) continue;
    const method = route.method.toLowerCase() as Lowercase<Method>;
    api[method](route.path, auth, authorizeBeforeBody(stoa, route), parseBodyWithFiles(() => receiver(stoa)), fileRouteHandler(stoa, route));
  }
  api.use(bodyParser);
  // One handler per route, authentication included: Express compiles a path pattern for every
  // handler it is given, and those compilations were most of the start-up's routing cost.
  for (const route of routes) {
    if (route.endpoint.fileReceiver) continue;
    const method = route.method.toLowerCase() as Lowercase<Method>;
    const handler = routeHandler(stoa, route);
    const routeAuth = route.endpoint.spectators ? spectatorAuth : auth;
    const authenticated = (req: Request, res: Response, next: NextFunction) => {
      // Authentication is synchronous; the handler's promise goes back to Express, which
      // renders its rejection.
      let result: unknown;
      routeAuth(req, res, (err?: unknown) => {
        result = err === undefined ? handler(req, res, next) : next(err);
      });
      return result;
    };
    api[method](route.path, route.endpoint.auth ? authenticated : handler);
  }
  // A known path with a method it does not have: 405 and the methods it does have. Matched
  // by our own patterns, made when a request first falls through, not at start-up.
  let allowed: Array<{ pattern: RegExp; methods: Method[] }> | undefined;
  api.use((req: Request) => {
    allowed ??= allowedMethods(routes);
    const found = allowed.find(({ pattern }) => pattern.test(req.path));
    if (!found) throw notFound();
    const { methods } = found;
    throw new ApiError('BAD_REQUEST', 'Method Not Allowed', 405, { allowed_methods: methods }, { Allow: methods.join(', ') });
  });
  return api;
}

/** Paths the browser reaches with its session cookie never answer with a Basic challenge. */
function sessionChallenges(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  next(withSessionChallenge(err));
}

/** The Express application for one server; it never listens by itself. */
function createApp(stoa: Stoa, log: Log): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  const auth = authenticate(stoa);
  const sessionAuth = authenticateSession(stoa);
  app.get('/health', healthView(stoa));
  // A deactivated organization answers nothing but /server_settings.
  const whileDeactivated = refuseWhileDeactivated(stoa);
  for (const prefix of [API_PREFIX, JSON_PREFIX, ACCOUNTS_PREFIX, '/user_uploads', '/user_avatars', '/avatar']) {
    app.use(prefix, whileDeactivated);
  }
  // Incoming webhooks read their bodies their own way (JSON, XML, text), so they come first.
  app.all(`${API_PREFIX}${WEBHOOK_PATH}`, webhookHandler(stoa));
  app.use(API_PREFIX, routeTable(stoa, ROUTES, auth));
  // Spectators (no account) reach their few endpoints under /json only, as on Zulip, whose
  // /api/v1 still asks for credentials there.
  app.use(JSON_PREFIX, routeTable(stoa, ROUTES, sessionAuth, parseBody, authenticateSessionOrSpectator(stoa)), sessionChallenges);
  // The pages links in emails open (password reset, email change, unsubscribe), under /accounts too.
  mountAccountPages(app, stoa);
  app.use(ACCOUNTS_PREFIX, routeTable(stoa, ACCOUNT_ROUTES, sessionAuth, parseBodyOrJson), sessionChallenges);
  app.get(`${EMOJI_DATA_FOLDER}/:file`, serveEmojiData);
  app.get(ZULIP_EMOJI_IMAGE_PATH, serveZulipEmojiImage);
  app.get('/user_avatars/:realm_id/emoji/images/*path', serveRealmEmoji(stoa));
  app.get(`${USER_AVATARS_PATH}/:realm_id/:file`, serveAvatar(stoa));
  app.get(`${USER_AVATARS_PATH}/:realm_id/realm/:file`, serveRealmImage(stoa));
  app.get(DEFAULT_AVATAR_PATH, serveDefaultAvatar);
  app.get(INACCESSIBLE_USER_AVATAR_PATH, serveInaccessibleUserAvatar);
  app.get('/user_uploads/temporary/:token/:filename', serveTemporaryUpload(stoa));
  // Images in messages are fetched by the browser itself, with its cookies.
  const fileAuth = authenticateEither(stoa);
  // Uploads linked from web-public channels, and avatars by user ID, are open to spectators
  // too, as on Zulip.
  const spectatorFileAuth = authenticateEitherOrSpectator(stoa, () => webPublicChannelsEnabled(stoa));
  // Zulip lets anyone ask for an upload: a visitor whom its links do not admit is sent to log in.
  const uploadAuth = authenticateEitherOrSpectator(stoa, () => true);
  app.get('/user_uploads/thumbnail/*path', uploadAuth, serveThumbnail(stoa));
  // Zulip's /thumbnail is at the root only, like /user_uploads, and for the same reason.
  app.get('/thumbnail', uploadAuth, routeHandler(stoa, { method: 'GET', path: '/thumbnail', endpoint: thumbnailOfUrlView }));
  app.get(`${EXPORTS_URL_PATH}/:folder/:file`, fileAuth, serveExport(stoa));
  app.get('/user_uploads/download/:realm_id/*path', uploadAuth, serveUpload(stoa, true));
  app.get('/user_uploads/:realm_id/*path', uploadAuth, serveUpload(stoa));
  app.get('/avatar/:email_or_id', spectatorFileAuth, redirectToAvatar(stoa, false));
  app.get('/avatar/:email_or_id/medium', spectatorFileAuth, redirectToAvatar(stoa, true));
  mountWebClient(app, stoa);
  app.use(() => {
    throw notFound();
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => sendError(req, res, err, log));
  return app;
}
