-- Requests of every kind (spec section 3) in one table, with their update history; the codes
-- of the verification flow; the services an account subscribes to directly.

create table requests (
  id bigint generated always as identity primary key,
  kind text not null
    check (kind in ('new', 'profilechange', 'authchange', 'unlock', 'usergroup', 'mailinglist', 'membership')),
  status text not null check (status in ('pending', 'incomplete', 'approved', 'denied')),
  -- the account the request is about; null for a new account request (no account yet)
  account_id bigint references accounts (id) on delete cascade,
  -- the applicant's username (new) or the account's
  username text not null,
  -- new: the applicant's email; profilechange: the new email; others: the account's email when asked
  email text not null,
  reason text not null default '',
  -- the fields of the kind (new: names, address, supervisor, cac_eligible, certificate …)
  details jsonb not null default '{}',
  -- the username of whoever submitted it for the applicant (a surrogate); null: the applicant
  submitted_by text,
  -- who decided last
  adjudicator text,
  created_at timestamptz not null,
  updated_at timestamptz not null
);

-- The queues: a kind's requests in a status, oldest first.
create index requests_queue_idx on requests (kind, status, created_at, id);
create index requests_account_id_idx on requests (account_id);
create index requests_email_lower_idx on requests (kind, lower(email));
-- One open new account request per username and per email (any letter case).
create unique index requests_open_new_username_key on requests (lower(username))
  where kind = 'new' and status in ('pending', 'incomplete');
create unique index requests_open_new_email_key on requests (lower(email))
  where kind = 'new' and status in ('pending', 'incomplete');
-- One pending request of these kinds per account.
create unique index requests_pending_per_account_key on requests (kind, account_id)
  where status = 'pending' and kind in ('profilechange', 'authchange', 'unlock');

create table request_updates (
  id bigint generated always as identity primary key,
  request_id bigint not null references requests (id) on delete cascade,
  -- the status the request has after this update
  status text not null check (status in ('pending', 'incomplete', 'approved', 'denied')),
  -- who made it: the applicant (submitted, answered) or the adjudicator
  username text not null,
  comment text not null default '',
  created_at timestamptz not null
);

create index request_updates_request_id_idx on request_updates (request_id, created_at, id);

-- Verification codes: six digits mailed to an address, kept as an HMAC (never the code). Valid
-- for ten minutes, at most five wrong tries, consumed by the action they allow. A row is
-- written for every send asked for, known address or not, so that the hourly limit cannot tell
-- the two apart.
create table verification_codes (
  id bigint generated always as identity primary key,
  -- lower-cased and trimmed
  email text not null,
  code_hash text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  tries integer not null default 0,
  used_at timestamptz
);

create index verification_codes_email_idx on verification_codes (email, created_at desc);

-- Services an account subscribes to itself; those held through a group come from user_groups.
create table account_subscriptions (
  account_id bigint not null references accounts (id) on delete cascade,
  service text not null,
  created_at timestamptz not null default now(),
  primary key (account_id, service)
);
