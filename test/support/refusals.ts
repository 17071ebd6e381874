import assert from 'node:assert/strict';

/**
 * What a refused request answered (its status, code and words), for tests that pin Zulip's
 * permission refusals, and the refusals many endpoints share, as Zulip's source words them.
 */
export async function refusal(response: Promise<{ status: number; body: any }>): Promise<{ status: number; code: string; msg: string }> {
  const { status, body } = await response;
  assert.equal(body.result, 'error', JSON.stringify(body));
  return { status, code: body.code, msg: body.msg };
}

export const ADMIN_REQUIRED = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };
export const OWNER_REQUIRED = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' };
export const INSUFFICIENT = { status: 400, code: 'BAD_REQUEST', msg: 'Insufficient permission' };
export const NOT_FOR_GUESTS = { status: 400, code: 'BAD_REQUEST', msg: 'Not allowed for guest users' };
