-- The scheduled purge (services/retention.ts) deletes in small batches by age: these indexes let
-- each batch find its rows without reading the whole table. Sessions, used challenges and the
-- outbox (sent_at, next_attempt_at) have theirs already.

-- Counts below the limit, oldest first (failures < PORTAL_LOGIN_MAX_FAILURES and last_failure_at < …).
create index login_failures_failures_last_failure_at_idx on login_failures (failures, last_failure_at);

create index verification_codes_created_at_idx on verification_codes (created_at);
