import { UnsupportedEvent } from './errors';
import type { Integration } from './types';

/** Patreon's membership webhooks, named by the X-Patreon-Event header, in one topic. */

type Payload = any;

const attributes = (p: Payload) => p.data.attributes;
const name = (p: Payload): string => attributes(p).full_name;
const charge = (p: Payload): string | null => attributes(p).last_charge_status ?? null;
const patronStatus = (p: Payload): string | null => attributes(p).patron_status ?? null;
const dollars = (p: Payload): number => attributes(p).currently_entitled_amount_cents / 100;
const campaign = (p: Payload) => p.included[0].attributes;
/** Only "Paid" is a successful charge; null means not charged yet. */
const paidOrPending = (p: Payload) => charge(p) === 'Paid' || charge(p) === null;

/** Each event's message, or null for one that says nothing worth a message (a declined charge ...). */
const BODIES: Record<string, (p: Payload) => string | null> = {
  'members:create': (p) => (charge(p) === null && patronStatus(p) === null ? `${name(p)} has joined as a member!` : null),
  'members:update': (p) =>
    paidOrPending(p) && ['active_patron', 'former_patron'].includes(patronStatus(p) ?? '')
      ? `${name(p)}'s membership has been updated to ${String(patronStatus(p)).replace(/_/g, ' ')}.`
      : null,
  'members:delete': (p) => (paidOrPending(p) && patronStatus(p) !== 'declined_patron' ? `${name(p)}'s membership has ended.` : null),
  'members:pledge:create': (p) =>
    paidOrPending(p) && dollars(p) > 0
      ? `${name(p)} has pledged $${dollars(p).toFixed(2)} per ${campaign(p).pay_per_name}. :tada:\nTotal number of patrons: ${campaign(p).patron_count}`
      : null,
  'members:pledge:update': (p) =>
    paidOrPending(p) && dollars(p) > 0 ? `${name(p)} has updated their pledge to $${dollars(p).toFixed(2)} per ${campaign(p).pay_per_name}. :gear:` : null,
  'members:pledge:delete': (p) =>
    paidOrPending(p) || charge(p) === 'Deleted' ? `${name(p)}'s pledge has been cancelled. :cross_mark:\nTotal number of patrons: ${campaign(p).patron_count}` : null,
};

/** Patreon's deprecated events, accepted and ignored. */
const IGNORED = new Set(['pledges:create', 'pledges:update', 'pledges:delete']);

export const patreon: Integration = {
  name: 'patreon',
  displayName: 'Patreon',
  handle(request) {
    const p = request.json();
    const event = request.requireHeader('X-Patreon-Event');
    if (IGNORED.has(event)) return null;
    const body = BODIES[event];
    if (!body) throw new UnsupportedEvent(event);
    const content = body(p);
    return content === null ? null : { topic: 'membership notifications', content, event };
  },
};
