-- The groups whose members hold a group through nesting, however deep: the transitive closure of
-- group_nestings (0007), kept by a trigger whenever a nesting is added or taken away. Forward auth
-- and the OpenID provider read an account's groups on every call of every service; a join with
-- this table spares them walking group_nestings each time (server/docs/groups.md, docs/performance.md).
create table group_nestings_closure (
  -- the members of member_group hold group_name (a group of user_group_id) through nesting
  member_group text not null,
  group_name text not null,
  user_group_id text not null,
  primary key (member_group, group_name)
);

create function group_nestings_closure_of() returns table (member_group text, group_name text, user_group_id text)
language sql stable as $$
  with recursive closure(member_group, group_name, user_group_id) as (
    select n.member_group, n.group_name, n.user_group_id from group_nestings n
    union
    select c.member_group, n.group_name, n.user_group_id from closure c join group_nestings n on n.member_group = c.group_name
  )
  -- a member of a group in a cycle holds that group directly
  select c.member_group, c.group_name, c.user_group_id from closure c where c.member_group <> c.group_name
$$;

create function group_nestings_closure_refresh() returns trigger language plpgsql as $$
begin
  -- One change of nestings at a time: the next waits here, then reads what this one committed.
  lock table group_nestings_closure in exclusive mode;
  delete from group_nestings_closure;
  insert into group_nestings_closure (member_group, group_name, user_group_id)
    select c.member_group, c.group_name, c.user_group_id from group_nestings_closure_of() c;
  return null;
end
$$;

create trigger group_nestings_closure after insert or update or delete or truncate on group_nestings
  for each statement execute function group_nestings_closure_refresh();

insert into group_nestings_closure (member_group, group_name, user_group_id)
  select c.member_group, c.group_name, c.user_group_id from group_nestings_closure_of() c;
