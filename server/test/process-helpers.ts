/** The server as a child process, `node --import tsx src/main.ts`, for tests that need a real one. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { SERVER_DIR } from '../src/paths.js';
import type { Fixture } from './helpers.js';

export interface Running {
  child: ChildProcess;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts main with exactly these environment variables (plus PATH). */
export function startMain(env: Record<string, string>): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exit };
}

/** Waits for the "Portal running at" line; returns the URL it names. */
export async function runningUrl(running: Running, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = /Portal running at (http:\/\/localhost:\d+)/.exec(running.output());
    if (match?.[1]) return match[1];
    if (running.child.exitCode !== null) assert.fail(`main exited (${running.child.exitCode}) before running:\n${running.output()}`);
    if (Date.now() > deadline) assert.fail(`main did not start within ${timeoutMs} ms:\n${running.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What a finished command printed, and its exit code. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the portal's command line (src/cli.ts) with only PATH and `env` in its environment. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * What a portal started by a test runs with: its own data folder, the fixture's host and
 * environment, a remote store (the fixture's unless given), no demo data, ports of its own.
 */
export function portalEnv(fixture: Fixture, dataDir: string, remotesDir = fixture.remotesDir): Record<string, string> {
  return {
    PORT: '0',
    PORTAL_LIST_SMTP_PORT: '0',
    PORTAL_DATA_DIR: dataDir,
    PORTAL_SEED_DEMO: 'false',
    PORTAL_HOST_DIR: fixture.hostDir,
    PORTAL_REMOTES_DIR: remotesDir,
    PORTAL_ENVIRONMENT_MANIFEST: fixture.manifestFile,
  };
}
