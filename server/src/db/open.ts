/** Opens the database the settings name: PostgreSQL when DATABASE_URL is set, else the embedded PGlite. */
import type { ServerSettings } from '../config.js';
import type { Database } from './database.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

export async function openDatabase(
  settings: Pick<ServerSettings, 'databaseUrl' | 'dataDir'>,
  onIdleError?: (error: Error) => void,
): Promise<Database> {
  if (settings.databaseUrl !== undefined) {
    const db = openPostgres({ connectionString: settings.databaseUrl, ...(onIdleError ? { onIdleError } : {}) });
    let encoding: string | undefined;
    try {
      encoding = (await db.query<{ encoding: string }>("select current_setting('server_encoding') as encoding")).rows[0]?.encoding;
    } catch (error) {
      await db.close();
      throw new Error(`Cannot connect to the PostgreSQL database of DATABASE_URL: ${(error as Error).message}`);
    }
    // Names are Unicode, and the account search computes a word's index range with chr() on
    // code points, which fails past 255 in a single-byte encoding: refuse such a database here
    // rather than answer 500 to the first search for a name in another script.
    if (encoding !== 'UTF8') {
      await db.close();
      throw new Error(
        `The PostgreSQL database of DATABASE_URL uses the encoding ${encoding ?? 'unknown'}; the portal needs a UTF8 database ` +
          `(CREATE DATABASE name ENCODING 'UTF8' TEMPLATE template0).`,
      );
    }
    return db;
  }
  return openPglite({ dataDir: settings.dataDir });
}
