import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LOCK_FILE_NAME, lockDirectory } from '../src/db/lock.js';
import { openPglite } from '../src/db/pglite.js';

const root = mkdtempSync(join(tmpdir(), 'portal-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The id of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const inUse = (dir: string, pid: number) =>
  `The embedded database in ${dir} is in use by process ${pid}. Stop that process first, or set DATABASE_URL.`;

describe('the lock file', () => {
  test('holds the owner’s process id and is removed on release', () => {
    const dir = join(root, 'plain');
    const lock = lockDirectory(dir);
    assert.equal(lock.file, join(dir, LOCK_FILE_NAME));
    assert.equal(readFileSync(lock.file, 'utf8'), `${process.pid}\n`);
    assert.throws(() => lockDirectory(dir), { name: 'DatabaseInUseError', message: inUse(dir, process.pid) });
    lock.release();
    assert.equal(existsSync(lock.file), false);
    lock.release(); // twice is harmless
  });

  test('a lock held by another running process is respected', async () => {
    const dir = join(root, 'other');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      assert.ok(child.pid);
      lockDirectory(dir).release();
      writeFileSync(join(dir, LOCK_FILE_NAME), `${child.pid}\n`);
      assert.throws(() => lockDirectory(dir), { message: inUse(dir, child.pid) });
    } finally {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
    }
    const lock = lockDirectory(dir); // its process is gone now
    assert.equal(readFileSync(lock.file, 'utf8'), `${process.pid}\n`);
    lock.release();
  });

  test('a lock without a process id is taken over', () => {
    const dir = join(root, 'garbage');
    lockDirectory(dir).release();
    writeFileSync(join(dir, LOCK_FILE_NAME), '');
    const lock = lockDirectory(dir);
    assert.equal(readFileSync(lock.file, 'utf8'), `${process.pid}\n`);
    lock.release();
  });

  test('release leaves a lock that another process took over alone', () => {
    const dir = join(root, 'taken');
    const lock = lockDirectory(dir);
    writeFileSync(lock.file, '999999\n');
    lock.release();
    assert.equal(readFileSync(lock.file, 'utf8'), '999999\n');
  });
});

describe('the embedded database', () => {
  const dir = join(root, 'data');
  const lockFile = join(dir, LOCK_FILE_NAME);

  before(async () => {
    // Creating the data folder is the slow part; the tests below reopen it.
    const db = await openPglite({ dataDir: dir });
    await db.query('create table marker (id int)');
    await db.close();
  });

  test('a second open of the folder while the first is open throws the clear error', async () => {
    const first = await openPglite({ dataDir: dir });
    try {
      assert.equal(readFileSync(lockFile, 'utf8'), `${process.pid}\n`);
      await assert.rejects(openPglite({ dataDir: dir }), { name: 'DatabaseInUseError', message: inUse(dir, process.pid) });
      assert.deepEqual((await first.query('select count(*)::int as n from marker')).rows, [{ n: 0 }], 'the first is unharmed');
    } finally {
      await first.close();
    }
  });

  test('the lock is released on close', async () => {
    const db = await openPglite({ dataDir: dir });
    assert.equal(existsSync(lockFile), true);
    await db.close();
    assert.equal(existsSync(lockFile), false);
    await db.close(); // twice is harmless
  });

  test('a stale lock (its process is gone) is taken over', async () => {
    writeFileSync(lockFile, `${deadPid()}\n`);
    const db = await openPglite({ dataDir: dir });
    try {
      assert.equal(readFileSync(lockFile, 'utf8'), `${process.pid}\n`);
      assert.deepEqual((await db.query('select count(*)::int as n from marker')).rows, [{ n: 0 }]);
    } finally {
      await db.close();
    }
    assert.equal(existsSync(lockFile), false);
  });
});
