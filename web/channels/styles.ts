/**
 * The styles of the channel screens, which come with their code when first opened rather than
 * with the first view's stylesheet. They use the theme's variables, so both themes apply.
 */
const CSS = `
.channel-settings .view-title { display: flex; align-items: center; gap: 6px; }
.channel-settings .back-link { display: inline-block; margin-top: 12px; }
.channel-settings form, .channel-settings fieldset, .channel-settings section { max-width: 620px; }
.channel-settings fieldset { display: flex; flex-direction: column; gap: 10px; margin-top: 12px; }
.channel-settings fieldset:disabled { opacity: 0.85; }
.channel-settings > h2 { margin: 16px 16px 0; }
.channel-settings form > button, .channel-settings fieldset > button { align-self: flex-start; }
.channel-settings .privacy-option, .create-channel .privacy-option { flex-wrap: wrap; }
.channel-settings .privacy-option .hint, .create-channel .privacy-option .hint { flex-basis: 100%; margin: 0 0 0 24px; color: var(--text-soft); font-size: 13px; }
.channel-settings .archived-note { padding: 8px 10px; border-radius: 6px; background: var(--bg-mention); }
.channel-settings .saved { min-height: 1.2em; margin: 4px 16px; color: var(--text-soft); }
.channel-settings .setting-readonly { display: flex; justify-content: space-between; gap: 12px; margin: 0; }
.channel-settings .personal-settings, .channel-settings .subscribers { display: flex; flex-direction: column; gap: 10px; align-items: flex-start; }
.channel-settings .personal-settings > *, .channel-settings .subscribers > * { width: 100%; }
.channel-settings .personal-settings > button, .channel-settings .subscribers > a { width: auto; }
.channel-settings input[type='color'] { width: 44px; height: 32px; padding: 2px; }
.channel-settings form.add-subscribers { flex-direction: row; align-items: flex-end; }
.channel-settings .add-subscribers label { flex: 1; }
.channel-settings .subscriber { display: flex; align-items: center; gap: 8px; min-width: 0; }
.channel-settings .subscriber small { color: var(--text-soft); overflow-wrap: anywhere; }
.channel-settings .hint { color: var(--text-soft); font-size: 13px; }
.channel-settings section .hint, .channel-settings fieldset .hint { margin: 0; }
.default-channels .item-list { max-width: 620px; }
.create-channel .new-subscribers ul { margin: 0; }
.create-channel .new-subscribers li { display: flex; justify-content: space-between; align-items: center; gap: 12px; padding: 4px 0; border-bottom: 1px solid var(--border); }
.create-channel .new-subscribers li > span { min-width: 0; overflow-wrap: anywhere; }
.create-channel .new-subscribers li > button { flex: none; white-space: nowrap; }
.create-channel .add-subscriber { display: flex; align-items: flex-end; gap: 8px; }
.create-channel .add-subscriber label { flex: 1; min-width: 0; }
.default-channels form { flex-direction: row; align-items: flex-end; }
.channel-settings .add-subscribers > button, .default-channels form > button { align-self: flex-end; }
`;

/** Adds the channel screens' styles to the page once, when their code first loads (before they draw). */
export function addChannelStyles(): void {
  if (document.querySelector('style[data-area="channels"]')) return;
  const style = document.createElement('style');
  style.dataset.area = 'channels';
  style.textContent = CSS;
  document.head.append(style);
}
