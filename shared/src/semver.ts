/**
 * The small part of semantic versioning the browser needs: does a contract version satisfy the
 * range a remote declares? Supports exact versions, `^`, `~`, `x` wildcards, comparators
 * (`>=1.2.0 <2.0.0`) and `||` alternatives, with semver's precedence and pre-release rules. The
 * server uses the `semver` package itself; the host keeps this one because `semver` would add
 * its weight to every page, and semver.test.ts checks that both answer alike.
 */

type Version = [number, number, number, string];

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseVersion(text: string): Version | null {
  const m = VERSION.exec(text.trim());
  if (!m) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''];
}

/** Pre-release tags by semver's precedence: dot-separated fields, numeric ones compared as numbers and below alphanumeric ones, fewer fields first. */
function comparePre(a: string, b: string): number {
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i];
    const q = y[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pNumeric = /^\d+$/.test(p);
    const qNumeric = /^\d+$/.test(q);
    if (pNumeric && qNumeric) return Number(p) - Number(q);
    if (pNumeric) return -1;
    if (qNumeric) return 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** Negative, zero or positive as `a` comes before, with or after `b` (semver's precedence; build metadata ignored). */
export function compareVersions(a: string, b: string): number | null {
  const x = parseVersion(a);
  const y = parseVersion(b);
  return x && y ? Math.sign(compare(x, y)) : null;
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  }
  if (a[3] === b[3]) return 0;
  if (a[3] === '') return 1; // a release is above its pre-releases
  if (b[3] === '') return -1;
  return comparePre(a[3], b[3]);
}

type Comparator = { op: '>=' | '>' | '<=' | '<' | '='; v: Version };

/** Expands one space-separated set ("^1.2.3", ">=1 <2", "1.x") into comparators; null if malformed. */
function comparators(set: string): Comparator[] | null {
  const out: Comparator[] = [];
  for (const token of set.trim().split(/\s+/)) {
    if (token === '' || token === '*' || token === 'x') continue;
    const m = /^(\^|~|>=|<=|>|<|=)?v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?(-[0-9A-Za-z.-]+)?$/.exec(token);
    if (!m) return null;
    const op = m[1] ?? '';
    const wild = (s: string | undefined) => s === undefined || s === 'x' || s === '*';
    const major = Number(m[2]);
    if (wild(m[2])) continue;
    const minor = wild(m[3]) ? null : Number(m[3]);
    const patch = wild(m[4]) ? null : Number(m[4]);
    const pre = m[5] ? m[5].slice(1) : '';
    const low: Version = [major, minor ?? 0, patch ?? 0, pre];
    if (op === '^') {
      const high: Version =
        major > 0 || minor === null
          ? [major + 1, 0, 0, '']
          : minor > 0 || patch === null
            ? [0, minor + 1, 0, '']
            : [0, 0, (patch ?? 0) + 1, ''];
      out.push({ op: '>=', v: low }, { op: '<', v: high });
    } else if (op === '~') {
      const high: Version = minor === null ? [major + 1, 0, 0, ''] : [major, minor + 1, 0, ''];
      out.push({ op: '>=', v: low }, { op: '<', v: high });
    } else if (op === '' || op === '=') {
      if (minor === null) out.push({ op: '>=', v: low }, { op: '<', v: [major + 1, 0, 0, ''] });
      else if (patch === null) out.push({ op: '>=', v: low }, { op: '<', v: [major, minor + 1, 0, ''] });
      else out.push({ op: '=', v: low });
    } else if ((op === '>' || op === '<=') && (minor === null || patch === null)) {
      // '>1.x' is above every 1.x.y, '<=1.2.x' takes in every 1.2.y: both end where the wildcard's range ends.
      const next: Version = minor === null ? [major + 1, 0, 0, ''] : [major, minor + 1, 0, ''];
      out.push({ op: op === '>' ? '>=' : '<', v: next });
    } else {
      out.push({ op: op as Comparator['op'], v: low });
    }
  }
  return out;
}

export function isValidRange(range: string): boolean {
  return range.split('||').every((set) => comparators(set) !== null);
}

export function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version);
  if (!v) return false;
  return range.split('||').some((set) => {
    const cs = comparators(set);
    if (!cs) return false;
    // A pre-release satisfies a set only when a comparator names a pre-release of its own
    // major.minor.patch: '^1.0.0' does not take in 1.1.0-beta, '>=1.1.0-alpha' does.
    if (v[3] !== '' && !cs.some(({ v: c }) => c[3] !== '' && c[0] === v[0] && c[1] === v[1] && c[2] === v[2])) return false;
    return cs.every(({ op, v: c }) => {
      const d = compare(v, c);
      switch (op) {
        case '>=': return d >= 0;
        case '>': return d > 0;
        case '<=': return d <= 0;
        case '<': return d < 0;
        case '=': return d === 0;
      }
    });
  });
}
