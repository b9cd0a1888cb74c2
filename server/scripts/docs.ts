// npm run docs: writes README's configuration tables from the settings' schemas (src/config-docs.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withConfigurationTables } from '../src/config-docs.js';
import { REPO_DIR } from '../src/paths.js';

const file = join(REPO_DIR, 'README.md');
const before = readFileSync(file, 'utf8');
const after = withConfigurationTables(before);
if (after === before) console.log('README.md: the configuration tables are up to date');
else {
  writeFileSync(file, after);
  console.log('README.md: the configuration tables were written again');
}
