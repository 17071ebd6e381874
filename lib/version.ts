/**
 * The API feature level Stoa claims, in one place. Clients gate features on it, so it is the
 * level up to which every change of Zulip's API changelog is implemented: 488, Zulip 12.0's
 * first beta. test/api-coverage.test.ts walks the changelog and fails if an endpoint of a
 * claimed level has no route.
 */
export const ZULIP_FEATURE_LEVEL = 488;

/**
 * Level 488 is Zulip 12.0-beta1's, hence that version: clients that parse the version see a
 * 12.0 pre-release, and the suffix says which server this is.
 */
export const ZULIP_VERSION = '12.0-beta1-stoa';
export const ZULIP_MERGE_BASE = ZULIP_VERSION;
