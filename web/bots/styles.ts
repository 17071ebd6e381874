/**
 * The styles of the bot settings, which come with their code when first opened rather than with
 * the first view's stylesheet. They use the theme's variables, so both themes apply.
 */
const CSS = `
.bots-page { display: flex; flex-direction: column; gap: 12px; align-items: flex-start; max-width: 760px; }
.bots-page > section { width: 100%; }
.bots-page h3 { font-size: 15px; margin: 8px 0; }
.bots-page .hint { color: var(--text-soft); }
.bot-list { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 8px; }
.bot-card { border: 1px solid var(--border); border-radius: 8px; padding: 10px 12px; display: flex; flex-direction: column; gap: 8px; }
.bot-head { display: flex; gap: 10px; align-items: flex-start; min-width: 0; }
.bot-who { display: flex; flex-direction: column; min-width: 0; }
.bot-who small { color: var(--text-soft); overflow-wrap: anywhere; }
.bot-actions { display: flex; flex-wrap: wrap; gap: 6px; }
.bot-key { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; }
.bot-key label { flex: 1 1 260px; }
.bot-key input { font-family: monospace; }
.bot-dialog form, .integration-url-form { display: flex; flex-direction: column; gap: 12px; min-width: min(440px, 80vw); }
.bot-dialog .modal-buttons { display: flex; justify-content: flex-end; gap: 8px; }
.bot-username { display: flex; align-items: center; gap: 4px; flex-wrap: wrap; font-weight: normal; }
.bot-username input { flex: 1 1 140px; min-width: 0; }
.bot-username span { color: var(--text-soft); overflow-wrap: anywhere; }
.integration-url-form textarea { font-family: monospace; font-size: 13px; word-break: break-all; resize: vertical; }
.integration-events { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 4px 12px; max-height: 200px; overflow: auto; }
.integration-url-form .hint { margin: 0; min-height: 1.2em; color: var(--text-soft); }
`;

/** Adds the bot screens' styles to the page once, when their code first loads (before they draw). */
export function addBotStyles(): void {
  if (document.querySelector('style[data-area="bots"]')) return;
  const style = document.createElement('style');
  style.dataset.area = 'bots';
  style.textContent = CSS;
  document.head.append(style);
}
