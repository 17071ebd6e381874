import { UnsupportedEvent } from './errors';
import { capitalize, pythonStr, truthy } from './payload';
import type { Integration } from './types';

/**
 * Stripe's events ("charge.succeeded", "customer.subscription.updated" ...). The topic is the
 * customer where the object names one; events Stripe sends that say little to a team (Connect,
 * balances, orders ...) are accepted and ignored.
 */

type Payload = any;

/** Accepted and ignored: not worth a message. */
class Suppressed extends Error {}

/** Object ID prefixes: the name shown and the dashboard's path, if it has a page. */
const OBJECTS: Record<string, [string, string | null]> = {
  ch: ['Charge', 'charges'],
  cus: ['Customer', 'customers'],
  dp: ['Dispute', 'disputes'],
  du: ['Dispute', 'disputes'],
  file: ['File', 'files'],
  link: ['File link', 'file_links'],
  pi: ['Payment intent', 'payment_intents'],
  po: ['Payout', 'payouts'],
  prod: ['Product', 'products'],
  re: ['Refund', 'refunds'],
  tok: ['Token', 'tokens'],
  ba: ['Bank account', null],
  card: ['Card', null],
  src: ['Source', null],
  in: ['Invoice', 'invoices'],
  ii: ['Invoice item', 'invoiceitems'],
  sub: ['Subscription', 'subscriptions'],
  si: ['Subscription item', 'subscription_items'],
  mbur: ['Usage record', null],
  py: ['Payment', 'payments'],
  pyr: ['Refund', 'refunds'],
};

const ZERO_DECIMAL_CURRENCIES = new Set(['bif', 'djf', 'jpy', 'krw', 'pyg', 'vnd', 'xaf', 'xpf', 'clp', 'gnf', 'kmf', 'mga', 'rwf', 'vuv', 'xof']);

/** Categories Stripe has that the integration accepts without a message. */
const IGNORED_CATEGORIES = new Set([
  'application_fee',
  'balance',
  'checkout_beta',
  'coupon',
  'payment_intent',
  'payout',
  'plan',
  'product',
  'recipient',
  'reporting',
  'review',
  'sigma',
  'sku',
  'source',
  'subscription_schedule',
  'topup',
  'transfer',
]);

function linked(id: string, lower = false): string {
  const known = OBJECTS[id.split('_')[0]];
  if (!known) throw new TypeError(`unknown Stripe object ${id}`);
  const name = lower ? known[0].toLowerCase() : known[0];
  return known[1] === null ? name : `[${name}](https://dashboard.stripe.com/${known[1]}/${id})`;
}

function amount(cents: number, currency: string): string {
  const decimal = ZERO_DECIMAL_CURRENCIES.has(currency) ? String(cents) : (cents * 0.01).toFixed(2);
  return currency === 'usd' ? `$${decimal}` : `${decimal} ${currency.toUpperCase()}`;
}


/** Values that look like Unix times (2017 to 2033) are shown as dates. */
function shown(value: unknown): string {
  if (typeof value === 'number' && Number.isInteger(value) && value > 1500000000 && value < 2000000000) {
    const date = new Date(value * 1000);
    const month = date.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
    const time = date.toISOString().slice(11, 19);
    return `${month} ${String(date.getUTCDate()).padStart(2, '0')}, ${date.getUTCFullYear()}, ${time} UTC`;
  }
  return pythonStr(value);
}

