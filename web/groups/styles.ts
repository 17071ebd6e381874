/**
 * The styles of the user groups page, which come with its code when first opened rather than
 * with the first view's stylesheet. They use the theme's variables, so both themes apply.
 */
const CSS = `
.groups-page { display: flex; flex-direction: column; gap: 12px; container-type: inline-size; }
.groups-lists { display: flex; gap: 4px; }
.groups-lists a { padding: 4px 12px; border-radius: 14px; border: 1px solid var(--border); text-decoration: none; }
.groups-lists a[aria-current='page'] { background: var(--bg-active); border-color: var(--accent); color: var(--text); font-weight: 600; }
.groups-toolbar { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-end; }
.groups-filter { flex: 1 1 180px; max-width: 280px; }
.groups-layout { display: flex; gap: 16px; align-items: flex-start; }
.group-list { list-style: none; padding: 0; margin: 0; flex: 0 0 260px; display: flex; flex-direction: column; gap: 4px; }
.group-row { width: 100%; text-align: left; display: flex; flex-direction: column; gap: 2px; background: none; }
.group-row[aria-current='true'] { background: var(--bg-active); border-color: var(--accent); }
.group-row small { color: var(--text-soft); }
.group-row .group-description { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.group-details { flex: 1; min-width: 0; display: flex; flex-direction: column; gap: 10px; border: 1px solid var(--border); border-radius: 8px; padding: 12px; }
.group-details h3 { margin: 0; font-size: 17px; overflow-wrap: anywhere; }
.group-details h4 { margin: 6px 0 0; font-size: 14px; }
.group-details form { max-width: none; }
.group-details form > button, .group-state > button { align-self: flex-start; }
.group-details .archived-note { padding: 8px 10px; border-radius: 6px; background: var(--bg-mention); margin: 0; }
.group-details .permissions { display: flex; flex-direction: column; gap: 10px; min-width: 0; }
.group-details select { max-width: 100%; }
.group-details .setting-readonly { display: flex; justify-content: space-between; gap: 12px; margin: 0; }
.group-members { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 4px; }
.group-members li { display: flex; align-items: center; gap: 8px; }
.group-members li span { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.group-self { display: flex; gap: 8px; }
.group-self:empty { display: none; }
.group-create { border: 1px solid var(--border); border-radius: 8px; padding: 12px; max-width: 560px; }
.form-buttons { display: flex; gap: 8px; justify-content: flex-end; }
.groups-page .hint { color: var(--text-soft); }
/* Side by side only where both have room (the settings page is narrow beside the people list). */
@container (max-width: 700px) {
  .groups-layout { flex-direction: column; }
  .group-list { flex: none; width: 100%; }
  .group-details { width: 100%; box-sizing: border-box; }
}
`;

/** Adds the groups page's styles to the page once, when its code first loads (before it draws). */
export function addGroupStyles(): void {
  if (document.querySelector('style[data-area="groups"]')) return;
  const style = document.createElement('style');
  style.dataset.area = 'groups';
  style.textContent = CSS;
  document.head.append(style);
}
