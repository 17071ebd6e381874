import { relayConfigured } from '../push/relay';
import { createHash } from 'node:crypto';
import { NO_PARAMS, publicEndpoint } from '../http/endpoint';
import type { Stoa } from '../stoa';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../version';

/** An organization without an uploaded icon gets a provider-hosted identicon, as on Zulip. */
export function realmIconUrl(stoa: Stoa): string {
  const hash = createHash('md5').update(`realm:${stoa.site}`).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}

/** Which login methods exist: passwords always, the development login only with --dev. */
function authenticationMethods(stoa: Stoa): Record<string, boolean> {
  return {
    password: true,
    dev: stoa.config.dev,
    email: true,
    ldap: false,
    remoteuser: false,
    github: false,
    azuread: false,
    gitlab: false,
    apple: false,
    google: false,
    saml: false,
    'openid connect': false,
  };
}

/** What a client learns before logging in: the server's version and how to log in. */
export const serverSettings = publicEndpoint({
  params: NO_PARAMS,
  view: ({ stoa }) => {
    const realm = stoa.realm.get()!;
    return {
      authentication_methods: authenticationMethods(stoa),
      external_authentication_methods: [],
      zulip_feature_level: ZULIP_FEATURE_LEVEL,
      zulip_version: ZULIP_VERSION,
      zulip_merge_base: ZULIP_MERGE_BASE,
      push_notifications_enabled: relayConfigured(stoa),
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_uri: stoa.site,
      realm_url: stoa.site,
      realm_name: realm.name,
      realm_icon: realmIconUrl(stoa),
      // Descriptions are rendered once Markdown exists; an empty one renders as empty.
      realm_description: realm.description,
      realm_web_public_access_enabled: false,
    };
  },
});
