-- Signing in: website tokens, sessions, failed sign-in counters, used bot challenges,
-- smart-card bindings and the server's generated secrets.

-- Argon2id hash (PHC string) of the account's website token; null: the account has none.
alter table accounts add column token_hash text;

-- Usernames are matched without regard to letter case at sign-in: two accounts may not differ
-- by case alone.
create unique index accounts_username_lower_key on accounts (lower(username));

create table sessions (
  -- SHA-256 (hex) of the 256-bit random id in the cookie; the id itself is never stored.
  id_hash text primary key,
  -- null: an anonymous session (before sign-in)
  account_id bigint references accounts (id) on delete cascade,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  -- absolute expiry; the idle expiry is last_seen_at + the idle timeout
  expires_at timestamptz not null
);

create index sessions_account_id_idx on sessions (account_id);
create index sessions_expires_at_idx on sessions (expires_at);
create index sessions_last_seen_at_idx on sessions (last_seen_at);

-- Failed sign-ins per normalized identifier: 'account:<id>' when the identifier names an
-- account, else 'id:<lower-cased trimmed identifier>'.
create table login_failures (
  key text primary key,
  failures integer not null,
  last_failure_at timestamptz not null
);

-- Each solved bot challenge is accepted once: the SHA-256 (hex) of its signature, kept until
-- the challenge expires.
create table used_challenges (
  signature_hash text primary key,
  expires_at timestamptz not null
);

create index used_challenges_expires_at_idx on used_challenges (expires_at);

-- Smart-card bindings: the certificate's identity is the DoD identity number (the last part of
-- the CN) or, without one, the certificate's SHA-256 fingerprint; never the name.
create table account_certificates (
  account_id bigint not null references accounts (id) on delete cascade,
  identity text not null unique,
  fingerprint text,
  subject text,
  issuer text,
  valid_from timestamptz,
  valid_until timestamptz,
  created_at timestamptz not null default now()
);

create index account_certificates_account_id_idx on account_certificates (account_id);

-- Secrets the server generates once and every server process shares (e.g. the bot
-- challenge's HMAC key when PORTAL_CHALLENGE_SECRET is unset).
create table server_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);
