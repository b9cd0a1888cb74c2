-- Two stamps that move whenever what an account holds may have changed, so that forward auth can
-- keep an account's hold on a service between calls and still see any change at the very next call
-- (services/service-sign-in/grant-cache.ts; server/docs/service-sign-in.md). Each call reads both
-- in the statement that reads its session; a hold kept under other stamps is read again.
--
-- accounts.access_version moves with any change of the account's own memberships or subscriptions.
alter table accounts add column access_version bigint not null default 0;

-- access_generation moves with any change of a user group's services or of a nesting: those reach
-- many accounts at once, and they are rare.
create table access_generation (
  only_row boolean primary key default true check (only_row),
  generation bigint not null
);
insert into access_generation (generation) values (0);

-- One statement moves each account it touched once, whatever the number of rows (a bulk insert of
-- a group's members is one update).
create function access_version_moved() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    update accounts set access_version = access_version + 1 where id in (select account_id from new_rows);
  elsif tg_op = 'DELETE' then
    update accounts set access_version = access_version + 1 where id in (select account_id from old_rows);
  else
    update accounts set access_version = access_version + 1
     where id in (select account_id from old_rows union select account_id from new_rows);
  end if;
  return null;
end
$$;

create function access_generation_moved() returns trigger language plpgsql as $$
begin
  update access_generation set generation = generation + 1;
  return null;
end
$$;

-- A trigger with transition tables names one event, hence three per table.
create trigger group_memberships_access_insert after insert on group_memberships
  referencing new table as new_rows for each statement execute function access_version_moved();
create trigger group_memberships_access_update after update on group_memberships
  referencing old table as old_rows new table as new_rows for each statement execute function access_version_moved();
create trigger group_memberships_access_delete after delete on group_memberships
  referencing old table as old_rows for each statement execute function access_version_moved();
create trigger account_subscriptions_access_insert after insert on account_subscriptions
  referencing new table as new_rows for each statement execute function access_version_moved();
create trigger account_subscriptions_access_update after update on account_subscriptions
  referencing old table as old_rows new table as new_rows for each statement execute function access_version_moved();
create trigger account_subscriptions_access_delete after delete on account_subscriptions
  referencing old table as old_rows for each statement execute function access_version_moved();

-- A truncate names no row: every account's hold may have changed.
create trigger group_memberships_access_truncate after truncate on group_memberships
  for each statement execute function access_generation_moved();
create trigger account_subscriptions_access_truncate after truncate on account_subscriptions
  for each statement execute function access_generation_moved();
create trigger group_nestings_access after insert or update or delete or truncate on group_nestings
  for each statement execute function access_generation_moved();
create trigger user_groups_access after update of services or delete or truncate on user_groups
  for each statement execute function access_generation_moved();
