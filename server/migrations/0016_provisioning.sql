-- Provisioning (docs/provisioning.md): the portal keeps outside systems (an LDAP directory, SCIM
-- services) in step with who holds what. Every decision that changes it records, in the decision's
-- own transaction, the objects to bring in step: 'account:<id>' (the person and every group it is
-- in) or 'group:<name>' (one group's whole member list). A worker per target converges each object
-- with the portal's truth and deletes its row; nothing is lost when a server dies, and a target
-- that is down only delays. The rows are written by triggers, so no decision, today's or a future
-- one, can forget to record its change.

-- One row per configured target, registered at start.
create table provisioning_targets (
  name text primary key,
  kind text not null,
  registered_at timestamptz not null default now(),
  -- the last full comparison with the portal's truth, and what it repaired
  last_reconcile_at timestamptz,
  last_reconcile_drift int,
  -- a server reconciling holds this lease, so that several servers reconcile once
  reconcile_claimed_until timestamptz
);

-- What each target has still to apply.
create table provisioning_pending (
  target text not null references provisioning_targets (name) on delete cascade,
  object text not null,
  -- when the object first went out of step (kept while it is recorded again)
  since timestamptz not null default now(),
  -- bumped at each new record: an apply that read an older version leaves the row for another pass
  version bigint not null default 1,
  attempts int not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- a worker applying the row holds it until then (a dead worker's claim runs out)
  claimed_until timestamptz,
  last_error text,
  primary key (target, object)
);

create index provisioning_pending_due_idx on provisioning_pending (target, next_attempt_at, since);

-- The history: failures, retries asked for, reconciles and what they repaired.
create table provisioning_events (
  id bigint generated always as identity primary key,
  target text not null,
  at timestamptz not null default now(),
  kind text not null check (kind in ('failed', 'retry', 'reconciled')),
  object text,
  detail text not null
);

create index provisioning_events_at_idx on provisioning_events (at);

-- Records objects for every target. A row already waiting keeps its place and its back-off.
create function provisioning_record(objects text[]) returns void language plpgsql as $$
begin
  insert into provisioning_pending (target, object)
  select t.name, o.object from provisioning_targets t cross join (select distinct unnest(objects) as object) o
  on conflict (target, object) do update set version = provisioning_pending.version + 1;
end
$$;

-- The groups a nesting change reaches: the outer group, every group it is nested in, and the
-- access groups ('{service}-users') of their user groups' services. A group's user group is the
-- part of its name before the first hyphen (a user group's id has none).
create function provisioning_nesting_objects(outer_group text) returns text[] language sql as $$
  with recursive up(group_name) as (
    select outer_group
    union
    select n.group_name from group_nestings n join up on n.member_group = up.group_name
  )
  select array(
    select 'group:' || group_name from up
    union
    select 'group:' || s.service || '-users'
      from up join user_groups g on g.id = split_part(up.group_name, '-', 1)
      cross join lateral unnest(g.services) as s(service)
  )
$$;

create function provisioning_on_account() returns trigger language plpgsql as $$
begin
  perform provisioning_record(array['account:' || new.id]);
  return null;
end
$$;

create trigger accounts_provisioning after insert on accounts
  for each row execute function provisioning_on_account();
create trigger accounts_provisioning_update after update on accounts
  for each row
  when ((old.username, old.email, old.first_name, old.last_name, old.active, old.closed, old.last_certified)
        is distinct from (new.username, new.email, new.first_name, new.last_name, new.active, new.closed, new.last_certified))
  execute function provisioning_on_account();

-- A membership or a subscription changes one account's groups.
create function provisioning_on_account_row() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    perform provisioning_record(array['account:' || old.account_id]);
  else
    perform provisioning_record(array['account:' || new.account_id]);
  end if;
  return null;
end
$$;

create trigger group_memberships_provisioning after insert or delete on group_memberships
  for each row execute function provisioning_on_account_row();
create trigger account_subscriptions_provisioning after insert or delete on account_subscriptions
  for each row execute function provisioning_on_account_row();

create function provisioning_on_nesting() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    perform provisioning_record(provisioning_nesting_objects(old.group_name));
  else
    perform provisioning_record(provisioning_nesting_objects(new.group_name));
  end if;
  return null;
end
$$;

create trigger group_nestings_provisioning after insert or delete on group_nestings
  for each row execute function provisioning_on_nesting();

-- A user group's services change who is in those services' access groups.
create function provisioning_on_group_services() returns trigger language plpgsql as $$
begin
  perform provisioning_record(array(
    select 'group:' || s || '-users'
      from ((select unnest(new.services) except select unnest(old.services))
            union
            (select unnest(old.services) except select unnest(new.services))) changed(s)));
  return null;
end
$$;

create trigger user_groups_provisioning after update of services on user_groups
  for each row when (old.services is distinct from new.services)
  execute function provisioning_on_group_services();
