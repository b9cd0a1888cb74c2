-- Groups: the additional permission groups a user group creates, groups nested in
-- other groups (every member of member_group holds group_name too, "nested"), and the indexes
-- of membership and user group requests.

-- A user group's additional (special) permission groups: '{id}-' and a name of letters, digits,
-- hyphens and underscores, unique whatever the letter case.
create table permission_groups (
  user_group_id text not null references user_groups (id) on delete cascade,
  group_name text not null,
  constraint permission_groups_name_check
    check (starts_with(group_name, user_group_id || '-') and group_name ~ '^[A-Za-z0-9_-]+$'),
  created_at timestamptz not null default now(),
  primary key (user_group_id, group_name)
);
create unique index permission_groups_name_lower_key on permission_groups (lower(group_name));

-- Nesting: the members of member_group (a group of any user group) hold group_name (a group of
-- user_group_id) through it. Kept by the platform's administrators (the demo data sets some).
create table group_nestings (
  user_group_id text not null references user_groups (id) on delete cascade,
  group_name text not null,
  member_group text not null,
  constraint group_nestings_group_name_check check (starts_with(group_name, user_group_id || '-')),
  constraint group_nestings_not_self_check check (group_name <> member_group),
  primary key (group_name, member_group)
);
create index group_nestings_member_group_idx on group_nestings (member_group);
create index group_nestings_user_group_id_idx on group_nestings (user_group_id);

-- A group's members a page at a time: its memberships by group name.
create index group_memberships_group_name_idx on group_memberships (group_name, account_id);
create index group_memberships_user_group_account_idx on group_memberships (user_group_id, account_id);
-- The index above serves every lookup 0003's index on user_group_id alone did.
drop index group_memberships_user_group_id_idx;

-- A group's pending membership requests, oldest first; one pending per account and group.
create index requests_membership_group_idx on requests ((details ->> 'user_group'), created_at, id)
  where kind = 'membership' and status = 'pending';
create unique index requests_pending_membership_key on requests (account_id, (details ->> 'user_group'))
  where kind = 'membership' and status = 'pending';
-- One pending request per new group identifier, whatever the letter case.
create unique index requests_pending_usergroup_key on requests (lower(details ->> 'user_group'))
  where kind = 'usergroup' and status = 'pending';
