/**
 * The documentation a newcomer reads: every relative link in the READMEs and docs/ leads to a file
 * that exists (and, for a heading, to a heading that exists), the README stays short enough to
 * read with the test timings in its Tests section, its configuration tables are the settings'
 * schemas' (server/src/config.ts), and the bench's table is where the bench writes it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { BEGIN_MARKER, configurationTables, withConfigurationTables } from '../src/config-docs.js';
import { REPO_DIR } from '../src/paths.js';

const docDir = (dir: string): string[] =>
  readdirSync(join(REPO_DIR, dir))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(dir, name));

const DOCS = ['README.md', 'server/README.md', ...docDir('docs'), ...docDir('server/docs')];

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every heading's anchor in a Markdown file (outside fenced code). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const match = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (!match) continue;
    const anchor = anchorOf(match[1] ?? '');
    const seen = counts.get(anchor) ?? 0;
    counts.set(anchor, seen + 1);
    anchors.add(seen === 0 ? anchor : `${anchor}-${seen}`);
  }
  return anchors;
}

/** The targets of a Markdown file's links `[text](target)`, outside fenced and inline code. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
}

/** What is wrong with each relative link of a file: a missing file or a missing heading. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(join(REPO_DIR, file), 'utf8');
  const broken: string[] = [];
  for (const link of linksOf(text)) {
    if (/^[a-z][a-z+.-]*:/i.test(link)) continue; // https:, mailto: …
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? join(REPO_DIR, file) : resolve(REPO_DIR, dirname(file), decodeURIComponent(path));
    if (!existsSync(target)) {
      broken.push(`${link}: no file ${relative(REPO_DIR, target)}`);
      continue;
    }
    if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
      broken.push(`${link}: no heading #${anchor} in ${relative(REPO_DIR, target)}`);
    }
  }
  return broken;
}

describe('the documentation', () => {
  test('reaches every file it links to', () => {
    assert.ok(DOCS.length > 10, `only ${DOCS.length} files found`);
    const broken = DOCS.flatMap((file) => brokenLinks(file).map((problem) => `${file}: ${problem}`));
    assert.deepEqual(broken, []);
  });

  test('finds a link that leads nowhere, and one to a heading that is not there', () => {
    assert.deepEqual(linksOf('See [a](docs/a.md#b), `[c](d)` and [e](https://example.test).'), ['docs/a.md#b', 'https://example.test']);
    assert.ok(anchorsOf(readFileSync(join(REPO_DIR, 'docs/operations.md'), 'utf8')).has('several-servers-behind-a-reverse-proxy'));
    assert.equal(anchorOf('The life of a request'), 'the-life-of-a-request');
    assert.equal(anchorOf('`css_theme` and the light/dark switch'), 'css_theme-and-the-lightdark-switch');
  });

  test('README is at most 350 lines, with its Tests section and the per-stage timings of a full run', () => {
    const readme = readFileSync(join(REPO_DIR, 'README.md'), 'utf8');
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= 350, `README.md has ${lines} lines`);
    assert.match(readme, /^## Tests$/m);
    const tests = readme.slice(readme.indexOf('## Tests'));
    assert.match(tests, /^\| stage \| tests \| starts at \| takes \|$/m);
    assert.match(tests, /^\| \*\*wall clock\*\* \| [\d,]+ \| \| \*\*[\d,]+ s\*\* \|$/m);
    assert.match(readme, /^npm start /m);
    assert.match(readme, /^npm test /m);
  });

  test("README's configuration tables are made from the settings' schemas (npm run docs)", () => {
    const readme = readFileSync(join(REPO_DIR, 'README.md'), 'utf8');
    assert.equal(withConfigurationTables(readme), readme, 'README.md differs from server/src/config.ts: run npm run docs');
    const tables = configurationTables();
    // A row per setting, each with its variable, default and meaning as the schema gives them.
    assert.match(tables, /^\| `cac_support` \| `PORTAL_CAC_SUPPORT` \| `true` \| smart-card \(CAC\) sign-in and registration are offered \|$/m);
    assert.match(tables, /^\| `PORT` \| `8080` \| port to listen on \(`0`: any free port\); 0–65535 \|$/m);
    assert.match(tables, /^\| `PORTAL_LDAP_BIND_PASSWORD_FILE` \| \*\(unset\)\* \| /m);
    assert.match(tables, /^\| `PORTAL_SESSION_RATE_LIMIT` \| `600\/60` \| /m);
    const edited = readme.replace('| `PORTAL_SESSION_RATE_LIMIT` | `600/60` |', '| `PORTAL_SESSION_RATE_LIMIT` | `900/60` |');
    assert.notEqual(edited, readme);
    assert.equal(withConfigurationTables(edited), readme, 'a hand edit is written over');
    assert.throws(() => withConfigurationTables(readme.replace(BEGIN_MARKER, '')), /no configuration tables/);
  });

  test("the bench writes its table between docs/performance.md's markers", async () => {
    interface BenchTable {
      renderBenchTable(figures: { what: string; figure: string; target?: string; met?: boolean }[], run: { date: string; commit: string; machine: string }): string;
      replaceBenchTable(text: string, table: string): string;
    }
    const bench = (await import(pathToFileURL(join(REPO_DIR, 'scripts', 'bench-table.mjs')).href)) as BenchTable;
    const doc = readFileSync(join(REPO_DIR, 'docs', 'performance.md'), 'utf8');
    const table = bench.renderBenchTable([{ what: 'token introspection p99', figure: '6.0 ms', target: '< 10 ms', met: true }], {
      date: '2026-01-02',
      commit: 'abc1234',
      machine: '2 cores',
    });
    const written = bench.replaceBenchTable(doc, table);
    assert.match(written, /\n`npm run bench` on 2026-01-02, commit abc1234; 2 cores\.\n/);
    assert.match(written, /\n\| token introspection p99 \| 6\.0 ms \| < 10 ms \| met \|\n/);
    assert.equal(written.split('`npm run bench` on ').length, 2, 'the table before it is replaced, not kept');
    assert.equal(bench.replaceBenchTable(written, table), written);
    assert.throws(() => bench.replaceBenchTable('no markers here', table), /markers/);
  });
});
