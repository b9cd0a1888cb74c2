/**
 * Tar archives of a data folder, as PGlite's dumpDataDir writes them: entries named
 * '/path/in/folder', plain files and folders only. Backups (services/backup.ts) and published
 * remote builds (services/remote-store.ts) are read, and backups written, with tar-stream; this
 * module holds only the portal's rules about what an archive may contain.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { extract, pack, type Header } from 'tar-stream';

export interface TarEntry {
  /** Relative path, '/'-separated, without a leading '/'. */
  path: string;
  type: 'file' | 'directory';
  mode: number;
  data: Uint8Array;
}

/** Where an entry's data ends, padded to whole 512-byte blocks: the next header or the end marker. */
function endOf(header: Header, dataOffset: number): number {
  return dataOffset + Math.ceil(header.size / 512) * 512;
}

/**
 * The archive's path of an entry when it stays inside the folder ('' for the folder itself), else
 * undefined: a name with '..', '.' or an empty segment in it.
 */
function pathOf(name: string): string | undefined {
  // 'tar -C folder .' names entries './x' and the folder itself '.'; PGlite names them '/x'.
  const path = name.replace(/^\/+/, '').replace(/\/+$/, '').replace(/^(?:\.\/)+/, '');
  if (path === '.') return '';
  if (path === '' || path.split('/').some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return path;
}

/**
 * The entries of a tar archive; undefined when it is not one (bad header, cut short, no end
 * marker), or when it holds anything but plain files and folders (links, devices …), or a name
 * that leaves the folder ('..', empty segments).
 */
export async function readTar(archive: Uint8Array): Promise<TarEntry[] | undefined> {
  const reader = extract();
  const entries: TarEntry[] = [];
  let end = 0;
  // The whole archive is in memory already: it is handed over at once, and read entry by entry.
  reader.end(archive);
  try {
    for await (const entry of reader) {
      const { header } = entry;
      const path = pathOf(header.name);
      const type = header.type === 'file' || header.type === 'directory' ? header.type : undefined;
      // Returning from the loop destroys the reader: the rest is not read.
      if (path === undefined || type === undefined) return undefined;
      const chunks: Uint8Array[] = [];
      for await (const chunk of entry) chunks.push(chunk as Uint8Array);
      end = endOf(header, entry.offset + 512);
      if (path !== '') entries.push({ path, type, mode: header.mode, data: Buffer.concat(chunks) });
    }
  } catch {
    // tar-stream's reasons ('Invalid tar header', 'Unexpected end of data') all mean: not a tar archive.
    return undefined;
  }
  // tar-stream accepts an archive that stops right after an entry; one without its end marker (a
  // block of zeros) was cut short, and is refused like one cut in the middle of a file.
  const marker = archive.subarray(end, end + 512);
  if (marker.length < 512 || marker.some((byte) => byte !== 0)) return undefined;
  return entries;
}

/** A tar of a folder's files and folders (sorted, so two archives of one folder are alike), leaving out the top-level names in `skip`. */
export async function tarFolder(root: string, skip: ReadonlySet<string>): Promise<Buffer> {
  const writer = pack();
  const chunks: Buffer[] = [];
  const collected = new Promise<Buffer>((resolve, reject) => {
    writer.on('data', (chunk) => chunks.push(chunk as Buffer));
    writer.on('end', () => resolve(Buffer.concat(chunks)));
    writer.on('error', reject);
  });
  const add = (header: Parameters<typeof writer.entry>[0], data?: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null) => (error ? reject(error) : resolve());
      if (data === undefined) writer.entry(header, done);
      else writer.entry(header, data, done);
    });
  const walk = async (relative: string): Promise<void> => {
    const names = (await readdir(relative === '' ? root : join(root, relative))).sort();
    for (const name of names) {
      if (relative === '' && skip.has(name)) continue;
      const path = relative === '' ? name : `${relative}/${name}`;
      const stats = await stat(join(root, path));
      // PGlite's own dumps name entries '/path'; backups written here look the same.
      const common = { name: `/${path}`, mode: stats.mode & 0o7777, mtime: new Date(Math.floor(stats.mtimeMs / 1000) * 1000) };
      if (stats.isDirectory()) {
        await add({ ...common, type: 'directory' });
        await walk(path);
      } else if (stats.isFile()) {
        await add({ ...common, type: 'file' }, await readFile(join(root, path)));
      }
    }
  };
  try {
    await walk('');
    writer.finalize();
  } catch (error) {
    writer.destroy(error as Error);
    throw error;
  }
  return collected;
}
