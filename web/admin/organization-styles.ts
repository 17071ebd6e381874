/**
 * The styles of the organization's settings pages (profile, settings, permissions, emoji,
 * linkifiers, playgrounds, profile fields), which come with their code when one is first opened
 * rather than with the first view's stylesheet. They use the theme's variables, so both themes apply.
 */
const CSS = `
.org-page { display: flex; flex-direction: column; gap: 16px; max-width: 680px; }
.org-page form, .org-page fieldset { display: flex; flex-direction: column; gap: 10px; max-width: none; }
.org-page fieldset { margin: 0; padding: 10px 12px 12px; }
.org-page legend { font-weight: 600; padding: 0 4px; }
.org-page h3 { font-size: 15px; margin: 4px 0 0; }
.org-page .hint { margin: 0; color: var(--text-soft); font-size: 13px; }
.org-page textarea { width: 100%; min-height: 90px; font: inherit; box-sizing: border-box; }
.org-page .row { display: flex; min-height: 1.3em; flex-wrap: wrap; gap: 8px; align-items: flex-end; }
.org-page .row > label { flex: 1 1 180px; }
.org-page button { align-self: flex-start; }
.org-page .saved { min-height: 1.3em; margin: 0; color: var(--text-soft); }
.org-page .form-error { margin: 0; color: var(--danger, #c0392b); }
.org-page .setting-readonly { display: flex; justify-content: space-between; gap: 12px; margin: 0; }
.org-page .owner-only { font-size: 12px; color: var(--text-soft); font-weight: normal; white-space: nowrap; }
.org-page .save-bar { position: sticky; bottom: 0; display: flex; gap: 8px; align-items: center; flex-wrap: wrap;
  padding: 8px 0; background: var(--bg); border-top: 1px solid var(--border); }
.org-page .save-bar .saved { flex: 1 1 200px; }
.org-images { display: flex; flex-wrap: wrap; gap: 16px; }
.org-image { display: flex; flex-direction: column; gap: 8px; align-items: flex-start; flex: 1 1 240px; min-width: 0;
  border: 1px solid var(--border); border-radius: 6px; padding: 10px 12px; }
.org-image h3 { margin: 0; }
.org-image img.icon-preview { width: 64px; height: 64px; border-radius: 8px; object-fit: cover; }
.org-image .icon-initial { display: flex; align-items: center; justify-content: center; width: 64px; height: 64px;
  border-radius: 8px; background: var(--accent); color: #fff; font-size: 32px; font-weight: 600; }
.org-image img.logo-preview { max-width: 100%; height: 40px; object-fit: contain; }
.org-image .logo-box { padding: 8px; border-radius: 6px; border: 1px solid var(--border); background: #fff; }
.org-image .logo-box.night { background: #1d1d1d; }
.org-image .buttons { display: flex; flex-wrap: wrap; gap: 8px; }
.org-image label { max-width: 100%; }
.org-image input[type='file'] { max-width: 100%; box-sizing: border-box; }
.org-table { width: 100%; border-collapse: collapse; font-size: 14px; }
.org-table th, .org-table td { text-align: left; padding: 6px; border-bottom: 1px solid var(--border); vertical-align: middle; overflow-wrap: anywhere; }
.org-table td.actions { white-space: nowrap; text-align: right; }
.org-table td.actions button { margin-left: 4px; }
.org-table img.emoji-image { width: 24px; height: 24px; object-fit: contain; vertical-align: middle; }
.org-table code { font-size: 13px; }
.org-list { list-style: none; padding: 0; margin: 0; }
.org-list > li { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; padding: 8px 0; border-bottom: 1px solid var(--border); }
.org-list > li > .what { flex: 1 1 220px; min-width: 0; overflow-wrap: anywhere; }
.org-list > li > .what small { display: block; color: var(--text-soft); }
.org-list > li > .actions { display: flex; gap: 4px; flex-wrap: wrap; }
.org-list > li > form { flex-basis: 100%; }
.org-list .choice-options li { display: flex; gap: 6px; align-items: flex-end; }
.org-page .choice-options { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 6px; }
.org-page .choice-options li { display: flex; gap: 6px; align-items: flex-end; }
.org-page .choice-options li label { flex: 1; }
@media (max-width: 760px) {
  .org-table thead { display: none; }
  .org-table tr { display: flex; flex-wrap: wrap; gap: 4px 10px; padding: 8px 0; border-bottom: 1px solid var(--border); }
  .org-table td { border: none; padding: 0; }
  .org-table td.actions { flex-basis: 100%; text-align: left; }
  .org-table td.actions button:first-child { margin-left: 0; }
}
`;

/** Adds the organization pages' styles to the page once, when their code first loads (before they draw). */
export function addOrganizationStyles(): void {
  if (document.querySelector('style[data-area="organization"]')) return;
  const style = document.createElement('style');
  style.dataset.area = 'organization';
  style.textContent = CSS;
  document.head.append(style);
}
