/**
 * The portal's antd is shared in parts (antd-core.ts, antd-data.ts, antd-details.ts, antd-extra.ts,
 * antd-forms.ts) that every
 * app's `from 'antd'` is split into at build time (../build/antd-imports-loader.cjs): a component
 * an app uses that no part has would fail the build, and one the shell needs that sits in another
 * part than the first would make every first page load that part too. This reads every app's sources and fails,
 * naming the file, in either case, and when antd is imported in a way the parts cannot serve.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { appSourceFiles, REPO_DIR } from './app-sources';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the loader is CommonJS, as webpack runs it
const { antdParts, BROUGHT_MODULE, splitAntdImports } = require('../build/antd-imports-loader.cjs') as {
  antdParts(): Map<string, string>;
  BROUGHT_MODULE: string;
  splitAntdImports(source: string, partOf: Map<string, string>, options?: { brings?: ReadonlySet<string>; ownCopy?: boolean }): { code: string; problems: string[] };
};

const repo = REPO_DIR;
const PART_MODULES = ['antd-core.ts', 'antd-data.ts', 'antd-details.ts', 'antd-extra.ts', 'antd-forms.ts'].map((name) => join(__dirname, name));

const partOf = antdParts();
const files = appSourceFiles().filter((file) => !PART_MODULES.includes(file) && file !== join(__dirname, 'app-sources.ts'));

/**
 * What every first page runs: the host's shell, and the singleton root of @portal/shared (index.ts
 * and what it exports from its own folders). Not the forms: the sign-in page (a chunk of its own)
 * and @portal/shared/forms (forms.ts, ui/form/) are loaded with the first page that has a form.
 */
const FIRST_PAGE = (file: string) => {
  const path = relative(repo, file);
  if (FORMS(file)) return false;
  return /^host\/src\/shell\//.test(path) || /^host\/src\/[^/]+\.tsx?$/.test(path) || /^shared\/src\/(ui|stores|api)\//.test(path) || /^shared\/src\/[^/]+\.tsx?$/.test(path);
};

/** The sign-in page and @portal/shared/forms: what a page with a form loads besides the first page's. */
const FORMS = (file: string) => /^(host\/src\/pages\/login\/|shared\/src\/ui\/form\/|shared\/src\/forms\.ts$)/.test(relative(repo, file));

describe("the portal's antd in parts", () => {
  it('reads the sources of the host, shared and every remote, and every part', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(partOf.get('Button')).toBe('@portal/antd-core');
    expect(partOf.get('Table')).toBe('@portal/antd-data');
    expect(partOf.get('Descriptions')).toBe('@portal/antd-details');
    expect(partOf.get('List')).toBe('@portal/antd-extra');
    expect(partOf.get('Switch')).toBe('@portal/antd-extra');
    expect(partOf.get('Input')).toBe('@portal/antd-forms');
    expect(files.filter(FORMS).length).toBeGreaterThan(10);
  });

  it('has every antd component the apps use, and the apps import antd only by name from antd', () => {
    const problems = files.flatMap((file) =>
      splitAntdImports(readFileSync(file, 'utf8'), partOf, { ownCopy: file === BROUGHT_MODULE }).problems.map((problem) => `${relative(repo, file)}: ${problem}`),
    );
    expect(problems).toEqual([]);
  });

  it("puts in its first part every component the shell and @portal/shared's singleton use", () => {
    const late = files.filter(FIRST_PAGE).flatMap((file) => {
      const { code } = splitAntdImports(readFileSync(file, 'utf8'), partOf);
      return /from '@portal\/antd-(?!core')/.test(code) ? [`${relative(repo, file)} (move what it uses to shared/src/antd-core.ts)`] : [];
    });
    expect(late).toEqual([]);
  });

  it("puts in the first part or the forms' part every component the sign-in page and @portal/shared/forms use", () => {
    const late = files.filter(FORMS).flatMap((file) => {
      const { code } = splitAntdImports(readFileSync(file, 'utf8'), partOf);
      return /from '@portal\/antd-(?!core'|forms')/.test(code) ? [`${relative(repo, file)} (move what it uses to shared/src/antd-forms.ts)`] : [];
    });
    expect(late).toEqual([]);
  });

  it('keeps the form stack out of the first page: its files import no form library, no form primitive and not the sign-in page', () => {
    const forms = /^(final-form|react-final-form|@portal\/shared\/forms)$|\/(pages\/login|ui\/form)\/|^\.\/(login|form)\//;
    const eager = files.filter(FIRST_PAGE).filter((file) => !/\.test\.tsx?$/.test(file)).flatMap((file) => {
      // Static imports and re-exports of values: a type import is erased, a lazy import() is loaded when it runs.
      const specifiers = [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?\sfrom\s+'([^']+)'/gm)].map(([, specifier]) => specifier ?? '');
      return specifiers.filter((specifier) => forms.test(specifier)).map((specifier) => `${relative(repo, file)}: ${specifier}`);
    });
    expect(eager).toEqual([]);
  });

  it("has the apps reach the parts only through `from 'antd'`, never by a part's key", () => {
    const direct = files.filter((file) => /from '@portal\/antd-[a-z]+'/.test(readFileSync(file, 'utf8'))).map((file) => relative(repo, file));
    expect(direct).toEqual([]);
  });
});