function describe(p: Payload): { topic: string; body: string } {
  const type: string = p.type;
  const parts = type.split('.');
  const [category, resource, event] = parts.length === 3 ? parts : [parts[0], parts[0], parts[1]];
  const object = p.data.object;
  let topic: string = typeof object.customer === 'string' ? object.customer : '';
  let body: string | null = null;

  const changes = (ignored: readonly string[] = []): string => {
    const changed = Object.keys(p.data.previous_attributes).filter((key) => !ignored.includes(key));
    if (changed.length === 0) throw new Suppressed();
    return changed
      .sort()
      .map((key) => `\n* ${capitalize(key.replace(/_/g, ' '))} is now ${shown(object[key])}`)
      .join('');
  };
  const standard = (ignored: readonly string[] = []): string => {
    const text = `${linked(object.id)} ${event.replace(/_/g, ' ')}`;
    return event === 'updated' ? text + changes(ignored) : text;
  };

  if (category === 'account') {
    if (resource !== 'account') throw new Suppressed();
    if (event === 'updated') {
      if (!('previous_attributes' in p.data)) throw new Suppressed();
      topic = 'account updates';
      body = changes();
    }
  }
  if (IGNORED_CATEGORIES.has(category) || category.startsWith('issuing') || category.startsWith('order')) throw new Suppressed();
  if (category === 'charge') {
    if (resource === 'charge') {
      if (!topic) topic = 'charges';
      body = `${linked(object.id)} for ${amount(object.amount, object.currency)} ${event}`;
      if (truthy(object.failure_code)) body += `. Failure code: ${object.failure_code}`;
    } else if (resource === 'dispute') {
      topic = 'disputes';
      body = `${standard()}. Current status: ${String(object.status).replace(/_/g, ' ')}.`;
    } else if (resource === 'refund') {
      topic = 'refunds';
      body = `A ${linked(object.id, true)} for a ${linked(object.charge, true)} of ${amount(object.amount, object.currency)} was updated.`;
    }
  }
  if (category === 'customer') {
    if (resource === 'customer') {
      topic = object.id;
      body = standard(['delinquent', 'currency', 'default_source']);
      if (event === 'created') {
        if (truthy(object.email)) body += `\nEmail: ${object.email}`;
        if (truthy(object.metadata)) for (const [key, value] of Object.entries(object.metadata)) body += `\n${key}: ${value}`;
      }
    } else if (resource === 'discount') {
      const coupon = object.coupon;
      body = `Discount ${event.replace(/_/g, ' ')} ([${coupon.name}](https://dashboard.stripe.com/coupons/${coupon.id})).`;
    } else if (resource === 'source') body = standard();
    else if (resource === 'subscription') {
      body = standard();
      if (event === 'trial_will_end') {
        const day = 24 * 60 * 60;
        body += ` in ${Math.floor((object.trial_end - Date.now() / 1000 + day / 2) / day)} days`;
      }
      if (event === 'created') {
        if (truthy(object.plan)) {
          const plan = object.plan;
          body += plan.nickname != null ? `\nPlan: [${plan.nickname}](https://dashboard.stripe.com/plans/${plan.id})` : `\nPlan: https://dashboard.stripe.com/plans/${plan.id}`;
        }
        if (truthy(object.quantity)) body += `\nQuantity: ${object.quantity}`;
        if ('billing' in object) body += `\nBilling method: ${String(object.billing).replace(/_/g, ' ')}`;
      }
    }
  }
  if (category === 'file') {
    topic = 'files';
    body = `${standard()} (${String(object.purpose).replace(/_/g, ' ')}). \nTitle: ${object.title}`;
  }
  if (category === 'invoice') {
    const before = p.data.previous_attributes;
    if (event === 'upcoming') body = 'Upcoming invoice created';
    else if (event === 'updated' && before?.paid === false && object.paid === true && object.amount_paid !== 0 && object.amount_remaining === 0) {
      body = `[Invoice](https://dashboard.stripe.com/invoices/${object.id}) is now paid`;
    } else body = standard(['lines', 'description', 'number', 'finalized_at', 'status_transitions', 'payment_intent']);
    if (event === 'created') {
      const reason = String(object.billing_reason).replace(/_/g, ' ');
      body += ` (${reason})\nTotal: ${amount(object.total, object.currency)}\nAmount due: ${amount(object.amount_due, object.currency)}`;
    }
  }
  if (category === 'invoiceitem') {
    body = standard(['description', 'invoice']);
    if (event === 'created') body += ` for ${amount(object.amount, object.currency)}`;
  }
  if (body === null) throw new UnsupportedEvent(type);
  return { topic, body };
}

export const stripe: Integration = {
  name: 'stripe',
  displayName: 'Stripe',
  // Zulip's list, with its repetitions, as its /register gives it.
  eventTypes: [
    'charge.dispute.closed', 'charge.dispute.created', 'charge.failed', 'charge.succeeded', 'charge.succeeded',
    'customer.created', 'customer.created', 'customer.deleted', 'customer.discount.created', 'customer.subscription.created',
    'customer.subscription.deleted', 'customer.subscription.trial_will_end', 'customer.subscription.updated', 'customer.updated',
    'invoice.created', 'invoice.updated', 'invoice.payment_failed', 'invoiceitem.created', 'charge.refund.updated',
    'charge.refund.updated',
  ],
  handle(request) {
    const p = request.json();
    try {
      const { topic, body } = describe(p);
      return { topic, content: body, event: p.type };
    } catch (err) {
      if (err instanceof Suppressed) return null;
      throw err;
    }
  },
};
