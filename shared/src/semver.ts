/**
 * The small part of semantic versioning the portal needs: does a contract version satisfy the
 * range a remote declares? Supports exact versions, `^`, `~`, `x` wildcards, comparators
 * (`>=1.2.0 <2.0.0`) and `||` alternatives. Pre-release tags are compared as strings.
 */

type Version = [number, number, number, string];

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseVersion(text: string): Version | null {
  const m = VERSION.exec(text.trim());
  if (!m) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''];
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  }
  if (a[3] === b[3]) return 0;
  if (a[3] === '') return 1; // a release is above its pre-releases
  if (b[3] === '') return -1;
  return a[3] < b[3] ? -1 : 1;
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
