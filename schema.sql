-- The whole schema of a fresh Stoa database. lib/db.ts applies it to an empty file and
-- records SCHEMA_VERSION in PRAGMA user_version; an older file is brought up to date by
-- the migrations listed there, so this file always describes the newest shape.
--
-- Times are UNIX seconds unless a column says otherwise. Booleans are 0/1 integers.

-- The one organization this server hosts.
CREATE TABLE realm (
  id                INTEGER PRIMARY KEY CHECK (id = 1),
  name              TEXT    NOT NULL,
  -- Zulip's subdomain; empty for an organization served at the root of the host.
  string_id         TEXT    NOT NULL DEFAULT '',
  description       TEXT    NOT NULL DEFAULT '',
  date_created      INTEGER NOT NULL,
  deactivated       INTEGER NOT NULL DEFAULT 0,
  -- A random version 4 UUID, kept through an export and import (register's realm_uuid).
  uuid              TEXT    NOT NULL DEFAULT '',
  -- Whether owners may read all private content and export it without consent (Zulip's
  -- owner_full_content_access); only the command line sets it.
  owner_full_content_access INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Organization settings that differ from their defaults (lib/realm/settings.ts), by their
-- register key; value is JSON. A group setting's value is the ID of the group holding it.
CREATE TABLE realm_settings (
  key               TEXT    PRIMARY KEY,
  value             TEXT    NOT NULL
) STRICT, WITHOUT ROWID;

-- People and bots. `email` is the API email clients see; `delivery_email` the real address,
-- which differs when the user's email_address_visibility hides it.
CREATE TABLE users (
  id                       INTEGER PRIMARY KEY,
  email                    TEXT    NOT NULL,
  delivery_email           TEXT    NOT NULL,
  full_name                TEXT    NOT NULL,
  -- scrypt hash (see lib/auth/passwords.ts); NULL when the account cannot log in by password.
  password_hash            TEXT,
  api_key                  TEXT    NOT NULL,
  -- 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest.
  role                     INTEGER NOT NULL CHECK (role IN (100, 200, 300, 400, 600)),
  is_active                INTEGER NOT NULL DEFAULT 1,
  is_bot                   INTEGER NOT NULL DEFAULT 0,
  -- NULL for people; 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded.
  bot_type                 INTEGER,
  bot_owner_id             INTEGER REFERENCES users (id),
  -- The server's own bots (the notification bot): hidden from user lists, as Zulip's
  -- cross-realm bots are.
  is_system_bot            INTEGER NOT NULL DEFAULT 0,
  can_create_users         INTEGER NOT NULL DEFAULT 0,
  timezone                 TEXT    NOT NULL DEFAULT '',
  date_joined_ms           INTEGER NOT NULL,
  -- 'G' provider-hosted (gravatar), 'U' uploaded.
  avatar_source            TEXT    NOT NULL DEFAULT 'G',
  avatar_version           INTEGER NOT NULL DEFAULT 1,
  -- Who may see delivery_email: 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators.
  email_address_visibility INTEGER NOT NULL DEFAULT 1,
  -- Bots only: where the bot posts and listens when a request names no channel.
  default_sending_stream_id          INTEGER,
  default_events_register_stream_id  INTEGER,
  default_all_public_streams         INTEGER NOT NULL DEFAULT 0,
  -- Zulip's special permission to change other people's email addresses; owners made at
  -- first start hold it, as they hold can_create_users.
  can_change_user_emails   INTEGER NOT NULL DEFAULT 0,
  -- An account brought in by an import to stand for the sender of imported messages, that
  -- nobody has used yet; it stops being one at its first login.
  is_imported_stub         INTEGER NOT NULL DEFAULT 0,
  -- Whether date_joined_ms is still the account's creation and becomes the time of its first
  -- login (accounts made through the API and imported stubs, as Zulip counts them).
  joins_at_first_login     INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE UNIQUE INDEX users_by_email ON users (email COLLATE NOCASE);
CREATE UNIQUE INDEX users_by_delivery_email ON users (delivery_email COLLATE NOCASE);
CREATE UNIQUE INDEX users_by_api_key ON users (api_key);
-- A member's own bots, read at every /register: without it each registration reads every user row.
CREATE INDEX users_by_bot_owner ON users (bot_owner_id) WHERE bot_owner_id IS NOT NULL;

-- The personal settings each user has changed themselves (PATCH /settings), which an
-- administrator's change for many users may leave alone (skip_if_already_edited).
CREATE TABLE user_settings_edited (
  user_id           INTEGER NOT NULL REFERENCES users (id),
  name              TEXT    NOT NULL,
  PRIMARY KEY (user_id, name)
) STRICT, WITHOUT ROWID;

-- User groups, named ones (the role:* system groups and user-made groups) and the anonymous
-- ones that hold a group-setting value of the form {direct_members, direct_subgroups}.
CREATE TABLE user_groups (
  id                INTEGER PRIMARY KEY,
  -- NULL for an anonymous group.
  name              TEXT,
  description       TEXT    NOT NULL DEFAULT '',
  is_system_group   INTEGER NOT NULL DEFAULT 0,
  deactivated       INTEGER NOT NULL DEFAULT 0,
  date_created      INTEGER,
  creator_id        INTEGER REFERENCES users (id),
  -- Group settings of the group itself, each a group holding the permission (named, or an
  -- anonymous group for a {direct_members, direct_subgroups} value). NULL only while the
  -- system groups are being created.
  can_add_members_group_id    INTEGER REFERENCES user_groups (id),
  can_join_group_id           INTEGER REFERENCES user_groups (id),
  can_leave_group_id          INTEGER REFERENCES user_groups (id),
  can_manage_group_id         INTEGER REFERENCES user_groups (id),
  can_mention_group_id        INTEGER REFERENCES user_groups (id),
  can_remove_members_group_id INTEGER REFERENCES user_groups (id)
) STRICT;
CREATE UNIQUE INDEX user_groups_by_name ON user_groups (name COLLATE NOCASE) WHERE name IS NOT NULL;

CREATE TABLE user_group_members (
  group_id          INTEGER NOT NULL REFERENCES user_groups (id),
  user_id           INTEGER NOT NULL REFERENCES users (id),
  PRIMARY KEY (group_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX user_group_members_by_user ON user_group_members (user_id);

CREATE TABLE user_group_subgroups (
  supergroup_id     INTEGER NOT NULL REFERENCES user_groups (id),
  subgroup_id       INTEGER NOT NULL REFERENCES user_groups (id),
  PRIMARY KEY (supergroup_id, subgroup_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX user_group_subgroups_by_subgroup ON user_group_subgroups (subgroup_id);

-- Per-user settings that differ from their defaults (lib/users/settings.ts); value is JSON.
CREATE TABLE user_settings (
  user_id           INTEGER NOT NULL REFERENCES users (id),
  name              TEXT    NOT NULL,
  value             TEXT    NOT NULL,
  PRIMARY KEY (user_id, name)
) STRICT, WITHOUT ROWID;

-- The organization's custom profile fields. field_type: 1 short text, 2 long text, 3 list of
-- options, 4 date, 5 link, 6 users, 7 external account, 8 pronouns. field_data is JSON text
-- for types 3 and 7 (the options; the account subtype) and empty for the others.
CREATE TABLE custom_profile_fields (
  id                         INTEGER PRIMARY KEY,
  name                       TEXT    NOT NULL UNIQUE,
  hint                       TEXT    NOT NULL DEFAULT '',
  field_type                 INTEGER NOT NULL CHECK (field_type BETWEEN 1 AND 8),
  field_data                 TEXT    NOT NULL DEFAULT '',
  -- Clients show fields in increasing position; a new field takes its ID, as on Zulip.
  position                   INTEGER NOT NULL,
  display_in_profile_summary INTEGER NOT NULL DEFAULT 0,
  required                   INTEGER NOT NULL DEFAULT 0,
  editable_by_user           INTEGER NOT NULL DEFAULT 1,
  -- Whether clients match people by this field's value when suggesting them (short text and
  -- external accounts only).
  use_for_user_matching      INTEGER NOT NULL DEFAULT 0
) STRICT;

-- A user's value for one field; rendered_value is the Markdown rendering for text fields.
-- A user-list field keeps its value as JSON text, e.g. "[3,7]", which is what clients get.
CREATE TABLE custom_profile_field_values (
  user_id          INTEGER NOT NULL REFERENCES users (id),
  field_id         INTEGER NOT NULL REFERENCES custom_profile_fields (id) ON DELETE CASCADE,
  value            TEXT    NOT NULL,
  rendered_value   TEXT,
  PRIMARY KEY (user_id, field_id)
) STRICT, WITHOUT ROWID;

-- Words that mark a message as has_alert_word for their user, kept as typed, unique per
-- user by their lower-case form (folded in JavaScript: SQLite's NOCASE folds only ASCII).
CREATE TABLE alert_words (
  id                INTEGER PRIMARY KEY,
  user_id           INTEGER NOT NULL REFERENCES users (id),
  word              TEXT    NOT NULL,
  folded            TEXT    NOT NULL
) STRICT;
CREATE UNIQUE INDEX alert_words_by_user ON alert_words (user_id, folded);

-- Who a message is addressed to: one row per user (type 1), channel (type 2) or direct
-- message group (type 3), as Zulip keeps them; messages and subscriptions point here.
CREATE TABLE recipients (
  id                INTEGER PRIMARY KEY,
  type              INTEGER NOT NULL CHECK (type IN (1, 2, 3)),
  type_id           INTEGER NOT NULL,
  UNIQUE (type, type_id)
) STRICT;

-- Folders that group channels in clients' channel lists.
CREATE TABLE channel_folders (
  id                INTEGER PRIMARY KEY,
  name              TEXT    NOT NULL,
  description       TEXT    NOT NULL DEFAULT '',
  rendered_description TEXT NOT NULL DEFAULT '',
  date_created      INTEGER NOT NULL,
  creator_id        INTEGER REFERENCES users (id),
  is_archived       INTEGER NOT NULL DEFAULT 0,
  -- Where clients list it: increasing, from 0.
  position          INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Channels (Zulip's streams). `name_key` is the name folded for case-insensitive uniqueness.
CREATE TABLE streams (
  id                            INTEGER PRIMARY KEY,
  name                          TEXT    NOT NULL,
  name_key                      TEXT    NOT NULL UNIQUE,
  description                   TEXT    NOT NULL DEFAULT '',
  rendered_description          TEXT    NOT NULL DEFAULT '',
  date_created                  INTEGER NOT NULL,
  creator_id                    INTEGER REFERENCES users (id),
  invite_only                   INTEGER NOT NULL DEFAULT 0,
  is_web_public                 INTEGER NOT NULL DEFAULT 0,
  history_public_to_subscribers INTEGER NOT NULL DEFAULT 1,
  -- NULL follows the organization; -1 keeps messages forever.
  message_retention_days        INTEGER,
  is_archived                   INTEGER NOT NULL DEFAULT 0,
  topics_policy                 TEXT    NOT NULL DEFAULT 'inherit'
    CHECK (topics_policy IN ('inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only')),
  folder_id                     INTEGER REFERENCES channel_folders (id),
  -- New users are subscribed to default channels.
  is_default                    INTEGER NOT NULL DEFAULT 0,
  first_message_id              INTEGER,
  recipient_id                  INTEGER REFERENCES recipients (id),
  -- Group settings: each the group holding the permission (see user_groups).
  can_add_subscribers_group_id               INTEGER NOT NULL REFERENCES user_groups (id),
  can_remove_subscribers_group_id            INTEGER NOT NULL REFERENCES user_groups (id),
  can_administer_channel_group_id            INTEGER NOT NULL REFERENCES user_groups (id),
  can_send_message_group_id                  INTEGER NOT NULL REFERENCES user_groups (id),
  can_subscribe_group_id                     INTEGER NOT NULL REFERENCES user_groups (id),
  can_delete_any_message_group_id            INTEGER NOT NULL REFERENCES user_groups (id),
  can_delete_own_message_group_id            INTEGER NOT NULL REFERENCES user_groups (id),
  can_move_messages_out_of_channel_group_id  INTEGER NOT NULL REFERENCES user_groups (id),
  can_move_messages_within_channel_group_id  INTEGER NOT NULL REFERENCES user_groups (id),
  -- Added to existing databases later, where SQLite cannot add a NOT NULL reference: every
  -- channel is given one on creation all the same.
  can_resolve_topics_group_id                INTEGER,
  can_create_topic_group_id                  INTEGER
) STRICT;

-- A user's membership of a channel's recipient, with their personal settings for it.
-- Unsubscribing keeps the row (active = 0) so the user's settings survive a return.
CREATE TABLE subscriptions (
  user_id                   INTEGER NOT NULL REFERENCES users (id),
  recipient_id              INTEGER NOT NULL REFERENCES recipients (id),
  active                    INTEGER NOT NULL DEFAULT 1,
  color                     TEXT    NOT NULL,
  is_muted                  INTEGER NOT NULL DEFAULT 0,
  pin_to_top                INTEGER NOT NULL DEFAULT 0,
  -- NULL: follow the user's global setting.
  desktop_notifications     INTEGER,
  audible_notifications     INTEGER,
  push_notifications        INTEGER,
  email_notifications       INTEGER,
  wildcard_mentions_notify  INTEGER,
  PRIMARY KEY (user_id, recipient_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX subscriptions_by_recipient ON subscriptions (recipient_id, active);

-- A user's visibility policy for one topic: 0 inherit, 1 muted, 2 unmuted, 3 followed.
-- `topic_key` is the topic folded for case-insensitive matching; `topic` as the user gave it.
CREATE TABLE user_topics (
  user_id           INTEGER NOT NULL REFERENCES users (id),
  stream_id         INTEGER NOT NULL REFERENCES streams (id),
  topic_key         TEXT    NOT NULL,
  topic             TEXT    NOT NULL,
  visibility_policy INTEGER NOT NULL CHECK (visibility_policy IN (1, 2, 3)),
  last_updated      INTEGER NOT NULL,
  PRIMARY KEY (user_id, stream_id, topic_key)
) STRICT, WITHOUT ROWID;

-- Users a user has muted: their messages reach the muter already read.
CREATE TABLE muted_users (
  user_id           INTEGER NOT NULL REFERENCES users (id),
  muted_user_id     INTEGER NOT NULL REFERENCES users (id),
  date_muted        INTEGER NOT NULL,
  PRIMARY KEY (user_id, muted_user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX muted_users_by_muted_user ON muted_users (muted_user_id);

-- Direct-message conversations between two or more people (Zulip's direct message groups).
-- One-to-one conversations and notes to oneself (one member) are ones of these too, so both
-- directions share its recipient (Zulip's model from level 482 on).
CREATE TABLE direct_message_groups (
  id                INTEGER PRIMARY KEY,
  -- The member IDs, sorted and comma-separated: the conversation's identity.
  user_ids          TEXT    NOT NULL UNIQUE,
  recipient_id      INTEGER REFERENCES recipients (id)
) STRICT;

-- Messages. `topic_key` is the topic folded for case-insensitive matching; empty for
-- direct messages.
CREATE TABLE messages (
  id                INTEGER PRIMARY KEY,
  sender_id         INTEGER NOT NULL REFERENCES users (id),
  recipient_id      INTEGER NOT NULL REFERENCES recipients (id),
  -- The channel of a channel message (the recipient's type_id), NULL for direct messages.
  stream_id         INTEGER REFERENCES streams (id),
  topic             TEXT    NOT NULL DEFAULT '',
  topic_key         TEXT    NOT NULL DEFAULT '',
  content           TEXT    NOT NULL,
  rendered_content  TEXT    NOT NULL,
  date_sent         INTEGER NOT NULL,
  -- The name of the client that sent it, e.g. ZulipPython or website.
  sending_client    TEXT    NOT NULL,
  is_me_message     INTEGER NOT NULL DEFAULT 0,
  has_link          INTEGER NOT NULL DEFAULT 0,
  has_image         INTEGER NOT NULL DEFAULT 0,
  has_attachment    INTEGER NOT NULL DEFAULT 0,
  last_edit_time    INTEGER,
  last_moved_time   INTEGER,
  -- JSON array of edit-history entries, newest first; NULL if never edited or moved.
  edit_history      TEXT
) STRICT;
CREATE INDEX messages_by_recipient ON messages (recipient_id, id);
CREATE INDEX messages_by_recipient_topic ON messages (recipient_id, topic_key, id);
CREATE INDEX messages_by_sender ON messages (sender_id, id);
-- For GET /messages' date anchors: the first message sent at or after a time.
CREATE INDEX messages_by_date_sent ON messages (date_sent, id);

-- The highest message ID ever deleted. SQLite would give the next message the highest ID in
-- use plus one, so deleting the newest message would hand its ID out again; clients rely on
-- IDs only growing, so new messages take IDs above this too (see lib/messages/queries.ts).
CREATE TABLE deleted_messages_high_water (id INTEGER NOT NULL) STRICT;
INSERT INTO deleted_messages_high_water (id) VALUES (0);
CREATE TRIGGER messages_raise_high_water AFTER DELETE ON messages
BEGIN
  UPDATE deleted_messages_high_water SET id = max(id, OLD.id);
END;

-- One row per user who has the message in their history, with their flags as bits
-- (lib/messages/flags.ts). Messages reached later through a channel's public history get a
-- row flagged `historical` only when the user acts on them (stars, reacts, reads).
CREATE TABLE user_messages (
  user_id           INTEGER NOT NULL REFERENCES users (id),
  message_id        INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  flags             INTEGER NOT NULL DEFAULT 0,
  -- Always NULL since schema version 38 (new rows wait in user_messages_new instead). Kept, and
  -- named by the unread index, because dropping it would rewrite every row of the table.
  recent            INTEGER,
  PRIMARY KEY (user_id, message_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX user_messages_by_message ON user_messages (message_id);
-- Unread (bit 0 clear) and starred (bit 1) rows are few and asked for often. The unread index
-- carries the flags, and `recent` (which its queries name, and SQLite would otherwise read from
-- the table): every /register reads a person's unread rows with their mention flags, which it
-- then finds without looking up each row in the table.
CREATE INDEX user_messages_unread ON user_messages (user_id, message_id, flags, recent) WHERE (flags & 1) = 0 AND recent IS NULL;
CREATE INDEX user_messages_starred ON user_messages (user_id, message_id) WHERE (flags & 2) <> 0;
-- Messages whose push notification still shows on the user's phones (active_mobile_push_notification).
CREATE INDEX user_messages_push_showing ON user_messages (user_id, message_id) WHERE (flags & 512) <> 0;
-- A user's direct messages (flag 256), for recent_private_conversations at every /register:
-- without it each registration walks the user's whole history.
CREATE INDEX user_messages_private ON user_messages (user_id, message_id) WHERE (flags & 256) <> 0;
-- New rows of user_messages wait here, keyed by message, and move into user_messages in
-- batches (lib/messages/queries.ts): a message to many people then fills a few pages here
-- instead of dirtying one page of user_messages (and of its unread index) per receiver. A
-- (user, message) pair is in one of the two tables, never both; every query reads both.
-- No foreign keys: SQLite looks up both parents for every row written here and again for
-- every row deleted (about a tenth of storing a message to everyone, bench/RESULTS.md), and
-- the rows get the same checks when they move into user_messages. Users are never deleted;
-- a deleted message takes its waiting rows with it through the trigger below.
CREATE TABLE user_messages_new (
  message_id        INTEGER NOT NULL,
  user_id           INTEGER NOT NULL,
  flags             INTEGER NOT NULL,
  PRIMARY KEY (message_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX user_messages_new_by_user ON user_messages_new (user_id, message_id);
CREATE TRIGGER messages_delete_waiting_rows AFTER DELETE ON messages
BEGIN
  DELETE FROM user_messages_new WHERE message_id = OLD.id;
END;
-- Both tables as one, for lookups by person and message, by message, and filters without an
-- order and a limit. Never for "the newest N": SQLite does not carry ORDER BY ... LIMIT into
-- the two halves and would read a person's whole history; those queries ask each table with
-- its own order and limit and merge (lib/messages/fetch.ts).
CREATE VIEW user_messages_all AS
  SELECT user_id, message_id, flags FROM user_messages
  UNION ALL
  SELECT user_id, message_id, flags FROM user_messages_new;

-- Emoji reactions. emoji_code's meaning depends on reaction_type (see lib/emoji/choice.ts); the
-- types are the specification's names (Zulip's zulip_extra_emoji is service_extra_emoji).
CREATE TABLE reactions (
  id                INTEGER PRIMARY KEY,
  message_id        INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  user_id           INTEGER NOT NULL REFERENCES users (id),
  emoji_name        TEXT    NOT NULL,
  emoji_code        TEXT    NOT NULL,
  reaction_type     TEXT    NOT NULL CHECK (reaction_type IN ('unicode_emoji', 'realm_emoji', 'service_extra_emoji')),
  UNIQUE (message_id, user_id, reaction_type, emoji_code)
) STRICT;

-- Submessages: what widgets (polls, to-do lists) add to a message, in the order they came.
-- The first, of msg_type 'widget', says which widget the message is; the rest are the
-- widget's events (votes, new options, ticked tasks). `content` is the client's JSON text,
-- kept as sent. AUTOINCREMENT: a deleted message's submessage IDs are never given again.
CREATE TABLE submessages (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  message_id        INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  sender_id         INTEGER NOT NULL REFERENCES users (id),
  msg_type          TEXT    NOT NULL,
  content           TEXT    NOT NULL
) STRICT;
CREATE INDEX submessages_by_message ON submessages (message_id, id);

-- Full-text search over topics and message text. Contentless: the text lives in messages,
-- and lib/messages/queries.ts keeps the index in step with it.
CREATE VIRTUAL TABLE messages_fts USING fts5 (topic, content, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');

-- The last time each user reported presence, as Zulip's UserPresence keeps it: when a client
-- last said the user was active, and when any client of theirs was last connected at all.
-- Times in milliseconds, because the thresholds that decide when a report is stored or sent
-- compare finer than a second. `last_update_id` grows across the organization with every
-- stored change, so clients can ask for what changed since the last one they saw.
CREATE TABLE user_presence (
  user_id           INTEGER PRIMARY KEY REFERENCES users (id),
  -- NULL: no client ever reported the user active (clients are shown the date joined).
  last_active_ms    INTEGER,
  last_connected_ms INTEGER NOT NULL,
  last_update_id    INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX user_presence_by_update ON user_presence (last_update_id);


-- A user's status message and emoji. Empty strings mean none; `away` is not stored here,
-- since it is the opposite of the presence_enabled setting.
CREATE TABLE user_status (
  user_id           INTEGER PRIMARY KEY REFERENCES users (id),
  status_text       TEXT    NOT NULL DEFAULT '',
  emoji_name        TEXT    NOT NULL DEFAULT '',
  emoji_code        TEXT    NOT NULL DEFAULT '',
  reaction_type     TEXT    NOT NULL DEFAULT 'unicode_emoji',
  updated_at        INTEGER NOT NULL
) STRICT;

-- Message drafts a user keeps on the server to pick up on another device, while their
-- enable_drafts_synchronization setting is on. `to_ids` is a JSON array, as clients see it:
-- the channel of a channel draft, or the other people of a direct draft (the user alone for
-- a note to self); empty for an unaddressed draft. AUTOINCREMENT: a deleted draft's ID is never
-- given again, as on Zulip, so a client's stale copy cannot name another draft.
CREATE TABLE drafts (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id           INTEGER NOT NULL REFERENCES users (id),
  type              TEXT    NOT NULL CHECK (type IN ('', 'stream', 'private')),
  to_ids            TEXT    NOT NULL,
  topic             TEXT    NOT NULL,
  content           TEXT    NOT NULL,
  -- UNIX seconds with the fraction a client may send; clients see whole seconds.
  last_edit_time    REAL    NOT NULL
) STRICT;
CREATE INDEX drafts_by_user ON drafts (user_id, last_edit_time);

-- Texts a user saved to insert into messages they compose.
CREATE TABLE saved_snippets (
  id                INTEGER PRIMARY KEY,
  user_id           INTEGER NOT NULL REFERENCES users (id),
  title             TEXT    NOT NULL,
  content           TEXT    NOT NULL,
  date_created      INTEGER NOT NULL
) STRICT;
CREATE INDEX saved_snippets_by_user ON saved_snippets (user_id);

-- The email domains the organization admits new accounts from when
-- realm_emails_restricted_to_domains is on (Zulip's RealmDomain), lowercase.
CREATE TABLE realm_domains (
  id                INTEGER PRIMARY KEY,
  domain            TEXT    NOT NULL UNIQUE,
  allow_subdomains  INTEGER NOT NULL
) STRICT;

-- The phones people are logged in on (Zulip's Device, level 468): the first step of the newer
-- push registration; the push_* columns describe that registration.
CREATE TABLE client_devices (
  id                INTEGER PRIMARY KEY,
  user_id           INTEGER NOT NULL REFERENCES users (id),
  push_key_id       INTEGER,
  push_token_id     TEXT,
  pending_push_token_id TEXT,
  -- UNIX seconds.
  push_token_last_updated_timestamp INTEGER,
  push_registration_error_code TEXT,
  -- The key notifications are encrypted with: base64 of a cryptosystem byte and the key.
  push_key          TEXT,
  push_token_kind   TEXT CHECK (push_token_kind IN ('fcm', 'apns')),
  -- What the relay is yet to be sent for pending_push_token_id; kept so that a registration
  -- a restart interrupted is sent when the server starts again.
  pending_bouncer_public_key TEXT,
  pending_encrypted_push_registration TEXT
) STRICT;
CREATE INDEX client_devices_by_user ON client_devices (user_id);

-- Each user's left-sidebar views (Zulip's NavigationView): built-in ones pinned or hidden,
-- and custom ones with a name.
CREATE TABLE navigation_views (
  id                INTEGER PRIMARY KEY,
  user_id           INTEGER NOT NULL REFERENCES users (id),
  -- The view's address (its URL hash without '#'), which names it.
  fragment          TEXT    NOT NULL,
  is_pinned         INTEGER NOT NULL,
  -- NULL for a built-in view (Inbox, Recent, ...), whose name is the client's.
  name              TEXT,
  UNIQUE (user_id, fragment)
) STRICT;

-- Code playgrounds: where clients offer to open a code block of a language.
-- `language` is the highlighter language a code block names.
CREATE TABLE realm_playgrounds (
  id                INTEGER PRIMARY KEY,
  name              TEXT    NOT NULL,
  language          TEXT    NOT NULL,
  url_template      TEXT    NOT NULL,
  UNIQUE (language, name)
) STRICT;

-- Linkifiers: text matching `pattern` (an RE2 regular expression) in messages and topics
-- becomes a link to `url_template` (RFC 6570) filled from the pattern's named groups.
-- They apply in `position` order; a new one goes last.
CREATE TABLE realm_linkifiers (
  id                INTEGER PRIMARY KEY,
  pattern           TEXT    NOT NULL UNIQUE,
  url_template      TEXT    NOT NULL,
  position          INTEGER NOT NULL,
  -- For reverse linkification (a pasted URL back to the pattern's text): a text the pattern
  -- matches, the template that writes such a text from the pattern's groups, and further URL
  -- templates (a JSON array of strings) that only reverse linkification reads.
  example_input     TEXT,
  reverse_template  TEXT,
  alternative_url_templates TEXT NOT NULL DEFAULT '[]'
) STRICT;

-- Mobile push tokens a user's devices registered (POST /users/me/apns_device_token and
-- /users/me/android_gcm_reg_id). kind: 1 APNs, 2 FCM, Zulip's numbering, which the relay
-- protocol uses too. A token belongs to one user: a phone that changes accounts moves it.
CREATE TABLE push_device_tokens (
  id                INTEGER PRIMARY KEY,
  user_id           INTEGER NOT NULL REFERENCES users (id),
  kind              INTEGER NOT NULL CHECK (kind IN (1, 2)),
  token             TEXT    NOT NULL,
  ios_app_id        TEXT,
  last_updated      INTEGER NOT NULL,
  UNIQUE (token, kind)
) STRICT;
CREATE INDEX push_device_tokens_by_user ON push_device_tokens (user_id);

-- Uploaded files. The file itself is at uploads/<path_id> in the data folder; path_id is
-- <realm id>/<two hex digits>/<random part>/<cleaned-up file name>, so no name can be guessed.
CREATE TABLE attachments (
  id                INTEGER PRIMARY KEY,
  path_id           TEXT    NOT NULL UNIQUE,
  -- The name as uploaded.
  file_name         TEXT    NOT NULL,
  owner_id          INTEGER NOT NULL REFERENCES users (id),
  size              INTEGER NOT NULL,
  -- Milliseconds since the epoch, as clients get it.
  create_time       INTEGER NOT NULL,
  content_type      TEXT,
  -- Images only: their size in pixels and whether they move, for previews and thumbnails.
  width             INTEGER,
  height            INTEGER,
  animated          INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX attachments_by_owner ON attachments (owner_id, id);

-- Which messages link which uploads: who may download a file follows who may read them.
CREATE TABLE attachment_messages (
  attachment_id     INTEGER NOT NULL REFERENCES attachments (id) ON DELETE CASCADE,
  message_id        INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  PRIMARY KEY (attachment_id, message_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX attachment_messages_by_message ON attachment_messages (message_id);

-- Custom emoji. A deactivated emoji keeps its row and image: old messages, reactions and
-- statuses still show it, but it cannot be newly used, and its name is free again.
CREATE TABLE realm_emoji (
  id                INTEGER PRIMARY KEY,
  name              TEXT    NOT NULL,
  -- The image's file name under uploads/emoji/<realm id>/: random, with the format's extension.
  file_name         TEXT    NOT NULL,
  author_id         INTEGER REFERENCES users (id),
  is_animated       INTEGER NOT NULL DEFAULT 0,
  deactivated       INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE UNIQUE INDEX realm_emoji_active_name ON realm_emoji (name) WHERE deactivated = 0;

-- The organization's defaults for new users' personal settings (lib/users/settings.ts) where
-- they differ from Stoa's own defaults; value is JSON. Existing users keep what they have.
CREATE TABLE realm_user_settings_defaults (
  name              TEXT    PRIMARY KEY,
  value             TEXT    NOT NULL
) STRICT, WITHOUT ROWID;

-- The token of a channel's email address, one per person asking and sender the address
-- names (sender_id NULL: the email gateway). Stoa receives no email; the address is kept so
-- that it stays the same each time it is asked for.
CREATE TABLE channel_email_addresses (
  stream_id         INTEGER NOT NULL REFERENCES streams (id),
  creator_id        INTEGER NOT NULL REFERENCES users (id),
  sender_id         INTEGER REFERENCES users (id),
  email_token       TEXT    NOT NULL UNIQUE
) STRICT;
CREATE UNIQUE INDEX channel_email_addresses_by_channel
  ON channel_email_addresses (stream_id, creator_id, coalesce(sender_id, 0));

-- Messages a user scheduled to be sent later; the server sends each at its time, as its
-- sender, with the permissions the sender has then. `to_ids` is a JSON array, as clients
-- see it: the channel of a channel message, or the other people of a direct message (the
-- sender alone for a note to self). A sent one keeps its row, with `delivered_message_id`;
-- one that could not be sent stays listed with `failed` and why, until edited or deleted.
-- AUTOINCREMENT: a deleted one's ID is never given again.
CREATE TABLE scheduled_messages (
  id                    INTEGER PRIMARY KEY AUTOINCREMENT,
  sender_id             INTEGER NOT NULL REFERENCES users (id),
  type                  TEXT    NOT NULL CHECK (type IN ('stream', 'private')),
  to_ids                TEXT    NOT NULL,
  topic                 TEXT    NOT NULL,
  content               TEXT    NOT NULL,
  rendered_content      TEXT    NOT NULL,
  -- The client it was scheduled (or last edited) from; the message is sent as from it.
  sending_client        TEXT    NOT NULL,
  -- UNIX seconds.
  scheduled_timestamp   INTEGER NOT NULL,
  read_by_sender        INTEGER NOT NULL,
  delivered             INTEGER NOT NULL DEFAULT 0,
  -- Not a reference: the sent message may be deleted later; this only records what was sent.
  delivered_message_id  INTEGER,
  failed                INTEGER NOT NULL DEFAULT 0,
  failure_message       TEXT,
  -- A reminder (Zulip's delivery type "remind"): the message it is about, not a reference
  -- since that message may be deleted meanwhile, and the user's note. NULL for a message to send.
  reminder_target_message_id INTEGER,
  reminder_note         TEXT
) STRICT;
-- The next one to send, and each sender's list.
CREATE INDEX scheduled_messages_due ON scheduled_messages (scheduled_timestamp, id) WHERE delivered = 0 AND failed = 0;
CREATE INDEX scheduled_messages_by_sender ON scheduled_messages (sender_id, scheduled_timestamp) WHERE delivered = 0;

-- What an outgoing-webhook bot calls (Zulip's Service): one row per such bot. A message that
-- mentions the bot, or a direct message to it, is POSTed to base_url, in Zulip's format
-- (interface 1) or Slack's (interface 2), with token so the bot's server can tell it is us.
CREATE TABLE bot_services (
  bot_id            INTEGER PRIMARY KEY REFERENCES users (id),
  name              TEXT    NOT NULL,
  -- Empty until set: Zulip lets a bot be created without one and given it later.
  base_url          TEXT    NOT NULL,
  interface         INTEGER NOT NULL CHECK (interface IN (1, 2)),
  token             TEXT    NOT NULL
) STRICT;

-- Browser sign-ins. The cookie carries a random token; only its SHA-256 is stored, so a copy
-- of the database logs no one in. A row is removed on logout, on a password change (but for
-- the session that made it), on deactivation, and once it has gone unused too long.
CREATE TABLE sessions (
  id                INTEGER PRIMARY KEY,
  token_hash        TEXT    NOT NULL UNIQUE,
  user_id           INTEGER NOT NULL REFERENCES users (id),
  -- What the browser must echo in X-CSRFToken on unsafe requests; readable by the page.
  csrf_token        TEXT    NOT NULL,
  -- Milliseconds since the epoch.
  created_ms        INTEGER NOT NULL,
  last_seen_ms      INTEGER NOT NULL
) STRICT;
CREATE INDEX sessions_by_user ON sessions (user_id);

-- Invitations: reusable links (is_multiuse = 1) and email invitations (is_multiuse = 0, with
-- the email), in one table, as GET /invites lists both. The key is the secret part
-- of the link /join/<key>/; it is kept as it is, since GET /invites shows the link again.
CREATE TABLE invites (
  id                INTEGER PRIMARY KEY,
  key               TEXT    NOT NULL UNIQUE,
  is_multiuse       INTEGER NOT NULL,
  email             TEXT,
  invited_by_user_id INTEGER NOT NULL REFERENCES users (id),
  -- The role the new account gets (100 owner ... 600 guest).
  invited_as        INTEGER NOT NULL,
  include_realm_default_subscriptions INTEGER NOT NULL DEFAULT 0,
  notify_referrer_on_join INTEGER NOT NULL DEFAULT 1,
  -- UNIX seconds; expires_at NULL: never.
  invited_at        INTEGER NOT NULL,
  expires_at        INTEGER,
  -- 0 usable, 1 used (an email invitation, once), 2 revoked: Zulip's confirmation statuses.
  status            INTEGER NOT NULL DEFAULT 0,
  -- What the Welcome Bot tells the new account: NULL the organization's text, '' nothing.
  welcome_message_custom_text TEXT
) STRICT;
CREATE INDEX invites_by_inviter ON invites (invited_by_user_id);

-- The channels and groups an invitation's new account joins.
CREATE TABLE invite_channels (
  invite_id         INTEGER NOT NULL REFERENCES invites (id) ON DELETE CASCADE,
  channel_id        INTEGER NOT NULL REFERENCES streams (id),
  PRIMARY KEY (invite_id, channel_id)
) STRICT, WITHOUT ROWID;
CREATE TABLE invite_groups (
  invite_id         INTEGER NOT NULL REFERENCES invites (id) ON DELETE CASCADE,
  group_id          INTEGER NOT NULL REFERENCES user_groups (id),
  PRIMARY KEY (invite_id, group_id)
) STRICT, WITHOUT ROWID;

-- Data exports of the organization that administrators asked for (POST /export/realm). The
-- tarball is at exports/<file_path> in the data folder once it succeeded. Times are UNIX
-- seconds with their fraction, as clients get them.
CREATE TABLE realm_exports (
  id                INTEGER PRIMARY KEY,
  acting_user_id    INTEGER NOT NULL REFERENCES users (id),
  -- 1 public, 2 full with consent, 3 full without consent (Zulip's RealmExport.type).
  export_type       INTEGER NOT NULL CHECK (export_type IN (1, 2, 3)),
  date_requested    REAL    NOT NULL,
  date_succeeded    REAL,
  date_failed       REAL,
  date_deleted      REAL,
  file_path         TEXT,
  size              INTEGER,
  sha256            TEXT
) STRICT;

-- A bot's own key-value storage (GET/PUT/DELETE /bot_storage), which zulip_bots' storage
-- helpers use; at most USER_STATE_SIZE_LIMIT characters of keys and values per bot. Kept in
-- the order written, as Zulip lists it.
CREATE TABLE bot_storage (
  bot_id            INTEGER NOT NULL REFERENCES users (id),
  key               TEXT    NOT NULL,
  value             TEXT    NOT NULL,
  PRIMARY KEY (bot_id, key)
) STRICT;

-- Default channel groups: named sets of channels offered together to people who sign up.
-- A default channel (streams.is_default) is in none: everyone joins it anyway.
CREATE TABLE default_stream_groups (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  name              TEXT    NOT NULL UNIQUE,
  description       TEXT    NOT NULL
) STRICT;
CREATE TABLE default_stream_group_channels (
  group_id          INTEGER NOT NULL REFERENCES default_stream_groups (id) ON DELETE CASCADE,
  stream_id         INTEGER NOT NULL REFERENCES streams (id),
  PRIMARY KEY (group_id, stream_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX default_stream_group_channels_by_channel ON default_stream_group_channels (stream_id);

-- The one-time notices (onboarding steps) each user has seen, so that every device stops
-- showing them; UNIX seconds.
CREATE TABLE onboarding_steps_seen (
  user_id           INTEGER NOT NULL REFERENCES users (id),
  step              TEXT    NOT NULL,
  timestamp         INTEGER NOT NULL,
  PRIMARY KEY (user_id, step)
) STRICT, WITHOUT ROWID;

-- Links sent by email that act without a login, each named by its secret key: a password
-- reset (one use, expires), a new email address to confirm (one use, expires; a newer one
-- replaces it), and the unsubscription from missed-message emails (one per person, kept).
CREATE TABLE email_links (
  key               TEXT    PRIMARY KEY,
  kind              TEXT    NOT NULL CHECK (kind IN ('password_reset', 'email_change', 'unsubscribe')),
  user_id           INTEGER NOT NULL REFERENCES users (id),
  -- email_change only: the address to confirm.
  new_email         TEXT,
  created_ms        INTEGER NOT NULL,
  -- NULL: never expires.
  expires_ms        INTEGER,
  used_ms           INTEGER
) STRICT;
CREATE INDEX email_links_by_user ON email_links (user_id, kind);

-- Missed-message emails waiting for their batch to fall due (due_ms), kept here so that a
-- restart loses none. A person's messages share the due time of the first one waiting.
CREATE TABLE email_notifications_pending (
  user_id            INTEGER NOT NULL REFERENCES users (id),
  message_id         INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  -- Why it notifies: direct_message, mention, wildcard_mention, alert_word, followed_topic, channel.
  trigger            TEXT    NOT NULL,
  -- The group whose mention reached the person, when no personal mention did.
  mentioned_group_id INTEGER,
  due_ms             INTEGER NOT NULL,
  PRIMARY KEY (user_id, message_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX email_notifications_by_due ON email_notifications_pending (due_ms);
