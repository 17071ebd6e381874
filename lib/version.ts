/**
 * The API feature level Stoa claims, in one place. Clients gate features on it, so it is the
 * level up to which every change of Zulip's API changelog is implemented: 420, the end-to-end-
 * encrypted test notification of Zulip 11.0's development. test/api-coverage.test.ts walks the
 * changelog and fails if an endpoint of a claimed level has no route. Zulip 12 (488) is the target.
 */
export const ZULIP_FEATURE_LEVEL = 420;

/**
 * Level 420 was reached while Zulip 11.0 was in development, hence a "-dev" version: clients
 * that parse the version see an 11.0 pre-release, and the suffix says which server this is.
 */
export const ZULIP_VERSION = '11.0-dev-stoa';
export const ZULIP_MERGE_BASE = ZULIP_VERSION;
