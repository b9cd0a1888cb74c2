-- User groups (spec section 3): a team's identifier and rules, and the services it uses; and
-- the accounts' direct memberships, held as the group names the platform's services know
-- ('PORTAL-admin', 'PORTAL-notification-high', 'PORTAL-artifactsRead' …). A member's role,
-- notification level and special permissions derive from those names (spec section 6).

create table user_groups (
  -- the group identifier: a letter, then letters, digits or underscores; at least 2 characters
  id text primary key check (id ~ '^[A-Za-z][A-Za-z0-9_]+$'),
  name text not null check (name <> ''),
  description text not null check (description <> ''),
  domain text not null default 'TRMC' check (domain = 'TRMC'),
  open_access boolean not null default false,
  -- 'site-approved', or '<id>-admin' for a group only its admins see
  visibility text not null default 'site-approved',
  constraint user_groups_visibility_check check (visibility = 'site-approved' or visibility = id || '-admin'),
  member_constraint text not null default 'None' check (member_constraint in ('None', 'DoD')),
  -- open-access groups cannot require DoD PKI authentication (spec section 5)
  constraint user_groups_open_access_check check (not (open_access and member_constraint = 'DoD')),
  services text[] not null default '{}',
  created_at timestamptz not null default now()
);

-- Identifiers are unique regardless of letter case.
create unique index user_groups_id_lower_key on user_groups (lower(id));

create table group_memberships (
  user_group_id text not null references user_groups (id) on delete cascade,
  account_id bigint not null references accounts (id) on delete cascade,
  -- a group of this user group: its id, a hyphen, the rest
  group_name text not null,
  constraint group_memberships_group_name_check
    check (starts_with(group_name, user_group_id || '-') and length(group_name) > length(user_group_id) + 1),
  created_at timestamptz not null default now(),
  primary key (account_id, group_name)
);

create index group_memberships_user_group_id_idx on group_memberships (user_group_id);
