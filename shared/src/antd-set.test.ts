/**
 * The portal's antd is shared in parts (antd-core.ts, antd-more.ts, antd-extra.ts) that every
 * app's `from 'antd'` is split into at build time (../build/antd-imports-loader.cjs): a component
 * an app uses that no part has would fail the build, and one the shell needs that sits in another
 * part than the first would make every first page load that part too. This reads every app's sources and fails,
 * naming the file, in either case, and when antd is imported in a way the parts cannot serve.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { appSourceFiles, REPO_DIR } from './app-sources';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the loader is CommonJS, as webpack runs it
const { antdParts, splitAntdImports } = require('../build/antd-imports-loader.cjs') as {
  antdParts(): Map<string, string>;
  splitAntdImports(source: string, partOf: Map<string, string>): { code: string; problems: string[] };
};

const repo = REPO_DIR;
const PART_MODULES = ['antd.ts', 'antd-core.ts', 'antd-more.ts', 'antd-extra.ts'].map((name) => join(__dirname, name));

const partOf = antdParts();
const files = appSourceFiles().filter((file) => !PART_MODULES.includes(file) && file !== join(__dirname, 'app-sources.ts'));

/**
 * What every first page runs: the host's shell and sign-in page, and the singleton root of
 * @portal/shared (index.ts and what it exports from its own folders).
 */
const FIRST_PAGE = (file: string) => {
  const path = relative(repo, file);
  return /^host\/src\/(shell|pages\/login)\//.test(path) || /^host\/src\/[^/]+\.tsx?$/.test(path) || /^shared\/src\/(ui|stores|api)\//.test(path) || /^shared\/src\/[^/]+\.tsx?$/.test(path);
};

describe("the portal's antd in parts", () => {
  it('reads the sources of the host, shared and every remote, and both parts', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(partOf.get('Button')).toBe('@portal/antd-core');
    expect(partOf.get('Table')).toBe('@portal/antd-more');
    expect(partOf.get('Switch')).toBe('@portal/antd-extra');
  });

  it('has every antd component the apps use, and the apps import antd only by name from antd', () => {
    const problems = files.flatMap((file) => splitAntdImports(readFileSync(file, 'utf8'), partOf).problems.map((problem) => `${relative(repo, file)}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it("puts in its first part every component the shell, the sign-in page and @portal/shared's singleton use", () => {
    const late = files.filter(FIRST_PAGE).flatMap((file) => {
      const { code } = splitAntdImports(readFileSync(file, 'utf8'), partOf);
      return /from '@portal\/antd-(?!core')/.test(code) ? [`${relative(repo, file)} (move what it uses to shared/src/antd-core.ts)`] : [];
    });
    expect(late).toEqual([]);
  });

  it('is served, for the remotes built before contract 1.2, as one module of all the parts', () => {
    const reexported = [...readFileSync(join(__dirname, 'antd.ts'), 'utf8').matchAll(/^export \* from '\.\/(antd-[a-z]+)\.js';$/gm)].map(([, name]) => `@portal/${name}`);
    expect(reexported.sort()).toEqual([...new Set(partOf.values())].sort());
  });
});

describe('the build step that splits the imports (antd-imports-loader.cjs)', () => {
  it('sends each name to its part, keeps aliases and the lines, and leaves the types to antd', () => {
    const source = "import {\n  App as AntApp,\n  Table,\n  type TableColumnsType,\n} from 'antd';\nconst x = 1;\n";
    expect(splitAntdImports(source, partOf)).toEqual({
      code:
        "import { App as AntApp } from '@portal/antd-core'; import { Table } from '@portal/antd-more'; import type { TableColumnsType } from 'antd';\n\n\n\n\nconst x = 1;\n",
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
      "Calendar is not in the portal's antd: add it to shared/src/antd-extra.ts (antd-core.ts if the shell needs it)",
    ]);
  });
});