describe('the build step that splits the imports (antd-imports-loader.cjs)', () => {
  it('sends each name to its part, keeps aliases and the lines, and leaves the types to antd', () => {
    const source = "import {\n  App as AntApp,\n  Table,\n  type TableColumnsType,\n} from 'antd';\nconst x = 1;\n";
    expect(splitAntdImports(source, partOf)).toEqual({
      code:
        "import { App as AntApp } from '@portal/antd-core'; import { Table } from '@portal/antd-data'; import type { TableColumnsType } from 'antd';\n\n\n\n\nconst x = 1;\n",
      problems: [],
    });
  });

  it('leaves type-only imports and other packages alone', () => {
    const source = "import type { ThemeConfig } from 'antd';\nimport { Link } from 'react-router-dom';\nimport { Button } from 'antd-like';\n";
    expect(splitAntdImports(source, partOf)).toEqual({ code: source, problems: [] });
  });

  it('names what it cannot serve', () => {
    const { problems } = splitAntdImports("import { Button, Calendar } from 'antd';\nimport * as antd from 'antd';\nimport Tag from 'antd/es/tag';\n", partOf);
    expect(problems).toEqual([
      "import * as antd from 'antd': the portal's antd cannot serve this form; import its components by name: import { Button } from 'antd'",
      "import Tag from 'antd/es/tag': the portal's antd cannot serve a deep path; import its components by name: import { Button } from 'antd'",
      'Calendar is not in the portal\'s antd: add it to shared/src/antd-extra.ts (antd-core.ts if the shell needs it), or bring it with this app ("portal": { "brings": ["Calendar"] } in its package.json)',
    ]);
  });

  it("builds a component the app brings from the app's own antd, drawn through the portal's theme, on the same line", () => {
    const source = "import { Button, Steps, Calendar as Month } from 'antd';\nimport { Card, Steps as Progress } from 'antd';\nconst x = 1;\n";
    const { code, problems } = splitAntdImports(source, partOf, { brings: new Set(['Steps', 'Calendar']) });
    expect(problems).toEqual([]);
    expect(code.split('\n')).toEqual([
      "import { Button } from '@portal/antd-core'; import { Steps as __portalOwn_Steps_1, Calendar as __portalOwn_Calendar_2 } from 'antd/es/index.js'; " +
        "import { withPortalTheme as __portalWithTheme } from '@portal/shared/brought-antd'; const Steps = __portalWithTheme(__portalOwn_Steps_1); const Month = __portalWithTheme(__portalOwn_Calendar_2);",
      "import { Card } from '@portal/antd-forms'; import { Steps as __portalOwn_Steps_3 } from 'antd/es/index.js'; const Progress = __portalWithTheme(__portalOwn_Steps_3);",
      'const x = 1;',
      '',
    ]);
  });

  it('refuses to bring a component the portal has, and lets only the wrapper import the own copy', () => {
    expect(splitAntdImports("import { Table } from 'antd';\n", partOf, { brings: new Set(['Table']) }).problems).toEqual([
      'Table is in the portal\'s antd: take it from there (remove it from "portal"."brings" in the package.json)',
    ]);
    const own = "import { ConfigProvider as Own } from 'antd/es/index.js';\n";
    expect(splitAntdImports(own, partOf).problems).toHaveLength(1);
    expect(splitAntdImports(own, partOf, { ownCopy: true })).toEqual({ code: own, problems: [] });
  });
});
