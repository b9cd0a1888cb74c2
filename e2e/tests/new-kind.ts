/**
 * A portal with a request kind added as docs/extending.md says (its declaration and its server
 * module, files only), built and run from a copy of the workspace: the host and the remotes it
 * serves are this checkout's builds, unchanged. The kind has no form, so its one request (from the
 * demo user) is written while the portal is stopped, after its first start made the database.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyWorkspace, guideFiles } from '../../scripts/workspace-copy.mjs';
import { e2eDir } from './fixtures';
import { startPortalServer, type PortalServer } from './portal-server';

/** The builds a started server serves and publishes (the copy links them). */
const BUILT_APPS = ['host', 'remote-self-service', 'remote-groups', 'remote-adjudication', 'remote-mailing-lists', 'remote-tokens'].map((app) => `${app}/dist`);

export interface KindPortal {
  readonly server: PortalServer;
  /** The workspace copy (where a remote's new version is built against the added declaration). */
  readonly workspace: string;
  readonly dataDir: string;
  /** The copy's command line against this portal; throws unless it succeeds. */
  cli(...args: string[]): string;
}

/** Writes one request of the new kind, from the demo user, while the portal is stopped. */
const INSERT_REQUEST = `
import { openDatabase } from './src/db/open.js';
import { findAccountByIdentifier } from './src/repositories/accounts.js';
import { insertRequest, insertRequestUpdate } from './src/repositories/requests.js';

const db = await openDatabase({ databaseUrl: undefined, dataDir: process.argv[2] });
const account = await findAccountByIdentifier(db, 'user');
if (!account) throw new Error('no demo user');
const { rows } = await db.query('select email from accounts where id = $1', [account.id]);
const email = rows[0].email;
const createdAt = new Date();
const id = await insertRequest(db, { kind: 'servicetoken', status: 'pending', accountId: account.id, username: account.username, email, reason: 'Nightly builds.', details: { service: 'ci' }, createdAt });
await insertRequestUpdate(db, { requestId: id, status: 'pending', username: account.username, comment: 'Request submitted.', createdAt });
await db.close();
`;

/** Runs node with `args` in `cwd` (on the embedded database); returns what it printed, or throws with it. */
function node(args: string[], cwd: string, env: Record<string, string> = {}): string {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 180_000, env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env } });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

export async function startPortalWithGuideKind(): Promise<KindPortal> {
  const workspace = mkdtempSync(join(e2eDir(), 'workspace-'));
  copyWorkspace(workspace, { linked: BUILT_APPS });
  for (const [path, content] of guideFiles('Adding a request kind')) {
    if (path.startsWith('shared/') || path.startsWith('server/src/')) writeFileSync(join(workspace, path), content, { flag: 'wx' });
  }
  const serverDir = join(workspace, 'server');
  node(['build.mjs'], serverDir);
  const dataDir = join(workspace, 'data');
  // The first start makes the database, its demo accounts and the remote store.
  await (await startPortalServer({ dataDir, root: workspace })).stop();
  writeFileSync(join(serverDir, 'insert-request.ts'), INSERT_REQUEST);
  node(['--import', 'tsx', 'insert-request.ts', dataDir], serverDir);
  const server = await startPortalServer({ dataDir, root: workspace });
  return {
    server,
    workspace,
    dataDir,
    cli: (...args) => node([join(serverDir, 'dist', 'cli.mjs'), ...args], workspace, { PORTAL_DATA_DIR: dataDir, PORTAL_CONFIG_FILE: join(serverDir, 'config', 'demo.json') }),
  };
}
