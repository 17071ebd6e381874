import { Fragment } from 'preact';
import { HAS_VALUES, IS_VALUES } from '../search/suggest';
import { channelsInSidebarOrder, session, userName, users } from '../state';
import { Preview } from '../views/SavedMessages';
import { Modal } from '../ui/Modal';
import { helpShown } from './keyboard';

/**
 * The keys the help overlay lists: [group, [keys (any one of them), what they do]]. A capital
 * letter is written with its Shift, as Zulip's list writes it.
 */
const SHORTCUTS: Array<[string, Array<[string[], string]>]> = [
  [
    'The basics',
    [
      [['?'], 'These keyboard shortcuts'],
      [['/', 'Ctrl+K'], 'Search messages'],
      [['c'], 'New message in this conversation'],
      [['x'], 'New direct message'],
      [['Esc'], 'Close what is open, leave a text box'],
      [['Ctrl+['], 'As Esc, then to your home view'],
      [['n'], 'Next unread topic'],
      [['Shift+N'], 'Next unread followed topic'],
      [['p'], 'Next unread direct messages'],
      [['w'], 'Filter the list of people'],
      [['q'], 'Filter the channels'],
      [['g'], 'The menu: settings, theme, log out'],
      [['Shift+A', 'Shift+D'], 'Previous or next channel'],
    ],
  ],
  [
    'Moving among messages',
    [
      [['j', '↓'], 'Next message (or conversation, in lists)'],
      [['k', '↑'], 'Previous message (or conversation, in lists)'],
      [['Home'], 'First message'],
      [['End', 'Shift+G'], 'Last message'],
      [['PgUp', 'Shift+K'], 'Scroll up a page'],
      [['PgDn', 'Shift+J', 'Space'], 'Scroll down a page'],
    ],
  ],
  [
    'The selected message',
    [
      [['r', 'Enter'], 'Reply'],
      [['@'], 'Reply, mentioning the sender'],
      [['Shift+R'], 'Reply to the sender directly'],
      [['>'], 'Quote and reply'],
      [['<'], 'Forward'],
      [['e'], 'Edit (or move, or view the source)'],
      [['m'], 'Move to another topic'],
      [['Shift+H'], 'Edit history'],
      [['Ctrl+S'], 'Star or unstar'],
      [['+'], 'React with thumbs up (:+1:)'],
      [['='], 'Your vote on the first reaction'],
      [[':'], 'Choose an emoji to react with'],
      [['u'], "The sender's card"],
      [['Shift+U'], 'Mark as unread from here on'],
      [['-'], 'Collapse or expand'],
      [['Shift+V'], 'Read receipts'],
      [['i'], 'Message actions menu'],
      [['Shift+M'], 'Mute or unmute the topic'],
      [['v'], 'View the images in the message'],
      [['←'], 'Edit your latest message in view'],
    ],
  ],
  [
    'Going to a view',
    [
      [['Shift+I'], 'Inbox'],
      [['t'], 'Recent conversations'],
      [['a'], 'Combined feed'],
      [['*'], 'Starred messages'],
      [['Shift+P'], 'Direct message feed'],
      [['d'], 'Drafts (again to close them)'],
      [['s'], "Selected message's topic; from a topic, its channel"],
      [['z'], 'Selected message in its conversation'],
    ],
  ],
  [
    'Writing a message',
    [
      [['Enter'], 'Send'],
      [['Shift+Enter'], 'New line'],
      [['Ctrl+B'], 'Bold'],
      [['Ctrl+I'], 'Italic'],
      [['Ctrl+Shift+L'], 'Insert a link'],
      [['Alt+P'], 'Preview, or back to writing'],
      [["Ctrl+'"], 'Saved snippets'],
      [['Ctrl+.'], 'Go to the conversation you are writing to'],
      [['←'], 'In an empty box: edit your latest message'],
    ],
  ],
];

/** A channel of the person's to name in examples. */
function exampleChannel(): string {
  return channelsInSidebarOrder()[0]?.name ?? 'general';
}

