/**
 * Tar archives (ustar) of a data folder, as PGlite's dumpDataDir writes them: entries named
 * '/path/in/folder', plain files and folders only. Backups (services/backup.ts) are read and
 * written with these.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface TarEntry {
  /** Relative path, '/'-separated, without a leading '/'. */
  path: string;
  type: 'file' | 'directory';
  mode: number;
  data: Uint8Array;
}

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length).toString('utf8');
  const end = raw.indexOf('\0');
  return end < 0 ? raw : raw.slice(0, end);
}

function octal(header: Buffer, start: number, length: number): number {
  const text = field(header, start, length).trim();
  if (!/^[0-7]*$/.test(text)) return Number.NaN;
  return text === '' ? 0 : Number.parseInt(text, 8);
}

function checksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] ?? 0);
  return sum;
}

/**
 * The entries of a tar archive; undefined when it is not one, or when it holds anything but
 * plain files and folders, or a name that leaves the folder ('..', empty segments).
 */
export function readTar(archive: Buffer): TarEntry[] | undefined {
  const entries: TarEntry[] = [];
  let offset = 0;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) return entries;
    if (!field(header, 257, 6).startsWith('ustar')) return undefined;
    if (octal(header, 148, 8) !== checksum(header)) return undefined;
    const size = octal(header, 124, 12);
    const mode = octal(header, 100, 8);
    if (!Number.isFinite(size) || !Number.isFinite(mode)) return undefined;
    const prefix = field(header, 345, 155);
    const name = (prefix === '' ? '' : `${prefix}/`) + field(header, 0, 100);
    // 'tar -C folder .' names entries './x': the leading '.' is the folder itself.
    const path = name.replace(/^\/+/, '').replace(/\/+$/, '').replace(/^(?:\.\/)+/, '');
    const start = offset + 512;
    if (path === '.') {
      offset = start + Math.ceil(size / 512) * 512;
      continue;
    }
    if (path === '' || path.split('/').some((s) => s === '' || s === '.' || s === '..')) return undefined;
    const flag = String.fromCharCode(header[156] ?? 0);
    const type = flag === '0' || flag === '\0' ? 'file' : flag === '5' ? 'directory' : undefined;
    if (type === undefined) return undefined;
    if (start + size > archive.length) return undefined;
    entries.push({ path, type, mode, data: archive.subarray(start, start + size) });
    offset = start + Math.ceil(size / 512) * 512;
  }
  return undefined;
}

function header(path: string, type: 'file' | 'directory', mode: number, size: number, mtime: number): Buffer {
  const name = `/${path}`;
  if (Buffer.byteLength(name) > 100) throw new Error(`A name too long for the archive: ${name}`);
  const block = Buffer.alloc(512);
  block.write(name, 0, 'utf8');
  block.write(`${(mode & 0o7777).toString(8).padStart(7, '0')}\0`, 100, 'utf8');
  block.write('0000000\0', 108, 'utf8');
  block.write('0000000\0', 116, 'utf8');
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'utf8');
  block.write(`${Math.floor(mtime / 1000).toString(8).padStart(11, '0')}\0`, 136, 'utf8');
  block.write(type === 'file' ? '0' : '5', 156, 'utf8');
  block.write('ustar\0', 257, 'utf8');
  block.write('00', 263, 'utf8');
  block.write(`${checksum(block).toString(8).padStart(6, '0')}\0 `, 148, 'utf8');
  return block;
}

/** A tar of a folder's files and folders (sorted, so two archives of one folder are alike), leaving out the top-level names in `skip`. */
export function tarFolder(root: string, skip: ReadonlySet<string>): Buffer {
  const blocks: Buffer[] = [];
  const walk = (relative: string) => {
    const names = readdirSync(relative === '' ? root : join(root, relative)).sort();
    for (const name of names) {
      if (relative === '' && skip.has(name)) continue;
      const path = relative === '' ? name : `${relative}/${name}`;
      const stats = statSync(join(root, path));
      if (stats.isDirectory()) {
        blocks.push(header(path, 'directory', stats.mode, 0, stats.mtimeMs));
        walk(path);
      } else if (stats.isFile()) {
        const data = readFileSync(join(root, path));
        blocks.push(header(path, 'file', stats.mode, data.length, stats.mtimeMs), data, Buffer.alloc((512 - (data.length % 512)) % 512));
      }
    }
  };
  walk('');
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}
