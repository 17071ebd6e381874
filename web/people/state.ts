import { signal } from '@preact/signals';
import { presenceOf, updateMap } from '../state';

/**
 * The people area's state: statuses, muted users, the organization's custom profile fields,
 * and which user card or profile is open. live.ts hands it the register answer and the events;
 * only this module writes these signals.
 */

/** A person's status as `user_status` gives it: only what is set. */
export interface UserStatus {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export interface ProfileField {
  id: number;
  type: number;
  order: number;
  name: string;
  hint: string;
  /** JSON: a select field's options, or an external account's kind. */
  field_data: string;
  display_in_profile_summary?: boolean;
}

/** Zulip's custom profile field types. */
export const FieldType = { shortText: 1, longText: 2, select: 3, date: 4, link: 5, user: 6, externalAccount: 7, pronouns: 8 } as const;

/** People's names in order as a person reads them: "Person 2" before "Person 10". */
export const nameOrder = new Intl.Collator(undefined, { numeric: true });

export const userStatuses = signal<Map<number, UserStatus>>(new Map());
/** Muted people: ID -> when they were muted (seconds since the epoch). */
export const mutedUsers = signal<Map<number, number>>(new Map());
export const profileFields = signal<ProfileField[]>([]);
/** Whether others see the person's presence (`presence_enabled`; off is Zulip's invisible mode). */
export const presenceEnabled = signal(true);
/** Messages of muted people that the person chose to see anyway. */
export const revealedMessages = signal<Set<number>>(new Set());

/** The open user card: whose, and the element it was opened from (the focus returns there). */
export const openCard = signal<{ userId: number; anchor: HTMLElement | null } | null>(null);
/** Whose full profile is open. */
export const openProfile = signal<number | null>(null);
/** Whether the dialog to set one's status is open. */
export const statusDialogOpen = signal(false);

export function isMuted(userId: number): boolean {
  return mutedUsers.value.has(userId);
}

/** Presence as the list shows it: someone invisible (away) shows as offline, oneself too. */
export function shownPresence(userId: number, self: number | undefined): 'active' | 'idle' | 'offline' {
  if (userId === self) return presenceEnabled.value ? 'active' : 'offline';
  return userStatuses.value.get(userId)?.away ? 'offline' : presenceOf(userId);
}

export function showUserCard(userId: number, anchor: HTMLElement | null): void {
  openCard.value = { userId, anchor };
}

export function closeUserCard(): void {
  const card = openCard.value;
  openCard.value = null;
  // After the card (a modal dialog, which keeps the focus inside) has left the page; unless a
  // key pressed meanwhile (`@` straight after Esc) has put the focus somewhere already.
  setTimeout(() => {
    const now = document.activeElement;
    if (now && now !== document.body) return;
    if (card?.anchor?.isConnected) card.anchor.focus();
  });
}

/** What closing the open profile must also do (a profile opened by its address gives the address back). */
let afterProfileCloses: (() => void) | undefined;

export function showProfile(userId: number, afterClose?: () => void): void {
  openCard.value = null;
  openProfile.value = userId;
  afterProfileCloses = afterClose;
}

export function closeProfile(): void {
  openProfile.value = null;
  const after = afterProfileCloses;
  afterProfileCloses = undefined;
  after?.();
}

export function openStatusDialog(open: boolean): void {
  statusDialogOpen.value = open;
}

export function revealMessage(messageId: number, shown: boolean): void {
  const next = new Set(revealedMessages.value);
  if (shown) next.add(messageId);
  else next.delete(messageId);
  revealedMessages.value = next;
}

interface PeopleRegisterAnswer {
  user_status?: Record<string, UserStatus>;
  muted_users?: Array<{ id: number; timestamp: number }>;
  custom_profile_fields?: ProfileField[];
  user_settings?: Record<string, unknown>;
}

/** The people's part of the register answer. */
export function applyPeopleState(answer: PeopleRegisterAnswer): void {
  userStatuses.value = new Map(Object.entries(answer.user_status ?? {}).map(([id, status]) => [Number(id), status]));
  mutedUsers.value = new Map((answer.muted_users ?? []).map((m) => [m.id, m.timestamp]));
  profileFields.value = [...(answer.custom_profile_fields ?? [])].sort((a, b) => a.order - b.order);
  if (typeof answer.user_settings?.presence_enabled === 'boolean') presenceEnabled.value = answer.user_settings.presence_enabled;
}

/** A `user_status` event: what it carries replaces those parts; empty values clear them. */
export function onUserStatusEvent(event: Record<string, unknown>): void {
  const userId = event.user_id as number;
  updateMap(userStatuses, (copy) => {
    const next: UserStatus = { ...copy.get(userId) };
    if (typeof event.away === 'boolean') {
      if (event.away) next.away = true;
      else delete next.away;
    }
    if (typeof event.status_text === 'string') {
      if (event.status_text) next.status_text = event.status_text;
      else delete next.status_text;
    }
    if (typeof event.emoji_name === 'string') {
      if (event.emoji_name) {
        next.emoji_name = event.emoji_name;
        next.emoji_code = event.emoji_code as string;
        next.reaction_type = event.reaction_type as string;
      } else {
        delete next.emoji_name;
        delete next.emoji_code;
        delete next.reaction_type;
      }
    }
    if (Object.keys(next).length) copy.set(userId, next);
    else copy.delete(userId);
  });
}

export function onMutedUsersEvent(event: Record<string, unknown>): void {
  mutedUsers.value = new Map((event.muted_users as Array<{ id: number; timestamp: number }>).map((m) => [m.id, m.timestamp]));
}

export function onCustomProfileFieldsEvent(event: Record<string, unknown>): void {
  profileFields.value = [...(event.fields as ProfileField[])].sort((a, b) => a.order - b.order);
}

export function onPresenceEnabledSetting(value: unknown): void {
  if (typeof value === 'boolean') presenceEnabled.value = value;
}
