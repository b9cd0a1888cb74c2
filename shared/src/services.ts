/** Moved to @portal/api (bundled by each app, used by the server); this re-export goes once every import has moved. */
export * from '@portal/api/services';
