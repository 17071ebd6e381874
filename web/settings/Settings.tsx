import { realm } from '../state';
import { SECTIONS, sectionHash } from './sections';

/**
 * The settings: a menu of pages (personal ones for everyone, the organization's for its
 * administrators; members see most of those read-only, as on Zulip) beside the open page.
 */
export function Settings({ section }: { section: string }) {
  const admin = realm.value.isAdmin;
  const shown = SECTIONS.filter((s) => s.scope === 'personal' || admin || s.forMembers || s.readOnlyForMembers);
  const open = shown.find((s) => s.id === section) ?? shown[0]!;
  const Screen = open.screen;
  const readOnly = !admin && open.scope === 'organization' && !open.forMembers;
  const groups = [
    ['personal', 'Personal'],
    ['organization', 'Organization'],
  ] as const;
  const title = open.scope === 'personal' ? 'Personal settings' : 'Organization settings';
  return (
    <div class="panel settings" role="region" aria-labelledby="settings-title">
      <h1 class="view-title" id="settings-title">
        {title}
      </h1>
      <div class="settings-layout">
        {/* On a phone the menu is one choice rather than a wall of links (see .settings-jump). */}
        <label class="settings-jump">
          Settings page
          <select value={sectionHash(open)} onChange={(e) => location.assign(e.currentTarget.value)}>
            {groups
              .filter(([scope]) => shown.some((s) => s.scope === scope))
              .map(([scope, heading]) => (
                <optgroup key={scope} label={heading}>
                  {shown
                    .filter((s) => s.scope === scope)
                    .map((s) => (
                      <option key={s.id} value={sectionHash(s)}>
                        {s.label}
                      </option>
                    ))}
                </optgroup>
              ))}
          </select>
        </label>
        <nav class="settings-menu" aria-label="Settings sections">
          {groups
            .filter(([scope]) => shown.some((s) => s.scope === scope))
            .map(([scope, heading]) => (
              <div key={scope}>
                <h2 id={`settings-menu-${scope}`}>{heading}</h2>
                <ul aria-labelledby={`settings-menu-${scope}`}>
                  {shown
                    .filter((s) => s.scope === scope)
                    .map((s) => (
                      <li key={s.id}>
                        <a href={sectionHash(s)} aria-current={s === open ? 'page' : undefined}>
                          {s.label}
                        </a>
                      </li>
                    ))}
                </ul>
              </div>
            ))}
        </nav>
        <section class="settings-page" aria-labelledby="settings-page-title">
          <h2 id="settings-page-title">{open.label}</h2>
          {readOnly ? (
            // A disabled fieldset disables every control inside it: what the page shows stays readable.
            <>
              <p class="settings-hint read-only-hint" id="read-only-hint">
                Only administrators of the organization can change these settings.
              </p>
              <fieldset class="read-only-page" disabled aria-describedby="read-only-hint">
                <Screen key={open.id} />
              </fieldset>
            </>
          ) : (
            <Screen key={open.id} />
          )}
        </section>
      </div>
    </div>
  );
}
