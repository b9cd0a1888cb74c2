/** Where the repository is, for the helpers that run its builds and its command line. */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
