import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { markdownContextFor } from '../lib/markdown/context';
import { emojiCodeByName, emojiNameByCode, isEmojiName } from '../lib/markdown/emoji';
import { renderMarkdown, topicLinks, type MarkdownContext } from '../lib/markdown/render';
import { EMOJI_NAMES_FILE, emojiNamesTable } from '../scripts/generate-emoji-names';
import { createChannel } from './support/channels';
import { REPO_ROOT, TestServer } from './support/server';

/** A realm like the one Zulip's own Markdown tests render in. */
function realm(overrides: Partial<MarkdownContext> = {}): MarkdownContext {
  const users = [
    { id: 7, fullName: 'Zoe' },
    { id: 10, fullName: 'King Hamlet' },
    { id: 11, fullName: 'Othello, the Moor of Venice' },
    { id: 12, fullName: 'Mark Twin' },
    { id: 13, fullName: 'Mark Twin' },
    { id: 14, fullName: 'Evil <b>"Name"</b> \'x\'' },
  ];
  const groups = [
    { id: 30, name: 'support' },
    { id: 31, name: 'hamletcharacters' },
    { id: 5, name: 'role:administrators', displayName: 'Administrators' },
  ];
  const channels = [
    { id: 1, name: 'Denmark' },
    { id: 13, name: 'social' },
    { id: 20, name: 'Rome "x" <i & y' },
    { id: 21, name: 'Café life' },
  ];
  return {
    usersByName: (name) => users.filter((u) => u.fullName.toLowerCase() === name.toLowerCase()),
    userById: (id) => users.find((u) => u.id === id) ?? null,
    groupByName: (name) => groups.find((g) => g.name === name) ?? null,
    channelByName: (name) => channels.find((c) => c.name.toLowerCase() === name.toLowerCase()) ?? null,
    realmEmoji: () => null,
    linkifiers: [],
    alertWords: [],
    realmUrl: 'http://zulip.testserver',
    topicLinkMessageId: (channelId, topic) => (channelId === 1 && topic === 'moved' ? 214 : null),
    ...overrides,
  };
}

const html = (content: string, context = realm()) => renderMarkdown(content, context).html;

const CASES_FILE = path.join(REPO_ROOT, '..', 'shared', 'zulip', 'markdown-cases.json');

interface RegularCase {
  name: string;
  input: string;
  expected_output: string;
  marked_expected_output?: string;
  translate_emoticons?: boolean;
}

describe("Zulip's own Markdown cases", { skip: existsSync(CASES_FILE) ? false : `${CASES_FILE} is absent` }, () => {
  const cases = existsSync(CASES_FILE)
    ? (JSON.parse(readFileSync(CASES_FILE, 'utf8')) as { regular_tests: RegularCase[]; linkify_tests: Array<[string, string, string]> })
    : { regular_tests: [], linkify_tests: [] };

  test('regular cases render as Zulip renders them', (t) => {
    const failing: string[] = [];
    for (const c of cases.regular_tests) {
      if (c.name in NOT_AS_IN_CASES) continue;
      // expected_output is the server's rendering (marked_expected_output is the web app's preview).
      if (renderMarkdown(c.input, realm(), { translateEmoticons: c.translate_emoticons ?? false }).html !== c.expected_output) failing.push(c.name);
    }
    t.diagnostic(`markdown cases: ${cases.regular_tests.length - failing.length}/${cases.regular_tests.length} match`);
    assert.deepEqual(failing, []);
    assert.deepEqual(
      Object.keys(NOT_AS_IN_CASES).filter((name) => !cases.regular_tests.some((c) => c.name === name)),
      [],
      'every case set aside is in the file',
    );
  });

  test('the cases set aside render as Zulip 12 renders them', () => {
    const input = (name: string) => cases.regular_tests.find((c) => c.name === name)!.input;
    // Feature level 451: an invalid time is the text typed.
    assert.equal(html(input('timestamp_incorrect')), '<p>&lt;time:**hello world**&gt;</p>');
    assert.equal(html(input('timestamp_invalid_timezone')), '<p>&lt;time:1969-12-31T00:00:00+32:00&gt;</p>');
    assert.equal(html(input('timestamp_unix_overflow')), "<p>Let's meet at &lt;time:1234567890123&gt;.</p>");
    // No image proxy: a third-party image URL is a link without a preview.
    assert.equal(
      html(input('inline_image')),
      '<p>Google logo today: <a href="https://www.google.com/images/srpr/logo4w.png">https://www.google.com/images/srpr/logo4w.png</a><br>\nKinda boring</p>',
    );
  });

  test('linkify cases find the links Zulip finds', () => {
    const failing: string[] = [];
    for (const [input, template, url] of cases.linkify_tests) {
      const href = url.startsWith('http') ? url : url.includes('@') ? `mailto:${url}` : `http://${url}`;
      const expected = template.replace('%s', `<a href="${href}">${url}</a>`);
      if (html(input) !== expected) failing.push(JSON.stringify(input));
    }
    assert.deepEqual(failing, []);
  });
});

