/**
 * What an incoming webhook costs next to an ordinary send. A GitHub push of 20 commits goes to
 * /api/v1/external/github as GitHub sends it (JSON body, event header, the bot's key in the
 * query); the ordinary send is POST /messages by the same bot with exactly the text the webhook
 * posted, to the same topic. The two alternate, one request at a time, so that the machine's
 * noise falls on both alike; latency is measured by the client, and the ratio of the medians
 * is the figure to read.
 *
 *   node --import tsx bench/webhooks.ts [--requests 500] [--warmup 50] [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Api, percentile } from './api';
import { BENCH_OWNER, startBenchStoa } from './message-server';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '500' },
    warmup: { type: 'string', default: '50' },
    json: { type: 'boolean', default: false },
  },
});
const REQUESTS = Number(args.requests);
const WARMUP = Number(args.warmup);
const CHANNEL = 'commits';
const COMMITS = 20;

/** A push of COMMITS commits to main, in GitHub's shape. */
function githubPush(): string {
  const commits = Array.from({ length: COMMITS }, (_, i) => ({
    id: i.toString(16).padStart(40, '0'),
    url: `https://github.com/acme/shop/commit/${i.toString(16).padStart(40, '0')}`,
    message: `Change number ${i + 1}\n\nWhy it was made, at some length, as commit messages go.`,
    author: { username: 'octocat', name: 'Octo Cat' },
  }));
  return JSON.stringify({
    ref: 'refs/heads/main',
    compare: 'https://github.com/acme/shop/compare/0000000...0000013',
    deleted: false,
    forced: false,
    created: false,
    repository: { name: 'shop', private: false },
    sender: { login: 'octocat' },
    pusher: { name: 'octocat' },
    commits,
  });
}

/** One POST with a raw body, timed from the first byte sent to the last byte received. */
function timedPost(agent: http.Agent, url: URL, headers: Record<string, string>, body: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const elapsed = performance.now() - started;
        if (res.statusCode !== 200) reject(new Error(`${url.pathname}: ${res.statusCode} ${Buffer.concat(chunks).toString()}`));
        else resolve(elapsed);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function main(): Promise<void> {
  const data = mkdtempSync(path.join(tmpdir(), 'stoa-bench-webhooks-'));
  const running = await startBenchStoa(data);
  const api = new Api(running.url);
  try {
    const owner = Api.authHeader(await api.login(BENCH_OWNER.email, BENCH_OWNER.password));
    const bot = await api.call('POST', '/bots', owner, { full_name: 'GitHub', short_name: 'github', bot_type: 2 });
    await api.call('POST', '/users/me/subscriptions', owner, { subscriptions: [{ name: CHANNEL }], principals: [bot.user_id] });
    const botEmail = (await api.call('GET', `/users/${bot.user_id}`, owner)).user.email as string;
    const botAuth = Api.authHeader({ email: botEmail, apiKey: bot.api_key });

    const hookUrl = new URL(`/api/v1/external/github?${new URLSearchParams({ api_key: bot.api_key, stream: CHANNEL })}`, running.url);
    const hookHeaders = { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push' };
    const push = githubPush();
    await timedPost(api.agent, hookUrl, hookHeaders, push);
    // The ordinary send carries exactly what the webhook posted.
    const newest = await api.call('GET', '/messages', owner, { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: CHANNEL }] });
    const posted = newest.messages[0] as { subject: string; content: string };
    const sendUrl = new URL('/api/v1/messages', running.url);
    const sendHeaders = { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: botAuth };
    const sendBody = new URLSearchParams({ type: 'stream', to: CHANNEL, topic: posted.subject, content: posted.content }).toString();

    const hook: number[] = [];
    const send: number[] = [];
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      // Which goes first alternates too, so neither always follows the other.
      const pair = i % 2 === 0 ? [true, false] : [false, true];
      for (const isHook of pair) {
        const ms = isHook ? await timedPost(api.agent, hookUrl, hookHeaders, push) : await timedPost(api.agent, sendUrl, sendHeaders, sendBody);
        if (i >= WARMUP) (isHook ? hook : send).push(ms);
      }
    }
    const summary = {
      date: new Date().toISOString(),
      cpus: cpus().length,
      requests: REQUESTS,
      commits: COMMITS,
      messageChars: posted.content.length,
      webhook: { p50: percentile(hook, 50), p99: percentile(hook, 99) },
      send: { p50: percentile(send, 50), p99: percentile(send, 99) },
      ratioP50: percentile(hook, 50) / percentile(send, 50),
      ratioP99: percentile(hook, 99) / percentile(send, 99),
    };
    if (args.json) console.log(JSON.stringify(summary));
    else {
      const ms = (value: number) => `${value.toFixed(2)} ms`;
      console.log(`GitHub push of ${COMMITS} commits (${summary.messageChars} characters posted), ${REQUESTS} requests each, ${summary.cpus} CPUs`);
      console.log(`  webhook        p50 ${ms(summary.webhook.p50)}  p99 ${ms(summary.webhook.p99)}`);
      console.log(`  ordinary send  p50 ${ms(summary.send.p50)}  p99 ${ms(summary.send.p99)}`);
      console.log(`  webhook / send p50 ${summary.ratioP50.toFixed(2)}  p99 ${summary.ratioP99.toFixed(2)}`);
    }
  } finally {
    api.close();
    await running.close();
    rmSync(data, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
