import { clockOptions, twentyFourHourTime } from '../messages/time';
import { session, userName, users } from '../state';
import type { User } from '../types';
import { FieldType, presenceEnabled, showUserCard, shownPresence, type ProfileField } from './state';

/** What a user card and a profile show about a person, drawn the same way in both. */

const ROLE_NAMES: Record<number, string> = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };

function roleName(user: User): string {
  if (user.is_bot) return 'Bot';
  return ROLE_NAMES[user.role] ?? 'Member';
}

/** The roles an administrator may give; owners alone make owners. */
export function assignableRoles(byOwner: boolean): Array<[number, string]> {
  return Object.entries(ROLE_NAMES)
    .map(([role, name]) => [Number(role), name] as [number, string])
    .filter(([role]) => byOwner || role !== 100);
}

/** The time of day where the person is, from their time zone; undefined when they set none. */
function localTime(user: User, now = new Date()): string | undefined {
  if (!user.timezone) return undefined;
  try {
    return new Intl.DateTimeFormat(undefined, { ...clockOptions(twentyFourHourTime.value), timeZone: user.timezone }).format(now);
  } catch {
    return undefined;
  }
}

/** Whether the person is active, idle or offline as others see them (one's own invisible mode included). */
function presenceText(user: User): string {
  const self = session.value?.user_id;
  if (user.user_id === self && !presenceEnabled.value) return 'Invisible: shown to others as offline';
  const presence = shownPresence(user.user_id, self);
  return { active: 'Active now', idle: 'Idle', offline: 'Offline' }[presence];
}

/** Where an external account's name leads, for the kinds Zulip knows and a custom pattern. */
function externalAccountUrl(field: ProfileField, value: string): string | undefined {
  let data: { subtype?: string; url_pattern?: string } = {};
  try {
    data = JSON.parse(field.field_data || '{}');
  } catch {
    return undefined;
  }
  const patterns: Record<string, string> = { github: 'https://github.com/%(username)s', twitter: 'https://x.com/%(username)s' };
  const pattern = data.url_pattern ?? (data.subtype ? patterns[data.subtype] : undefined);
  return pattern?.replace('%(username)s', encodeURIComponent(value));
}

/** One custom profile field's value, drawn for its type. */
function FieldValue({ field, value }: { field: ProfileField; value: string }) {
  switch (field.type) {
    case FieldType.select: {
      let options: Record<string, { text: string }> = {};
      try {
        options = JSON.parse(field.field_data || '{}');
      } catch {
        // Shown as stored.
      }
      return <>{options[value]?.text ?? value}</>;
    }
    case FieldType.date: {
      const date = new Date(`${value}T00:00:00`);
      return <>{Number.isNaN(date.getTime()) ? value : date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })}</>;
    }
    case FieldType.link:
      return /^https?:\/\//i.test(value) ? (
        <a href={value} target="_blank" rel="noopener noreferrer">
          {value}
        </a>
      ) : (
        <>{value}</>
      );
    case FieldType.externalAccount: {
      const url = externalAccountUrl(field, value);
      return url ? (
        <a href={url} target="_blank" rel="noopener noreferrer">
          {value}
        </a>
      ) : (
        <>{value}</>
      );
    }
    case FieldType.user: {
      let ids: number[] = [];
      try {
        ids = JSON.parse(value);
      } catch {
        return <>{value}</>;
      }
      return (
        <span class="field-people">
          {ids.map((id) =>
            users.value.has(id) ? (
              <button key={id} type="button" class="link-button" onClick={(e) => showUserCard(id, e.currentTarget)}>
                {userName(id)}
              </button>
            ) : null,
          )}
        </span>
      );
    }
    default:
      return <span class="field-text">{value}</span>;
  }
}

/** The person's custom profile fields that have a value, in the organization's order; `summaryOnly` for the card. */
function ProfileFieldList({ user, fields, summaryOnly }: { user: User; fields: ProfileField[]; summaryOnly: boolean }) {
  const shown = fields.filter((f) => (!summaryOnly || f.display_in_profile_summary) && user.profile_data?.[f.id]?.value);
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((field) => (
        <div key={field.id} class="profile-row">
          <dt>{field.name}</dt>
          <dd>
            <FieldValue field={field} value={user.profile_data![field.id].value} />
          </dd>
        </div>
      ))}
    </>
  );
}

/**
 * The rows a card and a profile share: role, email (where the organization shows it),
 * presence, local time and the custom fields; `full` adds the user ID, when they joined, the
 * time zone and the fields kept out of the summary.
 */
export function PersonDetails({ user, fields, full }: { user: User; fields: ProfileField[]; full: boolean }) {
  const time = localTime(user);
  const joined = full && user.date_joined ? new Date(user.date_joined) : undefined;
  const row = (term: string, value: preact.ComponentChildren) => (
    <div class="profile-row">
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
  return (
    <dl class="profile-details">
      {row('Role', roleName(user))}
      {user.delivery_email && row('Email', <a href={`mailto:${user.delivery_email}`}>{user.delivery_email}</a>)}
      {full && row('User ID', user.user_id)}
      {joined && !Number.isNaN(joined.getTime()) && row('Joined', joined.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }))}
      {!user.is_bot && row('Presence', presenceText(user))}
      {time && row('Local time', full ? `${time} (${user.timezone})` : time)}
      <ProfileFieldList user={user} fields={fields} summaryOnly={!full} />
    </dl>
  );
}