describe('Markdown constructs', () => {
  test('paragraphs split on blank lines, and a single newline is a line break', () => {
    assert.equal(html('one\ntwo\n\nthree'), '<p>one<br>\ntwo</p>\n<p>three</p>');
    assert.equal(html('a\n  b  '), '<p>a<br>\n  b  </p>', 'spaces around a line are kept, as typed');
  });

  test('emphasis uses asterisks only; underscores stay as typed', () => {
    assert.equal(html('*a* **b** ***c***'), '<p><em>a</em> <strong>b</strong> <strong><em>c</em></strong></p>');
    assert.equal(html('_a_ __b__ snake_case_name'), '<p>_a_ __b__ snake_case_name</p>');
  });

  test('strikethrough may have spaces inside the tildes', () => {
    assert.equal(html('~~a b~~ and ~~ c ~~'), '<p><del>a b</del> and <del> c </del></p>');
  });

  test('headings need a space after the hashes; setext headings and reference links do not exist', () => {
    assert.equal(html('## Two'), '<h2>Two</h2>');
    assert.equal(html('#tag'), '<p>#tag</p>');
    assert.equal(html('Title\n====='), '<p>Title<br>\n=====</p>');
    assert.equal(html('[a]\n\n[a]: /x'), '<p>[a]</p>\n<p>[a]: /x</p>');
  });

  test('lists and quotes', () => {
    assert.equal(html('* a\n* b'), '<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
    assert.equal(html('2. a\n3. b'), '<ol start="2">\n<li>a</li>\n<li>b</li>\n</ol>');
    assert.equal(html('1. a\n  * b'), '<ol>\n<li>a<ul>\n<li>b</li>\n</ul>\n</li>\n</ol>', 'two spaces nest under a numbered item');
    assert.equal(html('```\n1. a\n  1. b\n```'), '<div class="codehilite"><pre><span></span><code>1. a\n  1. b\n</code></pre></div>');
    assert.equal(html('> quoted'), '<blockquote>\n<p>quoted</p>\n</blockquote>');
    assert.equal(html('>\nnext'), '<blockquote>\n<p>next</p>\n</blockquote>', 'an empty marker quotes the next line');
    assert.equal(html('a\n\n>'), '<p>a</p>\n<p>&gt;</p>', 'a marker alone is text');
    assert.equal(html('```quote\n**q**\n```'), '<blockquote>\n<p><strong>q</strong></p>\n</blockquote>');
  });

  test('code blocks name their language as Zulip does, and escape everything inside', () => {
    assert.equal(
      html('```js\nif (a < b && "x") {}\n```'),
      '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code><span class="k">if</span> <span class="p">(</span>' +
        '<span class="nx">a</span> <span class="o">&lt;</span> <span class="nx">b</span> <span class="o">&amp;&amp;</span> ' +
        '<span class="s2">&quot;x&quot;</span><span class="p">)</span> <span class="p">{}</span>\n</code></pre></div>',
    );
    assert.equal(
      html('```NoSuchLanguage\nx <b>\n```'),
      '<div class="codehilite" data-code-language="NoSuchLanguage"><pre><span></span><code>x &lt;b&gt;\n</code></pre></div>',
      'an unknown language is named as typed, and not coloured',
    );
    assert.equal(html('```text\nif x\n```'), '<div class="codehilite" data-code-language="Text only"><pre><span></span><code>if x\n</code></pre></div>');
    assert.equal(html('    indented'), '<div class="codehilite"><pre><span></span><code>indented\n</code></pre></div>');
    assert.equal(html('```\nif x:  \n```'), '<div class="codehilite"><pre><span></span><code>if x:\n</code></pre></div>', 'trailing spaces go');
    assert.equal(html('`a <b>`'), '<p><code>a &lt;b&gt;</code></p>');
    assert.equal(html('` x `'), '<p><code> x </code></p>', 'spaces inside inline code are kept');
  });

  test("code is coloured with Pygments' token classes, which every Zulip client styles", () => {
    const code = (source: string) => /<code>(.*)<\/code>/s.exec(html(source))![1];
    assert.equal(
      code("```python3\n@cached\ndef f(self, n=0x1F):\n    return 'x' if n else None  # no\n```"),
      '<span class="nd">@cached</span>\n<span class="k">def</span><span class="w"> </span><span class="nf">f</span><span class="p">(</span>' +
        '<span class="bp">self</span><span class="p">,</span> <span class="n">n</span><span class="o">=</span><span class="mh">0x1F</span><span class="p">):</span>\n' +
        '    <span class="k">return</span> <span class="s1">&#39;x&#39;</span> <span class="k">if</span> <span class="n">n</span> <span class="k">else</span> ' +
        '<span class="kc">None</span>  <span class="c1"># no</span>\n',
    );
    assert.match(html('```rs\nfn main() {}\n```'), /data-code-language="Rust"><pre><span><\/span><code><span class="k">fn<\/span> <span class="nf">main<\/span>/);
    assert.equal(
      code('```\n#!/usr/bin/env bash\necho hi\n```'),
      '<span class="ch">#!/usr/bin/env bash</span>\n<span class="nb">echo</span> hi\n',
      'a #! line picks the colouring of a block without a language',
    );
    assert.doesNotMatch(html('```\n#!/usr/bin/env bash\n```'), /data-code-language/);
    assert.match(html('```\nx = 1\n```', realm({ defaultCodeLanguage: () => 'py' })), /data-code-language="Python"><pre><span><\/span><code><span class="n">x/);
    assert.doesNotMatch(html('    x = 1', realm({ defaultCodeLanguage: () => 'py' })), /data-code-language/, "the organization's default is for fences only");
    assert.equal(
      code('```c\n/* one\ntwo */ int x;\n```'),
      '<span class="cm">/* one</span>\n<span class="cm">two */</span> <span class="kt">int</span> <span class="n">x</span><span class="p">;</span>\n',
      'no span crosses a line end',
    );
  });

  test('a fenced block closes only at its own fence, and an unclosed one runs to the end', () => {
    assert.equal(html('```\n````\n```'), '<div class="codehilite"><pre><span></span><code>````\n</code></pre></div>');
    assert.equal(html('~~~\nopen'), '<div class="codehilite"><pre><span></span><code>open\n</code></pre></div>');
  });

  test('fences inside a quote open blocks of their own, and a bare fence closes the innermost', () => {
    assert.equal(
      html('~~~quote\n```\ncode\n~~~\n```\nquoted\n~~~\nafter'),
      '<blockquote>\n<div class="codehilite"><pre><span></span><code>code\n~~~\n</code></pre></div>\n<p>quoted</p>\n</blockquote>\n<p>after</p>',
    );
  });

  test('links keep allowed schemes, become relative inside the realm, and autolink bare URLs', () => {
    assert.equal(html('[x](https://example.com/a?b=1&c=2)'), '<p><a href="https://example.com/a?b=1&amp;c=2">x</a></p>');
    assert.equal(html('[x](http://zulip.testserver/#narrow/channel/1-Denmark)'), '<p><a href="#narrow/channel/1-Denmark">x</a></p>');
    assert.equal(html('[f](http://zulip.testserver/user_uploads/2/ab/f.pdf)'), '<p><a href="user_uploads/2/ab/f.pdf">f</a></p>');
    assert.equal(html('[x](http://zulip.testserver/help)'), '<p><a href="http://zulip.testserver/help">x</a></p>');
    assert.equal(html('see example.com'), '<p>see <a href="http://example.com">example.com</a></p>');
    assert.equal(html('mail a@example.com'), '<p>mail <a href="mailto:a@example.com">a@example.com</a></p>');
    assert.equal(html('readme.md'), '<p>readme.md</p>');
    assert.equal(html('[call](tel:+15551234) [text](sms:+15551234)'), '<p><a href="tel:+15551234">call</a> <a href="sms:+15551234">text</a></p>');
    assert.equal(html('[x](javascript:alert(1))'), '<p>[x](javascript:alert(1))</p>');
    assert.equal(html('[](https://example.com) [ ](https://example.com)'), '<p><a href="https://example.com">https://example.com</a> <a href="https://example.com">https://example.com</a></p>');
    assert.equal(html('x=http://a.example/b <https://a.example>'), '<p>x=http://a.example/b &lt;<a href="https://a.example">https://a.example</a>&gt;</p>');
    assert.equal(html('(see https://a.example/x_(y)).'), '<p>(see <a href="https://a.example/x_(y)">https://a.example/x_(y)</a>).</p>');
  });

  test('nested, renumbered and mixed lists read as Zulip reads them', () => {
    assert.equal(
      html('1. a\n  2. b\n    3. c\n  2. d\n2. e'),
      '<ol>\n<li>a<ol start="2">\n<li>b<ol start="3">\n<li>c</li>\n</ol>\n</li>\n<li>d</li>\n</ol>\n</li>\n<li>e</li>\n</ol>',
    );
    assert.equal(html('Text\n3. three'), '<p>Text</p>\n<ol start="3">\n<li>three</li>\n</ol>', 'a list at any number may follow a line of text');
    assert.equal(html('* a\n- b\n+ c'), '<ul>\n<li>a</li>\n<li>b</li>\n<li>c</li>\n</ul>', 'bullets may change within a list');
    assert.equal(html('* a\n  more'), '<ul>\n<li>a<br>\n  more</li>\n</ul>', 'a later line keeps its indent');
    assert.equal(html('- - -'), '<hr>', 'a rule is no list');
  });

  test('emphasis stays on one line; strikethrough holds no tilde', () => {
    assert.equal(html('**a\nb**'), '<p>**a<br>\nb**</p>');
    assert.equal(html('~~~x~~~ ~~y~~'), '<p>~~~x~~~ <del>y</del></p>');
    assert.equal(html('>>>'), '<blockquote>\n<blockquote>\n<p>&gt;</p>\n</blockquote>\n</blockquote>');
  });

  test('image syntax shows uploaded images and plays uploaded sounds; other URLs stay links', () => {
    const context = realm({
      uploadedImage: (pathId) =>
        pathId === '2/ab/cat.png'
          ? { width: 640, height: 480, contentType: 'image/png', animated: false, thumbnailUrl: '/user_uploads/thumbnail/2/ab/cat.png/840x560.webp' }
          : null,
      uploadedAudio: (pathId) => pathId === '2/cd/song.mp3',
    });
    const image = renderMarkdown('> ![a "cat"](/user_uploads/2/ab/cat.png)', context);
    assert.equal(
      image.html,
      '<blockquote>\n<p><img alt="a &quot;cat&quot;" class="inline-image" data-original-content-type="image/png" data-original-dimensions="640x480" ' +
        'data-original-src="/user_uploads/2/ab/cat.png" src="/user_uploads/thumbnail/2/ab/cat.png/840x560.webp"></p>\n</blockquote>',
    );
    assert.deepEqual([image.hasImage, image.hasAttachment, [...image.uploadPathIds]], [true, true, ['2/ab/cat.png']]);
    assert.equal(
      html('![song.mp3](/user_uploads/2/cd/song.mp3)', context),
      '<p><audio controls preload="metadata" src="/user_uploads/2/cd/song.mp3" title="song.mp3"></audio></p>',
    );
    assert.equal(html('![logo](https://example.com/logo.png)', context), '<p>!<a href="https://example.com/logo.png">logo</a></p>');
    assert.equal(html('![x](javascript:alert(1))', context), '<p>![x](javascript:alert(1))</p>');
  });

  test('user mentions by name, by id, silently, and wildcards', () => {
    const rendered = renderMarkdown('@**king hamlet** @_**Zoe|7** @**|11** @**all** @**topic**', realm());
    assert.equal(
      rendered.html,
      '<p><span class="user-mention" data-user-id="10">@King Hamlet</span> ' +
        '<span class="user-mention silent" data-user-id="7">Zoe</span> ' +
        '<span class="user-mention" data-user-id="11">@Othello, the Moor of Venice</span> ' +
        '<span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span> ' +
        '<span class="topic-mention">@topic</span></p>',
    );
    assert.deepEqual([...rendered.mentionedUserIds].sort(), [10, 11]);
    assert.equal(rendered.mentionsChannelWildcard, true);
    assert.equal(rendered.mentionsTopicWildcard, true);
  });

  test('silent wildcards mention nobody; unknown, ambiguous and mismatched mentions stay as typed', () => {
    const rendered = renderMarkdown('@_**everyone** @_**topic**', realm());
    assert.equal(rendered.mentionsChannelWildcard, false);
    assert.equal(rendered.mentionsTopicWildcard, false);
    assert.equal(html('@**Nobody** @**Mark Twin** @**Zoe|10** a@**Zoe**'), '<p>@<strong>Nobody</strong> @<strong>Mark Twin</strong> @<strong>Zoe|10</strong> a@<strong>Zoe</strong></p>');
    assert.equal(html('@**Mark Twin|13**'), '<p><span class="user-mention" data-user-id="13">@Mark Twin</span></p>');
  });

  test('group mentions, loud and silent', () => {
    const rendered = renderMarkdown('@*support* @_*hamletcharacters* @*nogroup*', realm());
    assert.equal(
      rendered.html,
      '<p><span class="user-group-mention" data-user-group-id="30">@support</span> ' +
        '<span class="user-group-mention silent" data-user-group-id="31">hamletcharacters</span> @<em>nogroup</em></p>',
    );
    assert.deepEqual([...rendered.mentionedGroupIds], [30]);
    assert.equal(
      html('@_*role:administrators*'),
      '<p><span class="user-group-mention silent" data-user-group-id="5">Administrators</span></p>',
      'system groups show their display name',
    );
  });

  test('channel and topic links', () => {
    assert.equal(html('#**denmark**'), '<p><a class="stream" data-stream-id="1" href="/#narrow/channel/1-Denmark">#Denmark</a></p>');
    assert.equal(
      html('#**Café life>lunch. at 1:00**'),
      '<p><a class="stream-topic" data-stream-id="21" href="/#narrow/channel/21-Caf.C3.A9-life/topic/lunch.2E.20at.201.3A00">#Café life &gt; lunch. at 1:00</a></p>',
    );
    assert.equal(html('#**nowhere**'), '<p>#<strong>nowhere</strong></p>');
  });

  test('topic links go "with" a message of the topic when it has one, so they follow moves', () => {
    assert.equal(
      html('#**Denmark>moved**'),
      '<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/moved/with/214">#Denmark &gt; moved</a></p>',
    );
  });

  test('message links, and the empty topic shown by its display name', () => {
    assert.equal(
      html('#**Denmark>castle@12**'),
      '<p><a class="message-link" href="/#narrow/channel/1-Denmark/topic/castle/near/12">#Denmark &gt; castle @ 💬</a></p>',
    );
    assert.equal(
      html('#**Denmark>**'),
      '<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/">#Denmark &gt; <em>general chat</em></a></p>',
    );
    assert.equal(
      html('#**Denmark>@12**', realm({ emptyTopicDisplayName: 'lobby' })),
      '<p><a class="message-link" href="/#narrow/channel/1-Denmark/topic//near/12">#Denmark &gt; <em>lobby</em> @ 💬</a></p>',
    );
  });

  test('emoji by name and as typed; unknown names stay as typed', () => {
    assert.equal(html(':tada:'), '<p><span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span></p>');
    assert.equal(html('🎉'), html(':tada:'));
    assert.equal(html(':no_such_emoji: :skin-tone-3:'), '<p>:no_such_emoji: :skin-tone-3:</p>');
  });

  test('emoticons become emoji only when the sender asks', () => {
    assert.equal(html('hi :)'), '<p>hi :)</p>');
    assert.match(renderMarkdown('hi :)', realm(), { translateEmoticons: true }).html, /class="emoji emoji-1f642"/);
  });

  test('/me messages are status messages', () => {
    assert.equal(renderMarkdown('/me waves', realm()).isMeMessage, true);
    assert.equal(renderMarkdown('/me waves', realm()).html, '<p>/me waves</p>');
    assert.equal(renderMarkdown('/mention', realm()).isMeMessage, false);
  });

  test('spoilers', () => {
    assert.equal(
      html('```spoiler Plot\nThe butler\n```'),
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>Plot</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>The butler</p>\n</div></div>',
    );
  });

  test('math renders with KaTeX, and broken math stays as typed', () => {
    assert.match(html('$$x^2$$'), /^<p><span class="katex">.*<\/span><\/p>$/s);
    assert.match(html('```math\n\\frac{1}{2}\n```'), /^<p><span class="katex-display">/);
    assert.equal(html('$$\\frac{$$'), '<p><span class="tex-error">$$\\frac{$$</span></p>');
    assert.equal(html('costs $$$'), '<p>costs $$$</p>');
  });

  test('global times', () => {
    assert.equal(html('<time:2024-02-29T12:00:00+01:00>'), '<p><time datetime="2024-02-29T11:00:00Z">2024-02-29T12:00:00+01:00</time></p>');
    assert.equal(html('<time:1700000000>'), '<p><time datetime="2023-11-14T22:13:20Z">1700000000</time></p>');
    assert.equal(html('<time:soon> <time:**a**>'), '<p>&lt;time:soon&gt; &lt;time:**a**&gt;</p>', 'a time that is not one is the text typed (level 451)');
    assert.equal(html('<time:Jun 5 2017 10:30 pm PDT>'), '<p><time datetime="2017-06-06T05:30:00Z">Jun 5 2017 10:30 pm PDT</time></p>');
  });

  test('tables', () => {
    assert.equal(
      html('a | b\n--- | ---\n1 | 2'),
      '<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>',
    );
  });

  test('linkifiers link their matches in messages and topics', () => {
    const context = realm({
      linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/issue/{id}' }],
    });
    assert.equal(html('see #42 and a#43', context), '<p>see <a href="https://tracker.example/issue/42">#42</a> and a#43</p>');
    assert.deepEqual(topicLinks('fix #42 per www.example.com/x and https://a.example', context), [
      { text: '#42', url: 'https://tracker.example/issue/42' },
      { text: 'www.example.com/x', url: 'https://www.example.com/x' },
      { text: 'https://a.example', url: 'https://a.example' },
    ]);
    assert.deepEqual(topicLinks('plain topic', context), []);
  });

  test('alert words match whole words, ignoring case', () => {
    const context = realm({ alertWords: ['deploy', 'ci'] });
    assert.deepEqual([...renderMarkdown('Deploy now, (CI)!', context).alertWordsFound].sort(), ['ci', 'deploy']);
    assert.deepEqual([...renderMarkdown('redeploy cinema', context).alertWordsFound], []);
  });

  test('what a message has: links, attachments and images', () => {
    const plain = renderMarkdown('no links here', realm());
    assert.deepEqual([plain.hasLink, plain.hasAttachment, plain.hasImage], [false, false, false]);
    const upload = renderMarkdown('[cat.png](/user_uploads/2/ab/cat.png)', realm());
    assert.deepEqual([upload.hasLink, upload.hasAttachment, upload.hasImage], [true, true, true]);
    const file = renderMarkdown('[notes](http://zulip.testserver/user_uploads/2/ab/notes.txt) https://example.com', realm());
    assert.deepEqual([file.hasLink, file.hasAttachment, file.hasImage], [true, true, false]);
  });
});

/** Tags the renderer itself writes; typed markup must never become any other. */
const DANGEROUS_TAGS = /^(script|style|iframe|object|embed|img|svg|form|input|textarea|link|meta|base)$/i;

/**
 * Every "<" in the output starts a well-formed tag whose attributes are all double-quoted, none
 * an event handler, and no link or source points at a script; text can hold no other "<".
 */
function assertHarmless(out: string): void {
  const tag = /<\/?([a-zA-Z][\w-]*)((?:\s+[\w-]+="[^"<>]*")*)\s*>/y;
  for (let at = out.indexOf('<'); at >= 0; at = out.indexOf('<', at + 1)) {
    tag.lastIndex = at;
    const match = tag.exec(out);
    assert.ok(match, `a stray "<" at ${at} in ${out}`);
    assert.doesNotMatch(match[1], DANGEROUS_TAGS, out);
    for (const [, name, value] of match[2].matchAll(/([\w-]+)="([^"]*)"/g)) {
      assert.doesNotMatch(name, /^on/i, out);
      if (name === 'href' || name === 'src') assert.doesNotMatch(value, /^\s*(javascript|vbscript|data):/i, out);
    }
  }
}

describe('Nothing a user types can inject markup', () => {
  const ATTACKS = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '[click](javascript:alert(1))',
    '[click](JAVASCRIPT:alert(1))',
    '[click](data:text/html;base64,PHNjcmlwdD4=)',
    '[click](vbscript:msgbox)',
    '<javascript:alert(1)>',
    '[x](https://example.com/" onmouseover="alert(1))',
    '[x](https://example.com/ "title\" onmouseover=\"alert(1)")',
    '[x](<https://example.com/"><script>>)',
    'https://example.com/"><script>alert(1)</script>',
    '```spoiler <b onclick=alert(1)>\n<i>x</i>\n```',
    '```"><script>alert(1)</script>\ncode\n```',
    '$$\\href{javascript:alert(1)}{x}$$',
    '$$\\url{javascript:alert(1)}$$',
    '<time:"><script>alert(1)</script>>',
    '@**Evil <b>"Name"</b> \'x\'**',
    '#**Rome "x" <i & y**',
    '#**Rome "x" <i & y>"><script>**',
    '| <b>a</b> |\n|---|\n| <i>b</i> |',
  ];
  const linkifying = realm({
    linkifiers: [{ id: 1, pattern: 'T(?P<id>.+)', url_template: 'https://t.example/{id}' }],
  });

  for (const attack of ATTACKS) {
    test(`renders ${JSON.stringify(attack)} harmlessly`, () => {
      for (const context of [realm(), linkifying]) {
        assertHarmless(html(attack, context));
      }
    });
  }

  test('names with markup are escaped wherever they appear', () => {
    assert.equal(
      html('@**Evil <b>"Name"</b> \'x\'**'),
      '<p><span class="user-mention" data-user-id="14">@Evil &lt;b&gt;"Name"&lt;/b&gt; \'x\'</span></p>',
    );
    assert.equal(
      html('#**Rome "x" <i & y>a "b"**'),
      '<p><a class="stream-topic" data-stream-id="20" href="/#narrow/channel/20-Rome-.22x.22-.3Ci-.26-y/topic/a.20.22b.22">#Rome "x" &lt;i &amp; y &gt; a "b"</a></p>',
    );
  });
});

