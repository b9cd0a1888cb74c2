/**
 * Each page's path is written once, in links.ts: the host and the remotes link with its builders,
 * so a path changes in one place and no path literal crosses a remote's boundary. This reads the
 * browser apps' sources and fails on a page path written as a literal outside links.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { links } from './links';

const repo = join(__dirname, '..', '..', '..');

/** The first segment of every page links.ts builds: 'profile', 'tokens', 'group-administration' … */
function pagePrefixes(): string[] {
  const prefixes = new Set<string>();
  for (const build of Object.values(links) as ((...args: string[]) => string)[]) {
    const first = build('x', 'y').split(/[/?]/)[1];
    if (first) prefixes.add(first);
  }
  return [...prefixes];
}

/** The browser apps' sources, tests and their samples left out (they may name any address). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'testing' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$|\.d\.ts$/.test(name) ? [path] : [];
  });
}

function appDirs(): string[] {
  const remotes = readdirSync(repo).filter((name) => name.startsWith('remote-'));
  return [join(repo, 'host', 'src'), join(repo, 'shared', 'src'), ...remotes.map((name) => join(repo, name, 'src'))];
}

describe('page paths', () => {
  it('knows the pages links.ts builds', () => {
    expect(pagePrefixes()).toEqual(expect.arrayContaining(['profile', 'groups', 'tokens', 'not-found', 'manage-remotes', 'provisioning']));
  });

  it('are written only in links.ts: the apps link with its builders', () => {
    const literal = new RegExp(`['"\`]/(${pagePrefixes().join('|')})(?=[/'"\`?$])`);
    const found: string[] = [];
    for (const file of appDirs().flatMap(sources)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          // Comments may name a page.
          const code = line.replace(/\/\*.*?\*\//g, '').replace(/\/\/.*$/, '').replace(/^\s*(\/\*\*?|\*).*$/, '');
          if (literal.test(code)) found.push(`${relative(repo, file)}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('finds a literal when one is written', () => {
    const literal = new RegExp(`['"\`]/(${pagePrefixes().join('|')})(?=[/'"\`?$])`);
    expect(literal.test(`<Navigate to="/groups" replace />`)).toBe(true);
    expect(literal.test("{ key: '/tokens/services' }")).toBe(true);
    expect(literal.test('`/group-administration/${id}`')).toBe(true);
    expect(literal.test("route('groups', 'Groups')")).toBe(false);
  });
});
