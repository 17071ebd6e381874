import type { Stoa } from '../stoa';
import { RecipientType } from '../channels/queries';
import { presentReactionType, type ReactionTypeNames } from '../emoji/choice';
import { realmSetting } from '../realm/settings-store';
import { accessCheckFor, INACCESSIBLE_USER_AVATAR_PATH, INACCESSIBLE_USER_NAME } from '../users/access';
import { standInEmail } from '../users/email-visibility';
import type { UserRow } from '../users/queries';
import { flagNames } from './flags';
import type { MessageRow, ReactionRow, SubmessageRow } from './queries';
import { topicLinker, type TopicLink } from './render';
import { displayTopic } from './topics';

/** How one client wants messages: the knobs of GET /messages and of an event queue. */
export interface MessageView {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  /** Whether the client shows the empty topic itself (the empty_topic_name capability). */
  allowEmptyTopicName: boolean;
  /** The name the client knows the Zulip emoji's reaction type by. */
  reactionTypeNames: ReactionTypeNames;
}

export interface DisplayRecipientEntry {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy: boolean;
}

/**
 * Turns message rows into the API's Message objects. One presenter serves one request or
 * one event, so users and conversations looked up for one message are reused for the next.
 */
export class MessagePresenter {
  private readonly users = new Map<number, UserRow>();
  private readonly recipients = new Map<number, string | DisplayRecipientEntry[]>();
  private readonly linksByTopic = new Map<string, TopicLink[]>();
  private linksOf: ((topic: string) => TopicLink[]) | undefined;
  private realmString: string | undefined;

  constructor(private readonly stoa: Stoa) {}

  user(id: number): UserRow {
    let user = this.users.get(id);
    if (!user) {
      user = this.stoa.users.byId(id)!;
      this.users.set(id, user);
    }
    return user;
  }

  private readonly accessChecks = new Map<number, (target: UserRow) => boolean>();

  /**
   * Whether the viewer may see the sender (can_access_all_users_group). A guest may read a
   * channel message from someone outside the channel; Zulip then shows an "Unknown user".
   * Spectators (no viewer) read web-public channels with their senders shown.
   */
  canSeeSender(viewer: UserRow | null, senderId: number): boolean {
    if (viewer === null) return true;
    let check = this.accessChecks.get(viewer.id);
    if (!check) this.accessChecks.set(viewer.id, (check = accessCheckFor(this.stoa, viewer)));
    return check(this.user(senderId));
  }

  /** The channel's name, or the conversation's participants sorted by ID. */
  displayRecipient(recipientId: number): string | DisplayRecipientEntry[] {
    let shown = this.recipients.get(recipientId);
    if (shown === undefined) {
      const recipient = this.stoa.messages.recipient(recipientId)!;
      if (recipient.type === RecipientType.STREAM) {
        shown = this.stoa.channels.byId(recipient.type_id)!.name;
      } else {
        shown = this.stoa.messages.directGroupMembers(recipient.type_id).map((id) => {
          const user = this.user(id);
          return { id, email: user.email, full_name: user.full_name, is_mirror_dummy: false };
        });
      }
      this.recipients.set(recipientId, shown);
    }
    return shown;
  }

  private historyPolicy: string | undefined;

  /** The edit history clients may see: all of it, only moves, or none, as the organization chose. */
  private visibleHistory(row: MessageRow): Array<Record<string, unknown>> {
    if (row.edit_history === null) return [];
    this.historyPolicy ??= realmSetting(this.stoa, 'realm_message_edit_history_visibility_policy') as string;
    if (this.historyPolicy === 'none') return [];
    const entries = JSON.parse(row.edit_history) as Array<Record<string, unknown>>;
    if (this.historyPolicy === 'all') return entries;
    return entries.filter((entry) => 'prev_topic' in entry || 'prev_stream' in entry).map(({ prev_content: _c, prev_rendered_content: _r, ...move }) => move);
  }

  /** Links the realm's linkifiers find in a topic; computed when shown, so linkifier changes apply. */
  private topicLinks(topic: string): TopicLink[] {
    let links = this.linksByTopic.get(topic);
    if (!links) {
      links = (this.linksOf ??= topicLinker(this.stoa))(topic);
      this.linksByTopic.set(topic, links);
    }
    return links;
  }

