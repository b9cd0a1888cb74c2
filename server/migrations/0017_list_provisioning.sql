-- The mailing lists' rosters at a list engine that keeps its own (Mailman) are a provisioning
-- target (services/provisioning/lists.ts, docs/provisioning.md): a decision that changes who is on
-- a list records it in its own transaction, as it does for the directory, instead of a call after
-- the commit that a server killed in between never made.
--
-- The objects 0016 records reach this target too: 'account:<id>' (that address on every list),
-- 'group:<name>' (a nesting changed: the lists of that group's user group). A list adds
-- 'list:<id>' (its whole roster), which concerns only a lists target.
create or replace function provisioning_record(objects text[]) returns void language plpgsql as $$
begin
  insert into provisioning_pending (target, object)
  select t.name, o.object from provisioning_targets t cross join (select distinct unnest(objects) as object) o
   where t.kind = 'lists' or o.object not like 'list:%'
  on conflict (target, object) do update set version = provisioning_pending.version + 1;
end
$$;

-- A list created, or who it is for changed.
create function provisioning_on_mailing_list() returns trigger language plpgsql as $$
begin
  perform provisioning_record(array['list:' || new.id]);
  return null;
end
$$;

create trigger mailing_lists_provisioning after insert on mailing_lists
  for each row execute function provisioning_on_mailing_list();
create trigger mailing_lists_provisioning_update after update on mailing_lists
  for each row
  when ((old.permission_group, old.automatic_subscription) is distinct from (new.permission_group, new.automatic_subscription))
  execute function provisioning_on_mailing_list();

-- A member's choice: subscribed or not, each post or the digest.
create function provisioning_on_list_subscription() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    perform provisioning_record(array['list:' || old.list_id]);
  else
    perform provisioning_record(array['list:' || new.list_id]);
  end if;
  return null;
end
$$;

create trigger list_subscriptions_provisioning after insert or update or delete on list_subscriptions
  for each row execute function provisioning_on_list_subscription();

-- An address changed: the old one is on rosters that 'account:<id>' (which knows only the new
-- one) cannot clear, so every list of the user groups the account holds, directly or nested, is
-- brought in step whole.
create function provisioning_on_account_email() returns trigger language plpgsql as $$
begin
  perform provisioning_record(array(
    with recursive held(user_group_id, group_name) as (
      select user_group_id, group_name from group_memberships where account_id = new.id
      union
      select n.user_group_id, n.group_name from held h join group_nestings n on n.member_group = h.group_name
    )
    select distinct 'list:' || l.id from mailing_lists l where l.user_group_id in (select user_group_id from held)));
  return null;
end
$$;

create trigger accounts_provisioning_email after update of email on accounts
  for each row when (lower(old.email) is distinct from lower(new.email))
  execute function provisioning_on_account_email();
