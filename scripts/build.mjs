// npm run build [-- --force]: builds the host, the five remotes and the server, skipping what is up to date.
import { buildAll, ensureInstalled } from './lib.mjs';

await ensureInstalled();
await buildAll({ force: process.argv.includes('--force') });
