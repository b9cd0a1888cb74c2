/**
 * Reading the portal's mail the way a developer does on the embedded default: the outbox, through
 * `portal mail list --to ADDRESS --json` (which reaches the running portal through its socket).
 */
import { expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { workerPortal } from './fixtures';
import { repoRoot } from './paths';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** The mails sent to an address, newest first, by the portal whose data folder is given (default: this worker's portal's). */
export function mailsTo(address: string, dataDir = workerPortal().dataDir): OutboxMail[] {
  const output = execFileSync(process.execPath, [join(repoRoot, 'server', 'dist', 'cli.mjs'), 'mail', 'list', '--to', address, '--json'], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: '', PORTAL_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as OutboxMail);
}

/** Waits for a mail to the address whose subject matches, newer than the `after` mails already there; returns it. */
export async function waitForMail(address: string, subject: RegExp, after = 0, dataDir?: string): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect
    .poll(
      () => {
        const mails = mailsTo(address, dataDir);
        found = mails.length > after ? mails.slice(0, mails.length - after).find((m) => subject.test(m.subject)) : undefined;
        return found !== undefined;
      },
      { timeout: 15_000, message: `a mail to ${address} with subject ${subject}` },
    )
    .toBe(true);
  return found!;
}

/** The 6-digit verification code of the newest code mail to the address (sent after `after` mails). */
export async function verificationCode(address: string, after: number, dataDir?: string): Promise<string> {
  const mail = await waitForMail(address, /verification code/i, after, dataDir);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`No 6-digit code in: ${mail.text}`);
  return code;
}