describe('The renderer on any input', () => {
  test('never throws, and writes only harmless markup, on random Markdown punctuation', () => {
    const alphabet = ['*', '_', '~', '`', '$', '#', '>', '-', '+', '1.', '[', ']', '(', ')', '<', '>', '@', ':', '|', '!', '\\', '\n', '\n\n', ' ', '  ', 'a', 'b c', '```', '~~~', 'http://x.io', ':smile:', '@**Zoe**', '#**Denmark**', '<time:', '😀', '\u200d', '&amp;', '"', "'"];
    let seed = 1234567;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 3000; i++) {
      let input = '';
      const length = Math.floor(random() * 40);
      for (let j = 0; j < length; j++) input += alphabet[Math.floor(random() * alphabet.length)];
      assertHarmless(renderMarkdown(input, realm(), { translateEmoticons: random() < 0.5 }).html);
    }
  });

  test('renders long runs of any one piece of syntax (quadratic work would show here as a timeout)', () => {
    for (const unit of ['[', '@**', ':', '$$', '<time:', '#**x', 'a_', '```\n', 'http://a.co/(', '😀', 'a.co ', '~~', '*']) {
      const rendered = renderMarkdown(unit.repeat(Math.ceil(20_000 / unit.length)), realm({ alertWords: ['a'] }));
      assert.ok(rendered.html.length > 0);
    }
  });
});

