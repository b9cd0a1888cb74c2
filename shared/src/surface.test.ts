/**
 * @portal/shared is a strict singleton: the host provides it, and a remote built against another
 * minor line is refused (strictVersion). That guard only works if the version changes whenever
 * what the package exports changes. This test keeps the record: surface.json lists, for each
 * version, the names the singleton exports (with a function's arity). Change an export and this
 * fails until package.json has a new version and surface.json a new entry for it; an old entry
 * is never edited. The form primitives are a second singleton of the same version,
 * @portal/shared/forms (./forms.ts): their names are listed in the same entry as `forms:Name`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as forms from './forms';
import * as singleton from './index';

const pkg = JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8')) as { version: string };
const record = JSON.parse(readFileSync(join(__dirname, 'surface.json'), 'utf8')) as { versions: Record<string, string[]> };

/** 'name' for a value, 'name/2' for a function of two parameters. */
function surfaceOf(module: Record<string, unknown>): string[] {
  return Object.keys(module)
    .sort()
    .map((name) => (typeof module[name] === 'function' ? `${name}/${(module[name] as (...args: unknown[]) => unknown).length}` : name));
}

describe("the singleton's exported surface", () => {
  const current = [...surfaceOf(singleton as Record<string, unknown>), ...surfaceOf(forms as Record<string, unknown>).map((name) => `forms:${name}`)];

  it('is the one recorded for its version', () => {
    const recorded = record.versions[pkg.version];
    if (!recorded) throw new Error(`shared/src/surface.json has no entry for @portal/shared ${pkg.version}: add one (the surface below).\n${JSON.stringify(current)}`);
    expect(current).toEqual(recorded);
  });

  it('differs from every earlier version (a new version for every change, never an edited entry)', () => {
    const versions = Object.entries(record.versions);
    const same = versions.filter(([version, names]) => version !== pkg.version && JSON.stringify(names) === JSON.stringify(current));
    expect(same.map(([version]) => version)).toEqual([]);
  });
});
