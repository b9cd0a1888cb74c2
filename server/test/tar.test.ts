/**
 * The portal's rules for tar archives (src/db/tar.ts), on archives made with tar-stream itself:
 * plain files and folders are read, anything else makes the archive refused — names that leave
 * the folder, links, archives cut short, bytes that are no archive — and a restore or a publish of
 * such a file says so, with the folder left as it was.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, test } from 'node:test';
import { pack, type Header } from 'tar-stream';
import { readTar, tarFolder } from '../src/db/tar.js';
import { PGLITE_POSTGRES_MAJOR, restoreBackup } from '../src/services/backup.js';
import { readRemoteBuild } from '../src/services/remote-store.js';

const dir = mkdtempSync(join(tmpdir(), 'portal-tar-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type Entry = [header: Partial<Header> & { name: string }, data?: string];

/** A tar archive of these entries, written by tar-stream. */
async function archive(entries: readonly Entry[]): Promise<Buffer> {
  const writer = pack();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    writer.on('data', (chunk) => chunks.push(chunk as Buffer));
    writer.on('end', () => resolve(Buffer.concat(chunks)));
    writer.on('error', reject);
  });
  for (const [header, data] of entries) {
    if (data === undefined) writer.entry(header);
    else writer.entry(header, data);
  }
  writer.finalize();
  return done;
}

/** What a backup holds at the least, named as PGlite names it ('/path'). */
const DATA_FOLDER: readonly Entry[] = [
  [{ name: '/PG_VERSION' }, `${PGLITE_POSTGRES_MAJOR}\n`],
  [{ name: '/global', type: 'directory' }],
  [{ name: '/global/pg_control' }, 'control'],
  [{ name: '/base', type: 'directory' }],
  [{ name: '/base/1', type: 'directory' }],
  [{ name: '/base/1/1259' }, 'pages'],
];

/** Each hostile archive: a data folder with one entry more (or the bytes themselves). */
const HOSTILE: [string, () => Promise<Buffer>][] = [
  ['a name going up', () => archive([...DATA_FOLDER, [{ name: '../x' }, 'outside']])],
  ['a name going up from a folder', () => archive([...DATA_FOLDER, [{ name: 'a/../../x' }, 'outside']])],
  ['a name going up after the leading slash', () => archive([...DATA_FOLDER, [{ name: '/../etc/x' }, 'outside']])],
  ['an empty segment', () => archive([...DATA_FOLDER, [{ name: 'base//x' }, 'x']])],
  ['a symbolic link', () => archive([...DATA_FOLDER, [{ name: '/base/1/link', type: 'symlink', linkname: '/etc/passwd' }]])],
  ['a hard link', () => archive([...DATA_FOLDER, [{ name: '/base/1/link', type: 'link', linkname: '/etc/passwd' }]])],
  ['a device', () => archive([...DATA_FOLDER, [{ name: '/base/1/null', type: 'character-device', devmajor: 1, devminor: 3 }]])],
  ['an archive cut in the middle of a file', async () => (await archive(DATA_FOLDER)).subarray(0, 512 * 3 + 100)],
  ['an archive cut after a file, without its end marker', async () => (await archive(DATA_FOLDER)).subarray(0, 512 * 2)],
  ['bytes that are no archive', async () => Buffer.alloc(4096, 'not a tar archive ')],
  ['a tar archive gzipped twice', async () => gzipSync(gzipSync(await archive(DATA_FOLDER)))],
];

describe('reading a tar archive', () => {
  test('plain files and folders are read with their paths inside the folder, the leading slash and ./ dropped', async () => {
    const entries = await readTar(await archive([[{ name: './', type: 'directory' }], ...DATA_FOLDER, [{ name: './notes/a.txt' }, 'a']]));
    assert.deepEqual(
      entries?.map((e) => [e.path, e.type, Buffer.from(e.data).toString('utf8')]),
      [
        ['PG_VERSION', 'file', `${PGLITE_POSTGRES_MAJOR}\n`],
        ['global', 'directory', ''],
        ['global/pg_control', 'file', 'control'],
        ['base', 'directory', ''],
        ['base/1', 'directory', ''],
        ['base/1/1259', 'file', 'pages'],
        ['notes/a.txt', 'file', 'a'],
      ],
    );
  });

  test('an absolute name is read inside the folder (PGlite names every entry so), never outside it', async () => {
    const entries = await readTar(await archive([[{ name: '/etc/x' }, 'inside']]));
    assert.deepEqual(entries?.map((e) => e.path), ['etc/x']);
  });

  test('a name longer than a tar header holds is read whole', async () => {
    const long = `${'folder/'.repeat(30)}file`;
    const entries = await readTar(await archive([[{ name: `/${long}` }, 'deep']]));
    assert.deepEqual(entries?.map((e) => e.path), [long]);
  });

  for (const [name, make] of HOSTILE) {
    test(`refused: ${name}`, async () => {
      assert.equal(await readTar(await make()), undefined);
    });
  }

  test('a folder written by tarFolder reads back the same, sorted, without the names skipped', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(join(folder, 'b', 'c'), { recursive: true });
    writeFileSync(join(folder, 'a.txt'), 'first');
    writeFileSync(join(folder, 'b', 'c', 'big'), Buffer.alloc(70_000, 7));
    writeFileSync(join(folder, 'portal.lock'), '123');
    const tar = await tarFolder(folder, new Set(['portal.lock']));
    const entries = await readTar(tar);
    assert.deepEqual(
      entries?.map((e) => [e.path, e.type, e.data.length]),
      [
        ['a.txt', 'file', 5],
        ['b', 'directory', 0],
        ['b/c', 'directory', 0],
        ['b/c/big', 'file', 70_000],
      ],
    );
    assert.ok(Buffer.from(entries?.[3]?.data ?? []).equals(Buffer.alloc(70_000, 7)), 'the content is the same');
    assert.ok((await tarFolder(folder, new Set(['portal.lock']))).equals(tar), 'two archives of one folder are alike');
  });
});

describe('a restore and a publish refuse a hostile archive', () => {
  for (const [name, make] of HOSTILE) {
    test(`${name}: restore refuses it, and the folder is as it was`, async () => {
      const file = join(dir, `hostile-${name.replace(/\W+/g, '-')}.tar`);
      writeFileSync(file, await make());
      const target = mkdtempSync(join(dir, 'target-'));
      await assert.rejects(restoreBackup(file, target, { force: false }), {
        name: 'BackupError',
        message: `${file} is not a backup of the embedded database (a PGlite dump, as \`portal backup\` writes): it is not a tar archive of a data folder.`,
      });
      assert.deepEqual(readdirSync(target), [], 'nothing written into the folder');
      assert.deepEqual(readdirSync(dir).filter((entry) => entry.includes('.restore-')), [], 'no scratch folder left');
    });
  }

  test('a remote build with a link in it is not published', async () => {
    const file = join(dir, 'build.tgz');
    writeFileSync(file, gzipSync(await archive([[{ name: './portal-remote.json' }, '{}'], [{ name: './remoteEntry.js', type: 'symlink', linkname: '/etc/passwd' }]])));
    await assert.rejects(readRemoteBuild(file), {
      name: 'BuildError',
      message: `${file} is not a tar archive of plain files and folders (make it with: tar -czf FILE -C dist/VERSION .).`,
    });
  });
});
