import { sendEvent, write } from '../events/send';
import { updateRealm } from '../realm/settings-actions';
import { realmSetting } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { presentRealmDomain } from './queries';

/** Adds a domain or changes one; everyone in the organization hears of it. */
export function setRealmDomain(stoa: Stoa, domain: string, allowSubdomains: boolean, op: 'add' | 'change'): void {
  write(stoa, () => {
    stoa.realmDomains.set(domain, allowSubdomains);
    const realmDomain = presentRealmDomain(stoa.realmDomains.get(domain)!);
    sendEvent(stoa, { type: 'realm_domains', op, realm_domain: realmDomain }, stoa.users.activeIds());
  });
}

/**
 * Removes a domain. Without any domain left, a restriction to the listed domains would admit
 * nobody, so it is lifted, as on Zulip.
 */
export function removeRealmDomain(stoa: Stoa, domain: string): void {
  write(stoa, () => {
    stoa.realmDomains.remove(domain);
    sendEvent(stoa, { type: 'realm_domains', op: 'remove', domain }, stoa.users.activeIds());
    if (stoa.realmDomains.all().length === 0 && realmSetting(stoa, 'realm_emails_restricted_to_domains') === true) {
      updateRealm(stoa, { settings: [{ key: 'realm_emails_restricted_to_domains', value: false }], groupSettings: [] });
    }
  });
}
