/**
 * Each page's path is written once, in @portal/api's links.ts: the host and the remotes link with
 * its builders, so a path changes in one place and no path literal crosses a remote's boundary.
 * This reads the apps' sources and fails on a page path written as a literal.
 */
import { links } from '@portal/api';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { appSourceFiles, REPO_DIR } from './app-sources';

/** The first segment of every page links.ts builds: 'profile', 'tokens', 'group-administration' … */
function pagePrefixes(): string[] {
  const prefixes = new Set<string>();
  for (const build of Object.values(links) as ((...args: string[]) => string)[]) {
    const first = build('x', 'y').split(/[/?]/)[1];
    if (first) prefixes.add(first);
  }
  return [...prefixes];
}

const literal = new RegExp(`['"\`]/(${pagePrefixes().join('|')})(?=[/'"\`?$])`);

/** A line without its comments, which may name a page. */
const codeOf = (line: string) => line.replace(/\/\*.*?\*\//g, '').replace(/\/\/.*$/, '').replace(/^\s*(\/\*\*?|\*).*$/, '');

describe('page paths', () => {
  it('knows the pages links.ts builds', () => {
    expect(pagePrefixes()).toEqual(expect.arrayContaining(['profile', 'groups', 'tokens', 'not-found', 'manage-remotes', 'provisioning']));
  });

  it('finds a literal when one is written', () => {
    expect(literal.test(codeOf(`<Navigate to="/groups" replace />`))).toBe(true);
    expect(literal.test(codeOf("{ key: '/tokens/services' }"))).toBe(true);
    expect(literal.test(codeOf('`/group-administration/${id}`'))).toBe(true);
    expect(literal.test(codeOf("route('groups', 'Groups')"))).toBe(false);
    expect(literal.test(codeOf("/** e.g. '/groups' */"))).toBe(false);
  });

  it('are written only in links.ts: the apps link with its builders', () => {
    const found: string[] = [];
    for (const file of appSourceFiles().filter((f) => !/[/\\]testing[/\\]|\.d\.ts$|fakeApi|testing\.tsx$/.test(f))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (literal.test(codeOf(line))) found.push(`${relative(REPO_DIR, file)}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
