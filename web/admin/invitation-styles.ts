/**
 * The invitations page's styles, which come with its code when first opened rather than with
 * the first view's stylesheet. They use the theme's variables, so both themes apply.
 */
const CSS = `
.invitations { display: flex; flex-direction: column; gap: 24px; max-width: 680px; }
.invite-form { display: flex; flex-direction: column; gap: 12px; }
.invite-form > label, .invite-form .custom-expiry label { display: flex; flex-direction: column; gap: 4px; }
.invite-form fieldset { display: flex; flex-direction: column; gap: 6px; border: 1px solid var(--border); border-radius: 6px; padding: 8px 12px 10px; margin: 0; }
.invite-form .invite-kind { flex-direction: row; flex-wrap: wrap; column-gap: 18px; }
.invite-form .invite-kind .hint { flex-basis: 100%; }
.invite-form .hint, .invitations .hint { margin: 0; color: var(--text-soft); font-size: 13px; }
.invite-form textarea { resize: vertical; font: inherit; }
.invite-form .channel-choices { display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 4px 12px; }
.invite-form .custom-expiry { display: flex; gap: 10px; }
.invite-form .custom-expiry input { width: 7em; }
.invite-form > button { align-self: flex-start; }
.invite-form .invite-sent { margin: 0; min-height: 1.2em; color: var(--text-soft); }
.new-invite-link { display: flex; flex-direction: column; gap: 8px; padding: 12px; border-radius: 8px; background: var(--bg-soft); border: 1px solid var(--border); }
.new-invite-link label { display: flex; flex-direction: column; gap: 4px; font-weight: 600; }
.new-invite-link input { font-family: var(--mono); font-weight: normal; }
.new-invite-link .link-actions { display: flex; gap: 8px; flex-wrap: wrap; }
.invite-qr-box { margin: 0; display: flex; flex-direction: column; align-items: center; gap: 8px; }
/* Large enough to scan from across a room, never wider than the screen. */
.invite-qr { display: block; width: min(420px, 100%); aspect-ratio: 1; height: auto; border-radius: 4px; }
.invite-qr-box figcaption { color: var(--text-soft); font-size: 13px; text-align: center; }
.pending-invites h3 { font-size: 16px; margin: 0 0 8px; }
.invite-list { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; }
.pending-invite { display: flex; gap: 12px; align-items: center; justify-content: space-between; padding: 10px 0; border-bottom: 1px solid var(--border); }
.pending-invite .invite-who { display: flex; flex-direction: column; gap: 2px; min-width: 0; }
.pending-invite .invite-url { font-family: var(--mono); font-size: 12px; color: var(--text-soft); overflow-wrap: anywhere; }
.pending-invite .invite-actions { display: flex; gap: 6px; flex-shrink: 0; flex-wrap: wrap; justify-content: flex-end; }
@media (max-width: 600px) {
  .pending-invite { flex-direction: column; align-items: stretch; }
  .pending-invite .invite-actions { justify-content: flex-start; }
}
`;

/** Adds the invitations page's styles to the page once, when its code first loads. */
export function addInvitationStyles(): void {
  if (document.querySelector('style[data-area="invitations"]')) return;
  const style = document.createElement('style');
  style.dataset.area = 'invitations';
  style.textContent = CSS;
  document.head.append(style);
}