const ZULIP_EMOJI_NAMES = path.join(REPO_ROOT, '..', 'shared', 'zulip', 'emoji-names.json');

describe('Emoji lookup', () => {
  test(
    'the committed emoji table is what the generator makes of Zulip’s table',
    { skip: existsSync(ZULIP_EMOJI_NAMES) ? false : `${ZULIP_EMOJI_NAMES} is absent` },
    () => {
      assert.equal(readFileSync(EMOJI_NAMES_FILE, 'utf8'), emojiNamesTable(ZULIP_EMOJI_NAMES).text);
    },
  );

  test('by name, by code, and whether a name exists', () => {
    assert.equal(emojiCodeByName('tada'), '1f389');
    assert.equal(emojiCodeByName('heart'), '2764', 'variation selectors are not part of codes');
    assert.equal(emojiCodeByName('hash'), '0023-20e3');
    assert.equal(emojiNameByCode('1f389'), 'tada');
    assert.equal(emojiNameByCode('ffff'), null);
    assert.equal(isEmojiName('tada'), true);
    assert.equal(isEmojiName('skin-tone-2'), false, 'skin tones are modifiers, not emoji');
    assert.equal(isEmojiName('zulip'), false, "Zulip's own emoji is not a Unicode emoji");
  });

  test('names are Zulip’s, canonical name first, with emoji newer than Zulip’s table added', () => {
    assert.equal(emojiCodeByName('smile'), '1f642', 'Zulip’s smile is the slightly smiling face');
    assert.equal(emojiNameByCode('1f604'), 'big_smile');
    assert.deepEqual(['+1', 'thumbs_up', 'like'].map(emojiCodeByName), ['1f44d', '1f44d', '1f44d']);
    assert.equal(emojiNameByCode('1f44d'), '+1');
    assert.equal(emojiCodeByName('clock1'), null, 'Zulip leaves most clocks out on purpose');
    assert.equal(emojiCodeByName('harp'), '1fa89', 'an emoji newer than Zulip’s table');
    assert.equal(renderMarkdown(':smile:', realm()).html.includes('emoji-1f642'), true);
  });
});

