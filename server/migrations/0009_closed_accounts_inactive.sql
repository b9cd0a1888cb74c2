-- A closed account is never active: the demo seed of earlier versions wrote
-- closed.user with active true and closed true, which the screens showed as Active with Lock and
-- Close offered. Rows in that state become inactive, and the database refuses the state from now on.
update accounts set active = false where closed and active;

alter table accounts add constraint accounts_closed_not_active check (not (closed and active));
