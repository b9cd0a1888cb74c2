// npm run portal -- <command> [options]: the portal's command line (server/src/cli.ts), e.g.
//   npm run portal -- create-admin --username jane.doe --email jane.doe@example.test [--json]
// It works whether or not the portal is running (see server/README.md, "Command line").
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildApp, ensureInstalled, root } from './lib.mjs';

await ensureInstalled();
await buildApp('server');
const cli = spawn(process.execPath, [join(root, 'server', 'dist', 'cli.mjs'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
cli.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
