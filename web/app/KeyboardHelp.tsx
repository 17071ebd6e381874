import { Fragment } from 'preact';
import { Modal } from '../ui/Modal';
import { keyboardHelpOpen, SHORTCUTS } from './keyboard';

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