describe('Rendering against the live realm', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(() => server.close());

  test('mentions find users by name in any case and any alphabet', async () => {
    const zoe = await server.createUser('Zoë Ångström');
    const context = markdownContextFor(server.stoa);
    assert.deepEqual(context.usersByName('ZOË ÅNGSTRÖM'), [{ id: zoe.userId, fullName: 'Zoë Ångström' }]);
    const owner = server.stoa.users.byId(server.ownerId)!;
    assert.deepEqual(context.usersByName(owner.full_name.toUpperCase()), [{ id: owner.id, fullName: owner.full_name }]);
  });

  test('image syntax shows an uploaded image and plays an uploaded sound in a sent message', async () => {
    const sharp = (await import('sharp')).default;
    const picture = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 0, g: 90, b: 200 } } }).png().toBuffer();
    const image = (await server.owner.upload('/user_uploads', [{ name: 'blue.png', bytes: picture, type: 'image/png' }])).body.url as string;
    const sound = (await server.owner.upload('/user_uploads', [{ name: 'tune.mp3', bytes: Buffer.from('ID3 not really'), type: 'audio/mpeg' }])).body.url as string;
    const notes = (await server.owner.upload('/user_uploads', [{ name: 'notes.txt', bytes: 'hi', type: 'text/plain' }])).body.url as string;
    const channel = await createChannel(server.owner);
    const sent = await server.owner.post('/messages', {
      type: 'stream',
      to: channel.id,
      topic: 'media',
      content: `![blue](${image})\n![tune.mp3](${sound})\n![notes](${notes})`,
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const message = (await server.owner.get(`/messages/${sent.body.id}`)).body.message;
    const thumbnail = `/user_uploads/thumbnail/${image.slice('/user_uploads/'.length)}/840x560.webp`;
    assert.equal(
      message.content,
      `<p><img alt="blue" class="inline-image" data-original-content-type="image/png" data-original-dimensions="40x30" data-original-src="${image}" src="${thumbnail}"><br>\n` +
        `<audio controls preload="metadata" src="${sound}" title="tune.mp3"></audio><br>\n` +
        `!<a href="${notes}">notes</a></p>`,
    );
    // All three are the message's attachments, so whoever reads it may fetch them.
    const attachments = (await server.owner.get('/attachments')).body.attachments as Array<{ path_id: string; message_ids: number[] }>;
    for (const url of [image, sound, notes]) {
      const attachment = attachments.find((a) => url.endsWith(a.path_id));
      assert.deepEqual(attachment?.message_ids, [sent.body.id], url);
    }
  });

  test("fenced code naming no language takes the organization's default", async () => {
    const code = async () => (await server.owner.post('/messages/render', { content: '```\nx = 1\n```' })).body.rendered as string;
    assert.doesNotMatch(await code(), /data-code-language/);
    assert.equal((await server.owner.patch('/realm', { default_code_block_language: 'python' })).status, 200);
    try {
      assert.match(await code(), /^<div class="codehilite" data-code-language="Python"><pre><span><\/span><code><span class="n">x<\/span>/);
    } finally {
      await server.owner.patch('/realm', { default_code_block_language: '' });
    }
  });

  test('a channel description mentions real users and links real channels', async () => {
    const target = await createChannel(server.owner);
    const owner = server.stoa.users.byId(server.ownerId)!;
    const described = await createChannel(server.owner, {
      subscriptions: [{ name: `described ${target.id}`, description: `Ask @**${owner.full_name}** in #**${target.name}**` }],
    }, `described ${target.id}`);
    const subs = (await server.owner.get('/users/me/subscriptions')).body.subscriptions;
    const sub = subs.find((s: { stream_id: number }) => s.stream_id === described.id);
    assert.equal(
      sub.rendered_description,
      `<p>Ask <span class="user-mention" data-user-id="${owner.id}">@${owner.full_name}</span> in ` +
        `<a class="stream" data-stream-id="${target.id}" href="/#narrow/channel/${target.id}-${target.name.replace(/ /g, '-')}">#${target.name}</a></p>`,
    );
  });
});

/** Cases of Zulip's file that Stoa renders differently, and why. */
const NOT_AS_IN_CASES: Record<string, string> = {
  inline_image: "previews of third-party images need Zulip's image proxy (camo), which Stoa does not run",
  bulleted_list_inlining: "previews of third-party images need Zulip's image proxy (camo), which Stoa does not run",
  timestamp_incorrect: 'the file predates feature level 451: an invalid time is now the text typed, not a timestamp-error span',
  timestamp_invalid_timezone: 'the file predates feature level 451 (as above)',
  timestamp_unix_overflow: 'the file predates feature level 451 (as above)',
};
