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
    try {
      await db.query('select 1');
    } catch (error) {
      await db.close();
      throw new Error(`Cannot connect to the PostgreSQL database of DATABASE_URL: ${(error as Error).message}`);
    }
    return db;
  }
  return openPglite({ dataDir: settings.dataDir });
}
