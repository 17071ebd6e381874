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
 *                    channel with everyone)
 *     --profile DIR  run the server with --cpu-prof, writing its profile into DIR
 *     --bundle FILE  the server script (default dist/stoa.js)
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WEB_CLIENT_REGISTRATION } from '../web/register-params';
import { dayOrganization, dayShape, type DayPerson } from './day-organization';

const { values: args } = parseArgs({
  options: {
    people: { type: 'string', default: '1000' },
    count: { type: 'string', default: '200' },
    kinds: { type: 'string', default: 'presence,register,view,send' },
    profile: { type: 'string' },
    bundle: { type: 'string', default: path.join(__dirname, '..', 'dist', 'stoa.js') },
  },
});

/** CPU milliseconds (user + system) the process has used, from /proc (ticks of 1/100 s). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const encode = (form: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();

async function main(): Promise<void> {
  const bundle = path.resolve(args.bundle);
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build first`);
  const { data: cached, organization } = await dayOrganization(dayShape(Number(args.people)));
  const data = mkdtempSync(path.join(tmpdir(), 'stoa-costs-'));
  cpSync(cached, data, { recursive: true });
  const logFile = path.join(data, 'server.log');
  const flags = ['--max-old-space-size=256', '--max-semi-space-size=8', ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [])];
  const server = spawn('sh', ['-c', `exec node ${flags.join(' ')} "$0" --data "$1" --port 0 > "$2" 2>&1`, bundle, data, logFile], { stdio: 'ignore' });
  let url: string | undefined;
  while (!url) {
    url = /Stoa is listening on (\S+)/.exec(existsSync(logFile) ? readFileSync(logFile, 'utf8') : '')?.[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const auth = (person: DayPerson) => `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString('base64')}`;
  const form = 'application/x-www-form-urlencoded';
  const everyoneChannel = organization.channels[0].id;
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
    const before = cpuMs(server.pid!);
    for (let i = 0; i < people.length; i++) {
      const response = await request(people[i], i);
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${kind}: ${response.status} ${text.slice(0, 200)}`);
    }
    console.log(`${kind}: ${people.length} one at a time, ${((cpuMs(server.pid!) - before) / people.length).toFixed(2)} ms of server CPU each`);
  }
  console.log(`load average ${loadavg()[0].toFixed(2)}`);
  server.kill('SIGTERM');
  await new Promise((resolve) => server.on('exit', resolve));
  rmSync(data, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
