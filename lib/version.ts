/**
 * The API feature level Stoa claims, in one place. Clients gate features on it, so it must be
 * the level whose behaviour we implement: our specification describes Zulip's API up to
 * feature level 420 (the end-to-end-encrypted test notification), newer than Zulip 10.2's
 * 372, so we claim 420. Where 10.2 and the specification differ, the specification wins.
 */
export const ZULIP_FEATURE_LEVEL = 420;

/**
 * Level 420 was reached while Zulip 11.0 was in development, hence a "-dev" version: clients
 * that parse the version see an 11.0 pre-release, and the suffix says which server this is.
 */
export const ZULIP_VERSION = '11.0-dev-stoa';
export const ZULIP_MERGE_BASE = ZULIP_VERSION;
