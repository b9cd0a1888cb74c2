-- Adjudication: what an account history entry did, the open request queues, and the
-- indexes of the account search.

-- What a change did ('Locked', 'Unlocked', 'Closed', 'Created', 'Email changed' …); '' for the
-- entries written before this column (their comment says it). The comment stays the why.
alter table account_updates add column action text not null default '';

-- The queues as the lists read them: a kind's open requests (new: pending and incomplete;
-- other kinds: pending), oldest first, a page at a time.
create index requests_open_queue_idx on requests (kind, created_at, id)
  where status in ('pending', 'incomplete');

-- Account search (POST /accounts/search): a term matches the start of the username, first
-- name, last name or email, in any letter case; results in name order: the lower-cased last
-- name, first name and username in byte order (the same on every database whatever its
-- collation), then id. The name-order index also serves last-name prefixes (a "C" column).
create index accounts_username_prefix_idx on accounts (lower(username) text_pattern_ops);
create index accounts_first_name_prefix_idx on accounts (lower(first_name) text_pattern_ops);
create index accounts_email_prefix_idx on accounts (lower(email) text_pattern_ops);
create index accounts_name_order_idx on accounts ((lower(last_name) collate "C"), (lower(first_name) collate "C"), (lower(username) collate "C"), id);
