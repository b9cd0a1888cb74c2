-- The OpenID Connect provider (server/docs/service-sign-in.md, "OpenID Connect"). Everything it
-- keeps is in the database, so that several servers on one database are one provider.

-- The relying parties platform administrators register (`portal oidc-clients add`). The secret is
-- kept only as its SHA-256 hash: it is 256 random bits, so a slow hash would add nothing.
create table oidc_clients (
  client_id text primary key,
  name text not null unique,
  secret_hash text not null,
  redirect_uris text[] not null,
  -- a client bound to a service lets in only accounts that hold it (null: any active account)
  service text,
  -- whether the user is asked to consent before the first sign-in to it
  consent boolean not null default false,
  created_at timestamptz not null default now(),
  rotated_at timestamptz
);

-- The provider's own records (sessions, interactions, grants, codes, tokens), by model and id, as
-- its adapter interface asks. A row past its expiry is as good as gone (and purged).
create table oidc_models (
  model text not null,
  id text not null,
  payload jsonb not null,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  primary key (model, id)
);
create index oidc_models_grant_id on oidc_models (grant_id) where grant_id is not null;
create index oidc_models_uid on oidc_models (uid) where uid is not null;
create index oidc_models_expires_at on oidc_models (expires_at) where expires_at is not null;

-- The keys ID tokens are signed with (private JWKs); the public parts are published at
-- /oidc/jwks. Generation 1 is made by the first server to start; a unique generation makes two
-- servers starting together agree on one.
create table oidc_signing_keys (
  generation int primary key,
  jwk jsonb not null,
  created_at timestamptz not null default now()
);
