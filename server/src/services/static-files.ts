/** Rules for the files the server hands out: which paths are safe, where remotes live, how long to cache. */
import { stat } from 'node:fs/promises';
import { REMOTE_NAME } from '@portal/shared/contract';

export const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'no-cache';
export const CACHE_NEVER = 'no-store';

/** A file name carrying a content hash: a segment of at least 8 hex digits between dots (main.a1b2c3d4.js). */
export function isHashedFileName(fileName: string): boolean {
  return /\.[0-9a-f]{8,}\./i.test(fileName);
}

export function cacheControlFor(fileName: string): string {
  if (fileName === 'index.html') return CACHE_NEVER;
  return isHashedFileName(fileName) ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
}

/**
 * A URL path (already decoded) made safe to join to a directory, or undefined: no empty, '.' or
 * '..' segments, no hidden files, no backslashes or NUL, no leftover percent-encoding.
 */
export function safeRelativePath(path: string): string | undefined {
  if (path === '' || /[\\\0%]/.test(path)) return undefined;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s.startsWith('.'))) return undefined;
  return segments.join('/');
}

export function isRemoteName(name: string): boolean {
  return REMOTE_NAME.test(name);
}

export function isVersion(version: string): boolean {
  return VERSION.test(version);
}

export async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
