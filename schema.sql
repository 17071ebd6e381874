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
  deactivated       INTEGER NOT NULL DEFAULT 0
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
  email_address_visibility INTEGER NOT NULL DEFAULT 1
) STRICT;
CREATE UNIQUE INDEX users_by_email ON users (email COLLATE NOCASE);
CREATE UNIQUE INDEX users_by_delivery_email ON users (delivery_email COLLATE NOCASE);
CREATE UNIQUE INDEX users_by_api_key ON users (api_key);

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

-- Words that mark a message as has_alert_word for their user, kept as typed, unique per
-- user by their lower-case form (folded in JavaScript: SQLite's NOCASE folds only ASCII).
CREATE TABLE alert_words (
  id                INTEGER PRIMARY KEY,
  user_id           INTEGER NOT NULL REFERENCES users (id),
  word              TEXT    NOT NULL,
  folded            TEXT    NOT NULL
) STRICT;
CREATE UNIQUE INDEX alert_words_by_user ON alert_words (user_id, folded);
