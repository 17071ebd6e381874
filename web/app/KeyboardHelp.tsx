import { Fragment } from 'preact';
import { Modal } from '../ui/Modal';
import { keyboardHelpOpen } from './keyboard';

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

/** The `?` overlay: the keyboard shortcuts that work, by what they act on. */
export function KeyboardHelp() {
  if (!keyboardHelpOpen.value) return null;
  const close = () => (keyboardHelpOpen.value = false);
  return (
    <Modal
      title="Keyboard shortcuts"
      class="keyboard-help"
      onClose={close}
      onKeyDown={(e) => {
        // The page's key handler must not see this `?`: the overlay is gone by then, and it would open it again.
        if (e.key === '?') {
          e.stopPropagation();
          close();
        }
      }}
    >
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
    </Modal>
  );
}
