-- Accounts, their platform roles and the history of their state changes (spec section 3, "Account").

create table accounts (
  id bigint generated always as identity primary key,
  username text not null unique,
  email text not null,
  first_name text,
  last_name text,
  phone text,
  street text,
  city text,
  state text,
  zip text,
  country text,
  company text,
  project text,
  supervisor_first_name text,
  supervisor_last_name text,
  supervisor_email text,
  supervisor_phone text,
  reason text,
  active boolean not null default true,
  closed boolean not null default false,
  authentication text[] not null default '{token}',
  last_authenticated timestamptz,
  last_certified timestamptz,
  created_at timestamptz not null default now()
);

create unique index accounts_email_lower_key on accounts (lower(email));

create table account_roles (
  account_id bigint not null references accounts (id) on delete cascade,
  role text not null check (role in ('site-admin', 'adjudicator', 'help-desk', 'user')),
  primary key (account_id, role)
);

create table account_updates (
  id bigint generated always as identity primary key,
  account_id bigint not null references accounts (id) on delete cascade,
  comment text not null,
  created_at timestamptz not null default now(),
  -- who made the change
  username text not null,
  -- the account's active state after the change
  active boolean not null
);

create index account_updates_account_id_idx on account_updates (account_id, created_at);
