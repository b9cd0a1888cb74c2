/**
 * `npm run portal -- remotes …` (docs/federation.md): publish, pin, rollback, status and
 * history, run on the database directly or through the running portal's command socket. The
 * answer is the text to print, so both ways print the same.
 */
import type { Database } from '../db/database.js';
import { NotFoundError } from '../errors.js';
import { listPinnedEnvironments } from '../repositories/remotes.js';
import { pinHistory, pinHistoryCsv, pinRemote, publishRemote, remoteStatus, rollbackRemote } from './federation.js';
import { readRemoteBuild } from './remote-store.js';

export type RemotesCommand =
  | { action: 'publish'; source: string; by: string }
  | { action: 'pin'; environment: string; name: string; version: string; by: string; reason: string }
  | { action: 'rollback'; environment: string; name: string; by: string; reason: string }
  | { action: 'status'; environment?: string }
  | { action: 'history'; environment: string; name?: string; csv: boolean };

export interface RemotesCommandResult {
  text: string;
}

const when = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Left-aligned columns, two spaces apart. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n') + '\n';
}

/** What a command naming an environment without pins says, with the environments that have some. */
async function noPinsIn(db: Database, environment: string): Promise<string> {
  const known = await listPinnedEnvironments(db);
  return `${environment} has no pins (environments with pins: ${known.join(', ') || 'none'}).`;
}

export async function runRemotesCommand(db: Database, storeDir: string, command: RemotesCommand): Promise<RemotesCommandResult> {
  const context = { db, storeDir };
  switch (command.action) {
    case 'publish': {
      const build = await readRemoteBuild(command.source);
      const result = await publishRemote(context, build, command.by);
      return {
        text:
          result.outcome === 'unchanged'
            ? `${result.name} ${result.version} is published already with the same content: nothing changed.\n`
            : `Published ${result.name} ${result.version} (contract ${result.contract}, ${build.files.size} files) into ${storeDir}. Pin it with: npm run portal -- remotes pin ENVIRONMENT ${result.name}@${result.version}\n`,
      };
    }
    case 'pin': {
      const change = await pinRemote(context, command.environment, command.name, command.version, command.by, command.reason);
      return { text: `${change.environment} now runs ${change.name} ${change.toVersion}${change.fromVersion ? ` (was ${change.fromVersion})` : ''}, from the next page load.\n` };
    }
    case 'rollback': {
      const change = await rollbackRemote(context, command.environment, command.name, command.by, command.reason);
      return { text: `${change.environment} rolled ${change.name} back to ${change.toVersion} (was ${change.fromVersion ?? 'unpinned'}), from the next page load.\n` };
    }
    case 'status': {
      const statuses = await remoteStatus(db, command.environment);
      if (statuses.length === 0) {
        if (command.environment === undefined) return { text: 'No environment has pins yet.\n' };
        // A named environment without pins is most often a typo: said as a failure (exit code 1), not as an empty table.
        throw new NotFoundError(await noPinsIn(db, command.environment));
      }
      return {
        text: table([
          ['ENVIRONMENT', 'REMOTE', 'VERSION', 'CONTRACT', 'SINCE', 'BY', 'ROLLBACK TO'],
          ...statuses.map((s) => [s.environment, s.name, s.version, s.contract, when(s.pinnedAt), s.pinnedBy, s.rollbackTo ?? '-']),
        ]),
      };
    }
    case 'history': {
      const history = await pinHistory(db, command.environment, command.name);
      if (history.length === 0) {
        if (command.name === undefined) throw new NotFoundError(await noPinsIn(db, command.environment));
        throw new NotFoundError(`${command.environment} has never pinned ${command.name}.`);
      }
      if (command.csv) return { text: pinHistoryCsv(history) };
      return {
        text: table([
          ['WHEN', 'REMOTE', 'ACTION', 'FROM', 'TO', 'BY', 'WHY'],
          ...history.map((h) => [when(h.changedAt), h.name, h.action, h.fromVersion ?? '-', h.toVersion, h.changedBy, h.reason]),
        ]),
      };
    }
  }
}

/** Checks a command that came through the socket (it is JSON from another process). */
export function parseRemotesCommand(value: unknown): RemotesCommand | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Record<string, unknown>;
  const text = (key: string) => typeof c[key] === 'string';
  switch (c.action) {
    case 'publish':
      return text('source') && String(c.source).startsWith('/') && text('by') ? (c as RemotesCommand) : undefined;
    case 'pin':
      return text('environment') && text('name') && text('version') && text('by') && text('reason') ? (c as RemotesCommand) : undefined;
    case 'rollback':
      return text('environment') && text('name') && text('by') && text('reason') ? (c as RemotesCommand) : undefined;
    case 'status':
      return c.environment === undefined || text('environment') ? (c as RemotesCommand) : undefined;
    case 'history':
      return text('environment') && (c.name === undefined || text('name')) && typeof c.csv === 'boolean' ? (c as RemotesCommand) : undefined;
    default:
      return undefined;
  }
}
