/**
 * Reads a V8 CPU profile (node --cpu-prof) and prints where the time went: the functions with
 * the most time of their own, and the functions whose calls (children included) took the most.
 *
 *   node --import tsx bench/profile-summary.ts <file.cpuprofile> [--top N] [--under NAME]
 *
 * With --under, only the samples taken inside a call of a function of that name count (for
 * example `--under register`: what one kind of request spends its time on).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' }, under: { type: 'string' } } });
const profile: Profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const top = Number(values.top);

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const name = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.split('/').slice(-2).join('/');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
};

// Each sample's time goes to its node (self) and, once per distinct function, to every caller (total).
const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
const inside = (id: number) => {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    if (byId.get(at)!.callFrame.functionName === values.under) return true;
  }
  return false;
};
profile.samples.forEach((id, i) => {
  const ms = (profile.timeDeltas[i] ?? 0) / 1000;
  if (values.under !== undefined && !inside(id)) return;
  all += ms;
  const node = byId.get(id)!;
  self.set(name(node), (self.get(name(node)) ?? 0) + ms);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const key = name(byId.get(at)!);
    if (seen.has(key)) continue;
    seen.add(key);
    total.set(key, (total.get(key) ?? 0) + ms);
  }
});

const idle = self.get('(idle)') ?? 0;
console.log(`${(all / 1000).toFixed(1)} s sampled, ${((all - idle) / 1000).toFixed(1)} s busy (${(((all - idle) / all) * 100).toFixed(0)}%)\n`);
const print = (title: string, table: Map<string, number>) => {
  console.log(title);
  for (const [key, ms] of [...table].filter(([key]) => key !== '(idle)' && key !== '(root)').sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((ms / (all - idle)) * 100).toFixed(1).padStart(6)}%  ${(ms / 1000).toFixed(2).padStart(7)} s  ${key}`);
  }
  console.log();
};
print('self time (share of busy time):', self);
print('total time, callees included:', total);
