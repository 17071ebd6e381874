import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../lib/http/errors';
import { ACCOUNT_ROUTES, ROUTES } from '../lib/http/routes';
import { compileParams } from '../lib/http/validate';

// Schemas compile when an endpoint is first called, so a schema the validator refuses would
// otherwise only show up then: this compiles every one of them.
test('every endpoint’s parameter schema compiles, and parsing nothing gives an API error or success', () => {
  for (const route of [...ROUTES, ...ACCOUNT_ROUTES]) {
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    const parse = compileParams(route.endpoint.params, pathParams);
    const path = Object.fromEntries(pathParams.map((name) => [name, '1']));
    try {
      parse(new Map(), path);
    } catch (error) {
      assert.ok(error instanceof ApiError, `${route.method} ${route.path}: ${String(error)}`);
    }
  }
});
