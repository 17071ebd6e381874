import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { authenticate } from './http/auth';
import { ApiError } from './http/errors';
import { bodyJson } from './http/json';
import { parseBody, requestParams } from './http/params';
import { ROUTES, type Method, type Route } from './http/routes';
import { compileParams } from './http/validate';
import type { Stoa } from './stoa';

export const API_PREFIX = '/api/v1';

export interface AppOptions {
  /** Receives one line per finished request; defaults to stdout. */
  log?: (line: string) => void;
}

/** Logs method, path (never the query string, which may hold credentials), status and time. */
function requestLog(log: (line: string) => void) {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    const path = req.originalUrl.split('?')[0];
    const done = () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const status = res.writableFinished ? String(res.statusCode) : 'closed';
      log(`${req.method} ${path} ${status} ${ms.toFixed(1)}ms`);
    };
    res.once('close', done);
    next();
  };
}

function routeHandler(stoa: Stoa, route: Route) {
  const { endpoint } = route;
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const parse = compileParams<unknown>(endpoint.params, pathParams);
  const patterns = Object.entries(endpoint.pathPatterns ?? {});

  return async (req: Request, res: Response, next: NextFunction) => {
    // A path parameter that does not fit belongs to a later route with the same shape.
    for (const [name, pattern] of patterns) {
      if (!pattern.test(String(req.params[name]))) return next('route');
    }
    const { params, ignored } = parse(requestParams(req), req.params as Record<string, string>);
    const call = { stoa, params, req, res, user: req.user! };
    const data = await endpoint.view(call);
    if (res.headersSent) return; // the view answered by itself
    const body: Record<string, unknown> = { result: 'success', msg: '', ...data };
    if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
    // Straight to Node: one fan-out answers thousands of polls, and Express's send adds
    // nothing a JSON body needs (no ETag, no freshness); Node sets Content-Length.
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(bodyJson(body));
  };
}

function notFound(): ApiError {
  return new ApiError('BAD_REQUEST', 'Not Found', 404);
}

/** The one renderer of error bodies; anything that is not an ApiError is our bug, answered 500. */
function errorHandler(log: (line: string) => void) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let error: ApiError;
    if (err instanceof ApiError) {
      error = err;
    } else {
      log(`error: ${req.method} ${req.originalUrl.split('?')[0]}: ${(err as Error)?.stack ?? String(err)}`);
      error = new ApiError('INTERNAL_SERVER_ERROR', 'Internal server error', 500);
    }
    if (res.headersSent) return void res.end();
    res.status(error.status).set(error.headers).json(error.body());
  };
}

/** The Express application for one server; it never listens by itself. */
export function createApp(stoa: Stoa, options: AppOptions = {}): express.Express {
  const log = options.log ?? ((line: string) => console.log(line));
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestLog(log));

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
  app.use(errorHandler(log));
  return app;
}
