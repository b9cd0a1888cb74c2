-- Rate limits shared by every server of the database (services/rate-limits.ts): the
-- calls of one client address against one limit in one fixed window. The key is
-- '<limit> <client> <window start in ms>'; a row is purged once its window has ended.

create table rate_limit_hits (
  key text primary key,
  hits integer not null,
  -- the end of the row's window
  expires_at timestamptz not null
);

create index rate_limit_hits_expires_at_idx on rate_limit_hits (expires_at);
