// npm start: install (frozen lockfile), build what changed, and run the portal on the embedded
// database with demo data. PORT, DATABASE_URL and the PORTAL_* settings pass through.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildAll, ensureInstalled, root } from './lib.mjs';

await ensureInstalled();
await buildAll();

const env = { ...process.env };
env.PORTAL_CONFIG_FILE ??= join(root, 'server', 'config', 'demo.json');
// A person is reading this terminal: warnings and errors only, unless LOG_LEVEL says otherwise.
env.LOG_LEVEL ??= 'warn';

const server = spawn(process.execPath, ['--enable-source-maps', join(root, 'server', 'dist', 'main.mjs')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
