/**
 * What single requests cost the server in the day's organization (bench/day.ts), one at a
 * time, so that nothing competes: the server's CPU per request from /proc, which holds on a
 * shared machine far better than latencies do. Run it for two bundles alternately and compare
 * medians (bench/RESULTS.md).
 *
 *   npm run build && node --import tsx bench/request-costs.ts --kinds presence,register,view,send
 *     --people N     the organization's size (default 1000)
 *     --count N      requests of each kind, by as many different people (default 200;
 *                    presence reports always come from everyone, filling the presence table)
 *     --kinds LIST   in order: presence (a report), register (as the web client, subscribers
 *                    included), view (around the first unread, 50 each way), send (to a
 *                    channel with everyone), react (an emoji on the newest message there)
 *     --profile DIR  run the server with --cpu-prof, writing its profile into DIR
 *     --bundle FILE  the server script (default dist/stoa.js)
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WEB_CLIENT_REGISTRATION } from '../web/register-params';
import { processCpuSeconds, startOnDayOrganization, type DayPerson } from './day-organization';

const { values: args } = parseArgs({
  options: {
    people: { type: 'string', default: '1000' },
    count: { type: 'string', default: '200' },
    kinds: { type: 'string', default: 'presence,register,view,send' },
    profile: { type: 'string' },
    bundle: { type: 'string', default: path.join(__dirname, '..', 'dist', 'stoa.js') },
  },
});

const encode = (form: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();

async function main(): Promise<void> {
  const bundle = path.resolve(args.bundle);
  const { url, pid, organization, stop } = await startOnDayOrganization(Number(args.people), bundle, args.profile);
  const auth = (person: DayPerson) => `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString('base64')}`;
  const form = 'application/x-www-form-urlencoded';
  const everyoneChannel = organization.channels[0].id;
  let reactedTo: number | undefined;
  const requests: Record<string, (person: DayPerson, i: number) => Promise<Response>> = {
    presence: (person) =>
      fetch(`${url}/api/v1/users/me/presence`, {
        method: 'POST',
        headers: { Authorization: auth(person), 'Content-Type': form },
        body: encode({ status: 'active', new_user_input: true, slim_presence: true, last_update_id: 1 }),
      }),
    register: (person) =>
      fetch(`${url}/api/v1/register`, {
        method: 'POST',
        headers: { Authorization: auth(person), 'Content-Type': form },
        body: encode({ ...WEB_CLIENT_REGISTRATION, include_subscribers: true }),
      }),
    view: (person) =>
      fetch(`${url}/api/v1/messages?${encode({ anchor: 'first_unread', num_before: 50, num_after: 50, narrow: [], apply_markdown: true, client_gravatar: false })}`, {
        headers: { Authorization: auth(person) },
      }),
    react: async (person) => {
      // The newest message of the channel with everyone, as the day's people react to.
      reactedTo ??= (
        (await (
          await fetch(`${url}/api/v1/messages?${encode({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: everyoneChannel }] })}`, {
            headers: { Authorization: auth(person) },
          })
        ).json()) as { messages: Array<{ id: number }> }
      ).messages[0]!.id;
      return fetch(`${url}/api/v1/messages/${reactedTo}/reactions`, {
        method: 'POST',
        headers: { Authorization: auth(person), 'Content-Type': form },
        body: encode({ emoji_name: 'octopus' }),
      });
    },
    send: (person, i) =>
      fetch(`${url}/api/v1/messages`, {
        method: 'POST',
        headers: { Authorization: auth(person), 'Content-Type': form },
        body: encode({ type: 'stream', to: everyoneChannel, topic: 'costs', content: `message ${i} of the cost probe` }),
      }),
  };
  console.log(`${path.relative(process.cwd(), bundle)}, ${organization.people.length} people; load average ${loadavg()[0].toFixed(2)}`);
  for (const kind of args.kinds!.split(',')) {
    const request = requests[kind];
    if (!request) throw new Error(`unknown kind ${kind}`);
    const people = kind === 'presence' ? organization.people : organization.people.slice(0, Number(args.count));
    const before = processCpuSeconds(pid);
    for (let i = 0; i < people.length; i++) {
      const response = await request(people[i], i);
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${kind}: ${response.status} ${text.slice(0, 200)}`);
    }
    console.log(`${kind}: ${people.length} one at a time, ${(((processCpuSeconds(pid) - before) * 1000) / people.length).toFixed(2)} ms of server CPU each`);
  }
  console.log(`load average ${loadavg()[0].toFixed(2)}`);
  await stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
