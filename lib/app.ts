import type { RequestListener } from 'node:http';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { authenticate } from './http/auth';
import { compileEndpoint } from './http/endpoint';
import { ApiError } from './http/errors';
import { longPollListener } from './http/long-poll';
import { parseBody, requestParams } from './http/params';
import { logRequest, pathOf, sendError, type Log } from './http/respond';
import { API_PREFIX, ROUTES, type Method, type Route } from './http/routes';
import type { Stoa } from './stoa';

function routeHandler(stoa: Stoa, route: Route) {
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const run = compileEndpoint(stoa, route.endpoint, pathParams);
  const patterns = Object.entries(route.endpoint.pathPatterns ?? {});

  return (req: Request, res: Response, next: NextFunction) => {
    // A path parameter that does not fit belongs to a later route with the same shape.
    for (const [name, pattern] of patterns) {
      if (!pattern.test(String(req.params[name]))) return next('route');
    }
    return run(req, res, req.user, requestParams(req), req.params as Record<string, string>);
  };
}

function notFound(): ApiError {
  return new ApiError('BAD_REQUEST', 'Not Found', 404);
}

/**
 * What the HTTP server runs for every request: the request log, then the long-poll path for
 * GET /events and the Express application for everything else.
 */
export function createRequestListener(stoa: Stoa, log: Log): RequestListener {
  const serve = longPollListener(stoa, createApp(stoa, log), log);
  return (req, res) => {
    logRequest(req, res, log);
    // Refused here, before either path routes it: Express would fail decoding a path
    // parameter deep in its router, and the long-poll path compares the raw path.
    const undecodable = undecodablePath(req.url);
    if (undecodable) return sendError(req, res, undecodable, log);
    serve(req, res);
  };
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

/** The Express application for one server; it never listens by itself. */
function createApp(stoa: Stoa, log: Log): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  const api = express.Router({ caseSensitive: true, strict: false });
  api.use(parseBody);
  const routes = ROUTES.filter((route) => !route.devOnly || stoa.config.dev);
  const auth = authenticate(stoa);
  for (const route of routes) {
    const method = route.method.toLowerCase() as Lowercase<Method>;
    const handlers = route.endpoint.auth ? [auth, routeHandler(stoa, route)] : [routeHandler(stoa, route)];
    api[method](route.path, ...handlers);
  }
  // A known path with a method it does not have: 405 and the methods it does have.
  const methodsByPath = new Map<string, Method[]>();
  for (const route of routes) methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
  for (const [path, methods] of methodsByPath) {
    api.all(path, () => {
      throw new ApiError('BAD_REQUEST', 'Method Not Allowed', 405, { allowed_methods: methods }, { Allow: methods.join(', ') });
    });
  }
  api.use(() => {
    throw notFound();
  });

  app.use(API_PREFIX, api);
  app.use(() => {
    throw notFound();
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => sendError(req, res, err, log));
  return app;
}
