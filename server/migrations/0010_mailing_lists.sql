-- Mailing lists (spec section 3; server/docs/mailing-lists.md): a list belongs to a user group,
-- and the holders of its permission group are eligible. Subscriptions are stored as choices, not
-- as copies of the group: on an opt-out list an eligible member without a row is subscribed, on
-- an opt-in list they are not; a row records what the member chose. Who is eligible is read from
-- the group at the moment it matters, so joining or leaving the group changes it at once.

create table mailing_lists (
  -- the address, lower case: '{group id}-{name}@{email domain}'
  id text primary key check (id = lower(id) and id ~ '^[a-z0-9._-]+@[a-z0-9.-]+$'),
  user_group_id text not null references user_groups (id) on delete cascade,
  description text not null check (description <> ''),
  permission_group text not null,
  posting_permissions text not null check (posting_permissions in ('closed', 'open', 'announce')),
  -- true: opt-out (eligible members are subscribed until they leave); false: opt-in
  automatic_subscription boolean not null,
  created_at timestamptz not null,
  -- the request it was created from
  request_id bigint references requests (id) on delete set null,
  -- when the last daily digest went out
  last_digest_at timestamptz
);

create index mailing_lists_user_group_idx on mailing_lists (user_group_id);
create index mailing_lists_permission_group_idx on mailing_lists (permission_group);

create table list_subscriptions (
  list_id text not null references mailing_lists (id) on delete cascade,
  account_id bigint not null references accounts (id) on delete cascade,
  subscribed boolean not null,
  -- false: each message at once; true: one digest a day
  digest boolean not null default false,
  updated_at timestamptz not null,
  primary key (list_id, account_id)
);

create index list_subscriptions_account_idx on list_subscriptions (account_id);

-- Moderators beyond the group's admins (who moderate every list of their group).
create table list_moderators (
  list_id text not null references mailing_lists (id) on delete cascade,
  account_id bigint not null references accounts (id) on delete cascade,
  primary key (list_id, account_id)
);

-- Senders whose posts are accepted from now on (the always-accept action).
create table list_accepted_senders (
  list_id text not null references mailing_lists (id) on delete cascade,
  sender text not null check (sender = lower(sender)),
  created_at timestamptz not null,
  primary key (list_id, sender)
);

-- Posts waiting for a moderator. The message is kept as received (raw) and as plain text for the
-- moderator's page (never HTML).
create table held_messages (
  id bigint generated always as identity primary key,
  list_id text not null references mailing_lists (id) on delete cascade,
  sender text not null,
  subject text not null,
  text_body text not null,
  raw bytea not null,
  size_bytes integer not null check (size_bytes >= 0),
  reason text not null,
  held_at timestamptz not null
);

-- A page of a list's queue, oldest first; 'discard all deferred' deletes by list.
create index held_messages_list_idx on held_messages (list_id, held_at, id);

-- Posts delivered to a list: sent at once to immediate subscribers through the mail outbox, and
-- kept until the day's digest has gone to the digest subscribers.
create table list_posts (
  id bigint generated always as identity primary key,
  list_id text not null references mailing_lists (id) on delete cascade,
  sender text not null,
  subject text not null,
  text_body text not null,
  accepted_at timestamptz not null,
  digested_at timestamptz
);

create index list_posts_digest_idx on list_posts (list_id, accepted_at) where digested_at is null;
