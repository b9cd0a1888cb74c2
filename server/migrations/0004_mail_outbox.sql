-- The mail outbox: every mail the portal sends is written here in the same transaction as the
-- change that causes it, then delivered by the mail worker (over SMTP when SMTP_URL is set; in
-- the embedded default it stays here, readable with `portal mail list`). A failed delivery is
-- retried with back-off (attempts, next_attempt_at, last_error); sent_at marks a delivered mail.

create table mail_outbox (
  id bigint generated always as identity primary key,
  to_address text not null,
  subject text not null,
  body text not null,
  created_at timestamptz not null,
  attempts int not null default 0,
  next_attempt_at timestamptz not null,
  last_error text,
  sent_at timestamptz
);

-- The worker's question: the unsent mails that are due.
create index mail_outbox_sent_at_next_attempt_at_idx on mail_outbox (sent_at, next_attempt_at);
