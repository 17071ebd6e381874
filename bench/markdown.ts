/**
 * How long the Markdown renderer takes per message. Run: npx tsx bench/markdown.ts
 * Each sample is about 200 characters of what people type in chat. Plain markdown-it (with
 * linkify) renders the same samples alongside, as a yardstick for how loaded the machine is.
 */
import MarkdownIt from 'markdown-it';
import { renderMarkdown, type MarkdownContext } from '../lib/markdown/render';

const context: MarkdownContext = {
  usersByName: (name) => (name.toLowerCase() === 'king hamlet' ? [{ id: 10, fullName: 'King Hamlet' }] : []),
  userById: (id) => (id === 10 ? { id: 10, fullName: 'King Hamlet' } : null),
  groupByName: (name) => (name === 'support' ? { id: 3, name: 'support' } : null),
  channelByName: (name) => (name.toLowerCase() === 'denmark' ? { id: 1, name: 'Denmark' } : null),
  realmEmoji: () => null,
  linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/issue/{id}' }],
  alertWords: ['deploy', 'outage'],
  realmUrl: 'http://127.0.0.1:9991',
};

const samples: Record<string, string> = {
  plain:
    'Morning all. I looked at the failing build again and I think the cache key changed when we bumped the compiler; clearing it locally fixed things for me, so let us try that on the runners before anything else.',
  formatted:
    '@**King Hamlet** the **deploy** of `api-server` is done :tada: see #**Denmark>releases** and https://example.com/notes for details.\n* fixed #123\n* *faster* startup\n* ~~old flag~~ removed',
  code: 'Try this:\n```python\ndef speak(self):\n    return "To be or not to be"\n```\nand tell me whether `speak()` still fails on the staging box after the restart, thanks! 👍',
  math: 'The energy is $$E = mc^2$$ and the flux is $$\\Phi_E = \\oint E \\cdot dA$$, which matches what @*support* measured yesterday, so I think we are fine.',
};

const ROUNDS = 5000;
const yardstick = new MarkdownIt({ linkify: true, breaks: true });

/** CPU time rather than wall time, so that other processes on a busy machine count less. */
function microsecondsPerCall(render: () => unknown): number {
  for (let i = 0; i < 500; i++) render();
  const start = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) render();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / ROUNDS;
}

for (const [name, content] of Object.entries(samples)) {
  const ours = microsecondsPerCall(() => renderMarkdown(content, context));
  const plain = microsecondsPerCall(() => yardstick.render(content));
  console.log(
    `${name.padEnd(10)} ${String(content.length).padStart(4)} chars  ${ours.toFixed(1).padStart(7)} µs per message` +
      `  (plain markdown-it: ${plain.toFixed(1)} µs)`,
  );
}
