import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../http/errors';
import { sendSuccess } from '../http/respond';
import type { Stoa } from '../stoa';

/**
 * GET /health, for monitoring and load balancers, as Zulip has it: no credentials, success
 * when the server can answer from its database, otherwise a 500 with the code
 * SERVER_NOT_READY and what failed. It answers while the organization is deactivated too:
 * the process is still healthy.
 */
export function healthView(stoa: Stoa) {
  let statement: { get(): unknown } | undefined;
  return (_req: Request, res: Response, next: NextFunction): void => {
    try {
      statement ??= stoa.db.prepare('SELECT id FROM realm LIMIT 1');
      if (statement.get() === undefined) return next(new ApiError('SERVER_NOT_READY', 'Database is empty', 500));
    } catch {
      return next(new ApiError('SERVER_NOT_READY', 'Cannot query the database', 500));
    }
    res.setHeader('Cache-Control', 'no-store');
    sendSuccess(res, {}, []);
  };
}