/** What one types for each kind of formatting, with examples naming the person and a channel of theirs. */
function formattingExamples(): Array<[string, string]> {
  const self = session.value?.user_id ?? 0;
  return [
    ['Bold', '**bold**'],
    ['Italic', '*italic*'],
    ['Struck through', '~~no longer true~~'],
    ['A link', '[Stoa](https://example.com)'],
    ['Code in a line', '`npm start`'],
    ['A block of code, coloured by its language', '```js\nconst answer = 42;\n```'],
    ['A quote', '> Said before'],
    ['A spoiler', '```spoiler The ending\nEveryone was fine.\n```'],
    ['Mentioning someone (notifies them)', `@**${userName(self)}**`],
    ['A link to a channel', `#**${exampleChannel()}**`],
    ['An emoji', ':smile: :tada:'],
    ['Math (LaTeX)', '$$e^{i\\pi} + 1 = 0$$'],
    ['A list', '- one\n- two'],
    ['A numbered list', '1. first\n2. second'],
  ];
}

/** The search box's syntax, as Zulip's search filters: examples and what they find. */
function searchExamples(): Array<[string, string]> {
  const channel = exampleChannel();
  const channelTerm = /\s/.test(channel) ? `"${channel}"` : channel;
  const email = users.value.get(session.value?.user_id ?? 0)?.email ?? 'someone@example.com';
  return [
    ['lunch plans', 'Messages with both words (in any form: "plan" finds "plans")'],
    ['"lunch plans"', 'Messages with the phrase'],
    [`channel:${channelTerm}`, 'Messages in a channel'],
    [`channel:${channelTerm} topic:"big plans"`, 'Messages in one of its topics'],
    [`sender:${email}`, 'Messages sent by a person'],
    [`dm:${email}`, 'Direct messages with a person'],
    [`dm-including:${email}`, 'Direct messages that include a person'],
    ...IS_VALUES.map(([name, label]): [string, string] => [`is:${name}`, label]),
    ...HAS_VALUES.map(([name, label]): [string, string] => [`has:${name}`, label]),
    ['-is:resolved', 'A minus before a filter leaves its messages out'],
    ['near:123', 'The conversation around message 123'],
  ];
}

/** A two-column table of examples: what one types, and what it gives. */
function ExampleTable({ head, rows }: { head: [string, string]; rows: Array<{ key: string; label?: string; typed: string; result: preact.ComponentChildren }> }) {
  return (
    <table class="formatting-help">
      <thead>
        <tr>
          <th scope="col">{head[0]}</th>
          <th scope="col">{head[1]}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} aria-label={row.label}>
            <td>
              <pre>{row.typed}</pre>
            </td>
            <td>{row.result}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Formatting, each example as the server renders it (the drafts' previews, which keep renderings). */
function Formatting() {
  const rows = formattingExamples().map(([what, source]) => ({ key: what, label: what, typed: source, result: <Preview content={source} /> }));
  return <ExampleTable head={['You type', 'You get']} rows={rows} />;
}

function SearchFilters() {
  const rows = searchExamples().map(([query, what]) => ({ key: query, typed: query, result: what }));
  return <ExampleTable head={['You search', 'You find']} rows={rows} />;
}

const HELP_TITLES = { keys: 'Keyboard shortcuts', formatting: 'Message formatting', search: 'Search filters' };

/**
 * The help overlay (`?`, or the menu): the keyboard shortcuts that work, by what they act on;
 * how to format a message, each example as it will look; and the search box's filters.
 */
export function KeyboardHelp() {
  const shown = helpShown.value;
  if (!shown) return null;
  const close = () => (helpShown.value = null);
  return (
    <Modal
      title={HELP_TITLES[shown]}
      class="keyboard-help"
      onClose={close}
      // `?` closes the overlay it opened.
      onKeyDown={(e) => e.key === '?' && close()}
    >
      <div class="help-tabs" role="tablist" aria-label="Help">
        {(['keys', 'formatting', 'search'] as const).map((tab) => (
          <button type="button" role="tab" key={tab} aria-selected={shown === tab} onClick={() => (helpShown.value = tab)}>
            {HELP_TITLES[tab]}
          </button>
        ))}
      </div>
      {shown === 'formatting' ? (
        <Formatting />
      ) : shown === 'search' ? (
        <SearchFilters />
      ) : (
        <div class="shortcut-groups">
          {SHORTCUTS.map(([group, keys]) => (
            <section key={group} aria-label={group}>
              <h3>{group}</h3>
              <dl>
                {keys.map(([alternatives, what]) => (
                  <div key={what}>
                    <dt>
                      {alternatives.map((key, i) => (
                        <Fragment key={key}>
                          {i > 0 && ' or '}
                          <kbd>{key}</kbd>
                        </Fragment>
                      ))}
                    </dt>
                    <dd>{what}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      )}
    </Modal>
  );
}
