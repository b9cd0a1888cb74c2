-- Federation operations (server/docs/federation.md): the remote versions teams have
-- published, the version each environment runs (its pin), every change of a pin, and the
-- preview a platform administrator's session runs instead.

-- A published version never changes: its files are in the remote store under <name>/<version>/
-- and their SHA-384 digests are here.
create table remote_versions (
  name text not null,
  version text not null,
  -- the range of the host contract its ./routes declares, e.g. '^1.0.0'
  contract text not null,
  -- the path prefixes it owns, e.g. ["/groups", "/request-user-group"]
  routes jsonb not null,
  -- { "relative/path": "sha384-<base64>" } for every file of the build
  files jsonb not null,
  published_at timestamptz not null,
  published_by text not null,
  primary key (name, version)
);

-- What each environment runs now: one row per environment and remote.
create table remote_pins (
  environment text not null,
  name text not null,
  version text not null,
  pinned_at timestamptz not null,
  pinned_by text not null,
  reason text not null default '',
  primary key (environment, name),
  foreign key (name, version) references remote_versions (name, version)
);

-- Every pin, rollback and initial pin, oldest first; never updated.
create table remote_pin_history (
  id bigserial primary key,
  environment text not null,
  name text not null,
  action text not null check (action in ('initial', 'pin', 'rollback')),
  -- null: the remote was not pinned before
  from_version text,
  to_version text not null,
  changed_at timestamptz not null,
  changed_by text not null,
  reason text not null default ''
);

create index remote_pin_history_environment_idx on remote_pin_history (environment, name, id);

-- A platform administrator's preview: this session loads this version instead of the pin.
create table remote_previews (
  session_id_hash text not null references sessions (id_hash) on delete cascade,
  name text not null,
  version text not null,
  primary key (session_id_hash, name),
  foreign key (name, version) references remote_versions (name, version)
);
