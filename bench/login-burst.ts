/**
 * The server's memory while several password logins arrive at once: each password hash
 * (scrypt, N = 2^15) holds 32 MB while it runs. Starts each bundle given on a fresh data
 * folder, waits 3 s, sends 8 logins with wrong passwords at once and prints the RSS before and
 * its peak (sampled every 5 ms from /proc).
 *
 *   npm run build && npx tsx bench/login-burst.ts dist/stoa.js [dist/other.js ...]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
(async () => {
  for (const bundle of process.argv.slice(2)) {
    const data = mkdtempSync(path.join(tmpdir(), 'lb-'));
    const child = spawn('node', [bundle, '--data', data, '--port', '0', '--admin-password', 'secret-pass-1'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const url: string = await new Promise((resolve) => child.stdout!.on('data', (d) => { out += d; const m = /listening on (\S+)/.exec(out); if (m) resolve(m[1]); }));
    await new Promise((r) => setTimeout(r, 3000));
    const pid = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim() || child.pid);
    const before = rss(pid);
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 5);
    await Promise.all(Array.from({ length: 8 }, () => fetch(`${url}/api/v1/fetch_api_key`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `username=owner%40stoa.local&password=wrong-${Math.random()}` })));
    clearInterval(timer);
    console.log(`${path.basename(bundle)}: RSS before ${before.toFixed(1)} MB, peak during 8 logins at once ${peak.toFixed(1)} MB`);
    child.kill();
  }
})();
