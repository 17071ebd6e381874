/**
 * The arrival storm of the day (bench/day.ts) alone: everyone of the day's organization calls
 * POST /register as the web client does (subscribers included, as the day asks) at a random
 * moment within the first seconds, and does nothing else. It tells what registrations cost and
 * how long they wait when nothing else competes for the server.
 *
 *   npm run build && node --import tsx bench/register-storm.ts --people 1000 --arrival 10
 *     --people N     people in the organization, all of them registering (default 1000)
 *     --arrival S    everyone registers within these first seconds (default 10)
 *     --profile DIR  run the server with --cpu-prof, writing its profile into DIR
 *     --bundle FILE  the server script (default dist/stoa.js)
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WEB_CLIENT_REGISTRATION } from '../web/register-params';
import { processCpuSeconds, startOnDayOrganization } from './day-organization';

const { values: args } = parseArgs({
  options: {
    people: { type: 'string', default: '1000' },
    arrival: { type: 'string', default: '10' },
    profile: { type: 'string' },
    bundle: { type: 'string', default: path.join(__dirname, '..', 'dist', 'stoa.js') },
  },
});

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function main(): Promise<void> {
  const bundle = path.resolve(args.bundle);
  const { url, pid, organization, stop } = await startOnDayOrganization(Number(args.people), bundle, args.profile);
  const form = { ...WEB_CLIENT_REGISTRATION, include_subscribers: true };
  const body = new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  const arrivalMs = Number(args.arrival) * 1000;
  const loadBefore = loadavg()[0];
  const cpuBefore = processCpuSeconds(pid);
  const started = performance.now();
  const clientCpuBefore = process.cpuUsage();
  const failures: string[] = [];
  const answers = await Promise.all(
    organization.people.map(async (person) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * arrivalMs));
      const sent = performance.now();
      try {
        const response = await fetch(`${url}/api/v1/register`, {
          method: 'POST',
          headers: { Authorization: `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        // Read as bytes, not decoded: one client process takes in the whole crowd's answers.
        const bytes = (await response.arrayBuffer()).byteLength;
        if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
        return { ms: performance.now() - sent, bytes, sentAt: sent - started };
      } catch (err) {
        failures.push(String(err));
        return null;
      }
    }),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = processCpuSeconds(pid) - cpuBefore;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  await stop();

  const answered = answers.filter((a) => a !== null);
  const times = answered.map((a) => a.ms).sort((a, b) => a - b);
  const fixed = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(0));
  console.log(`${organization.people.length} registrations within ${args.arrival} s against ${path.relative(process.cwd(), bundle)}`);
  console.log(`answered ${answered.length}, failed ${failures.length}${failures.length ? ` (${failures[0]})` : ''}`);
  console.log(`latency: p50 ${fixed(percentile(times, 0.5))} ms, p99 ${fixed(percentile(times, 0.99))} ms, max ${fixed(times.at(-1))} ms; answer ${(answered[0]?.bytes ?? 0) / 1024 | 0} KB`);
  const slowest = [...answered].sort((a, b) => b.ms - a.ms).slice(0, 10);
  console.log(`the ten slowest were sent ${slowest.map((a) => (a.sentAt / 1000).toFixed(1)).join(', ')} s into the storm`);
  console.log(`server CPU: ${cpu.toFixed(1)} s over ${wallSeconds.toFixed(1)} s, ${((cpu * 1000) / organization.people.length).toFixed(1)} ms a registration`);
  // One client process for the whole crowd: if it is near a core, latencies are partly its own.
  console.log(`this client's CPU: ${((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)} s`);
  console.log(`machine load average: ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