  /**
   * Message objects as `viewer` (a spectator when null) sees them through `view`; `flagsById`
   * holds the viewer's flag bits for each message (absent means none). Reactions are read for all of them at once.
   */
  present(
    viewer: UserRow | null,
    rows: readonly MessageRow[],
    view: MessageView,
    flagsById: ReadonlyMap<number, number> | null,
  ): Record<string, unknown>[] {
    const ids = rows.map((row) => row.id);
    const reactions = this.reactionsByMessage(ids);
    const submessages = this.submessagesByMessage(ids);
    return rows.map((row) => {
      const message = this.base(viewer, row, view, reactions.get(row.id) ?? [], submessages.get(row.id) ?? []);
      if (flagsById) message.flags = flagNames(flagsById.get(row.id) ?? 0);
      return message;
    });
  }

  /** What hangs on the message of an event, read once however many shapes of it queues want. */
  private attached: { id: number; reactions: ReactionRow[]; submessages: SubmessageRow[] } | undefined;

  /** One message without flags: the body of a `message` event. */
  presentOne(viewer: UserRow, row: MessageRow, view: MessageView): Record<string, unknown> {
    if (this.attached?.id !== row.id) {
      this.attached = {
        id: row.id,
        reactions: this.reactionsByMessage([row.id]).get(row.id) ?? [],
        submessages: this.submessagesByMessage([row.id]).get(row.id) ?? [],
      };
    }
    return this.base(viewer, row, view, this.attached.reactions, this.attached.submessages);
  }

  /** Every message's submessages, read in one query, each message's in the order they came. */
  private submessagesByMessage(ids: readonly number[]): Map<number, SubmessageRow[]> {
    const byMessage = new Map<number, SubmessageRow[]>();
    if (ids.length === 0) return byMessage;
    for (const submessage of this.stoa.messages.submessagesOf(ids)) {
      let list = byMessage.get(submessage.message_id);
      if (!list) byMessage.set(submessage.message_id, (list = []));
      list.push(submessage);
    }
    return byMessage;
  }

  private reactionsByMessage(ids: readonly number[]): Map<number, ReactionRow[]> {
    const byMessage = new Map<number, ReactionRow[]>();
    if (ids.length === 0) return byMessage;
    for (const reaction of this.stoa.messages.reactionsOf(ids)) {
      let list = byMessage.get(reaction.message_id);
      if (!list) byMessage.set(reaction.message_id, (list = []));
      list.push(reaction);
    }
    return byMessage;
  }

  private base(
    viewer: UserRow | null,
    row: MessageRow,
    view: MessageView,
    reactions: readonly ReactionRow[],
    submessages: readonly SubmessageRow[],
  ): Record<string, unknown> {
    const sender = this.user(row.sender_id);
    const isChannel = row.stream_id !== null;
    const known = this.canSeeSender(viewer, sender.id);
    const message: Record<string, unknown> = {
      id: row.id,
      sender_id: sender.id,
      sender_email: known ? sender.email : standInEmail(sender.id),
      sender_full_name: known ? sender.full_name : INACCESSIBLE_USER_NAME,
      sender_realm_str: (this.realmString ??= this.stoa.realm.get()!.string_id),
      avatar_url: known ? this.stoa.avatars.urlFor(viewer, sender, view.clientGravatar) : INACCESSIBLE_USER_AVATAR_PATH,
      type: isChannel ? 'stream' : 'private',
      recipient_id: row.recipient_id,
      display_recipient: this.displayRecipient(row.recipient_id),
      subject: isChannel ? displayTopic(row.topic, view.allowEmptyTopicName) : '',
      topic_links: isChannel ? this.topicLinks(row.topic) : [],
      content: view.applyMarkdown ? row.rendered_content : row.content,
      content_type: view.applyMarkdown ? 'text/html' : 'text/x-markdown',
      timestamp: row.date_sent,
      client: row.sending_client,
      is_me_message: row.is_me_message === 1,
      reactions: reactions.map((r) => ({
        emoji_name: r.emoji_name,
        emoji_code: r.emoji_code,
        reaction_type: presentReactionType(r.reaction_type, view.reactionTypeNames),
        user_id: r.user_id,
      })),
      submessages: submessages.map((s) => ({
        id: s.id,
        message_id: s.message_id,
        sender_id: s.sender_id,
        msg_type: s.msg_type,
        content: s.content,
      })),
    };
    if (isChannel) message.stream_id = row.stream_id;
    const history = this.visibleHistory(row);
    if (history.length > 0) message.edit_history = history;
    if (row.last_edit_time !== null) message.last_edit_timestamp = row.last_edit_time;
    if (row.last_moved_time !== null) message.last_moved_timestamp = row.last_moved_time;
    return message;
  }
}
