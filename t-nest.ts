import { renderMarkdown } from './lib/markdown/render';
const context = { usersByName: () => [], userById: () => null, groupByName: () => null, channelByName: () => null, realmEmoji: () => null, linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{id}' }], alertWords: ['foo'], realmUrl: 'http://h' } as any;
const N = 10000;
const inputs: Record<string, string> = {
  brackets: '['.repeat(N), brackets2: '['.repeat(N) + ']'.repeat(N) , parens: '[a]('.repeat(N), stars: '*'.repeat(N), starsx: '*a'.repeat(N), under: '_'.repeat(N),
  backticks: '`'.repeat(N), backtickPairs: '`a'.repeat(N), quotes: '>'.repeat(N), quotesLines: '>\n'.repeat(N), math: '$$'.repeat(N), mathx: '$$a'.repeat(N), colons: ':'.repeat(N), colonsx: ':a'.repeat(N),
  tildes: '~~'.repeat(N), tildesx: '~~a'.repeat(N), mentions: '@**'.repeat(N), channels: '#**'.repeat(N), time: '<time:'.repeat(N), lt: '<'.repeat(N), lists: Array.from({length: 2000}, (_, i) => ' '.repeat(i) + '- a').join('\n'),
  olists: Array.from({length: 2000}, (_, i) => ' '.repeat(i*2) + '1. a').join('\n'), fences: '```quote\n'.repeat(N), fences2: '```\n'.repeat(N), spoilers: '```spoiler a\n'.repeat(3000),
  links: 'http://a.com/'.repeat(N), emails: 'a@b.co '.repeat(N), hashes: '#1 '.repeat(N), emph: '**a '.repeat(N), mixed: '[*`>$$:~~@**#**'.repeat(1000), tables: '|a|\n'.repeat(N), headings: '#'.repeat(N), bang: '!['.repeat(N), entity: '&#'.repeat(N), backslash: '\\'.repeat(N), angle: '<http://'.repeat(N),
  emoji: '😀'.repeat(N), emoticon: ':) '.repeat(N), nestedLinks: '['.repeat(N) + 'a' + '](b)'.repeat(N),
};
for (const [name, text] of Object.entries(inputs)) {
  const t0 = performance.now();
  try { renderMarkdown(text, context, { translateEmoticons: true }); } catch (e) { console.log(name, 'THREW', String(e).slice(0, 200)); }
  const ms = performance.now() - t0;
  console.log(name.padEnd(14), text.length, ms.toFixed(0));
}
