-- A request's kind is one the server registers (services/request-kinds/): the list of kinds is no
-- longer written into the table, so that a new kind needs no migration. The server writes only
-- registered kinds and reads a kind's requests through its module.
alter table requests drop constraint requests_kind_check;
