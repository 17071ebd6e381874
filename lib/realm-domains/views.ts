import type { StateContext } from '../events/state-context';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { removeRealmDomain, setRealmDomain } from './actions';
import { presentRealmDomain } from './queries';
import { requireOwner } from '../users/access';

/** Why a domain is no domain, in Zulip's words; undefined for a good one. */
function domainProblem(domain: string): string | undefined {
  if (domain === '') return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (domain.length > 255) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (label === '') return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return undefined;
}

function requireDomain(stoa: Stoa, domain: string): string {
  if (!stoa.realmDomains.get(domain)) throw badRequest(`No entry found for domain ${domain}.`);
  return domain;
}

function domainsOf(stoa: Stoa): Record<string, unknown>[] {
  return stoa.realmDomains.all().map(presentRealmDomain);
}

export const getRealmDomains = endpoint({
  params: NO_PARAMS,
  view: ({ stoa }) => ({ domains: domainsOf(stoa) }),
});

export const addRealmDomainView = endpoint<{ domain: string; allow_subdomains: boolean }>({
  params: {
    properties: { domain: { type: 'string' }, allow_subdomains: { type: 'boolean' } },
    required: ['domain', 'allow_subdomains'],
  },
  authorize: requireOwner,
  view: ({ stoa, params }) => {
    const domain = params.domain.trim().toLowerCase();
    const problem = domainProblem(domain);
    if (problem) throw badRequest(`Invalid domain: ${problem}`);
    if (stoa.realmDomains.get(domain)) throw badRequest(`The domain ${domain} is already a part of your organization.`);
    setRealmDomain(stoa, domain, params.allow_subdomains, 'add');
    return { new_domain: [stoa.realmDomains.get(domain)!.id, domain] };
  },
});

export const updateRealmDomainView = endpoint<{ domain: string; allow_subdomains: boolean }>({
  params: {
    properties: { domain: { type: 'string' }, allow_subdomains: { type: 'boolean' } },
    required: ['domain', 'allow_subdomains'],
  },
  authorize: requireOwner,
  view: ({ stoa, params }) => {
    setRealmDomain(stoa, requireDomain(stoa, params.domain), params.allow_subdomains, 'change');
    return {};
  },
});

export const removeRealmDomainView = endpoint<{ domain: string }>({
  params: { properties: { domain: { type: 'string' } }, required: ['domain'] },
  authorize: requireOwner,
  view: ({ stoa, params }) => {
    removeRealmDomain(stoa, requireDomain(stoa, params.domain));
    return {};
  },
});

/** Register state for fetch type `realm_domains`. */
export function realmDomainsState({ stoa }: StateContext): Record<string, unknown> {
  return { realm_domains: domainsOf(stoa) };
}
