/**
 * An exclusive lock on the embedded database's folder: two processes opening one PGlite data
 * folder corrupt it. The lock is a file holding the owner's process id, created exclusively;
 * a lock left by a process that no longer runs is taken over.
 */
import { mkdirSync, openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE_NAME = 'portal.lock';

export class DatabaseInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(`The embedded database in ${dir} is in use by process ${pid}. Stop that process first, or set DATABASE_URL.`);
    this.name = 'DatabaseInUseError';
  }
}

export interface DirectoryLock {
  readonly file: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function tryCreate(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Takes the lock on `dir` (creating the folder), or throws DatabaseInUseError. */
export function lockDirectory(dir: string): DirectoryLock {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE_NAME);
  // Two attempts: the second after removing a stale lock. If another process takes the
  // lock in between, the second attempt fails and reports that process.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(file)) {
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          if (readOwner(file) === process.pid) unlinkSync(file);
        },
      };
    }
    const owner = readOwner(file);
    if (owner !== undefined && isAlive(owner)) throw new DatabaseInUseError(dir, owner);
    try {
      unlinkSync(file); // stale: its process is gone (or it holds no process id)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const owner = readOwner(file);
  if (owner !== undefined) throw new DatabaseInUseError(dir, owner);
  throw new Error(`Cannot lock the embedded database in ${dir}: another process is taking ${file} at the same moment.`);
}
