-- Sign-out at the OpenID Connect provider (server/docs/service-sign-in.md, "Signing out").

-- Where a client may send the browser after RP-initiated logout (`oidc-clients add
-- --post-logout-redirect-uri`, matched exactly), and where it is told of a sign-out by a
-- back-channel logout token (`--backchannel-logout-uri`; null: it is not told).
alter table oidc_clients add column post_logout_redirect_uris text[] not null default '{}';
alter table oidc_clients add column backchannel_logout_uri text;

-- An account's provider sessions and grants, found when its sign-ins end (a sign-out, Sign Out
-- Everywhere, a lock, a closure).
create index oidc_models_account_id on oidc_models (model, (payload->>'accountId')) where model in ('Session', 'Grant');
