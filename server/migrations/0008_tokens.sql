-- Artifact-repository tokens (spec section 3, "Token"; server/docs/tokens.md) and the platform
-- services that may ask whether a token is active (RFC 7662 introspection).

create table access_tokens (
  -- token_id: a random UUID (the embedded issuer) or the artifact repository's own id
  id text primary key,
  account_id bigint not null references accounts (id) on delete cascade,
  -- the name the user gave it (spec section 9: at most 1024 characters)
  description text not null check (char_length(description) between 1 and 1024),
  -- the permission strings it carries: '{groupId}-artifactsRead|Write|Admin'
  scopes text[] not null check (cardinality(scopes) > 0),
  -- 'embedded' or 'artifactory': who issued it and who is told of its revocation
  issuer text not null check (issuer in ('embedded', 'artifactory')),
  -- the embedded issuer's tokens only: SHA-256 of the secret, hex; the secret itself is never kept
  secret_hash text unique,
  constraint access_tokens_secret_check check ((issuer = 'embedded') = (secret_hash is not null)),
  issued_at timestamptz not null,
  -- null: no expiry
  expires_at timestamptz,
  constraint access_tokens_expiry_check check (expires_at is null or expires_at > issued_at),
  -- its lifetime was at least artifacts_token_revocable_expiry hours when it was issued
  revocable boolean not null,
  revoked_at timestamptz,
  -- who revoked it: the owner, an administrator, or 'account locked' / 'account closed'
  revoked_by text,
  constraint access_tokens_revoked_check check ((revoked_at is null) = (revoked_by is null)),
  -- the issuer confirmed the revocation (the embedded issuer: at once)
  issuer_revoked_at timestamptz,
  -- the mail 7 days before expiry was queued (once per token)
  expiry_notice_at timestamptz
);

-- An owner's live tokens, newest first.
create index access_tokens_account_idx on access_tokens (account_id, issued_at desc) where revoked_at is null;
-- Tokens due for their expiry notice.
create index access_tokens_notice_idx on access_tokens (expires_at) where revoked_at is null and expiry_notice_at is null;
-- Revocations the issuer has not confirmed yet (retried).
create index access_tokens_unconfirmed_idx on access_tokens (revoked_at) where revoked_at is not null and issuer_revoked_at is null;

create table service_credentials (
  -- the service's name, its client id in HTTP Basic
  name text primary key check (name ~ '^[a-z][a-z0-9-]{1,62}$'),
  -- SHA-256 of the secret, hex
  secret_hash text not null,
  created_at timestamptz not null,
  rotated_at timestamptz
);
