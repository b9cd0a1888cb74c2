-- Host contract 2.0: each published remote version carries the sidebar entries and request queues
-- it declares (its package.json's "portal"."navigation", docs/federation.md); the environment
-- manifest serves them and the host renders them. Versions published before declare none.
alter table remote_versions add column navigation jsonb not null default '[]';
