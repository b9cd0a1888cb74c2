/**
 * Posting to the portal's mailing lists as an outside mail server would: a plain SMTP
 * conversation over node:net with the list listener of this worker's portal.
 */
import { connect } from 'node:net';
import { workerPortal } from './fixtures';

/** Sends one message; resolves with the server's final answer, rejects with its refusal. */
export function postToList(mail: { from: string; to: string; subject: string; text: string }): Promise<string> {
  const port = workerPortal().listSmtpPort;
  const message = [`From: ${mail.from}`, `To: ${mail.to}`, `Subject: ${mail.subject}`, 'Content-Type: text/plain; charset=utf-8', '', ...mail.text.split('\n')]
    .map((line) => (line.startsWith('.') ? `.${line}` : line))
    .join('\r\n');
  const steps: [command: string | undefined, expect: number][] = [
    [undefined, 220],
    ['EHLO e2e.example', 250],
    [`MAIL FROM:<${mail.from}>`, 250],
    [`RCPT TO:<${mail.to}>`, 250],
    ['DATA', 354],
    [`${message}\r\n.`, 250],
    ['QUIT', 221],
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffer = '';
    let step = 0;
    let last = '';
    socket.setEncoding('utf8');
    socket.setTimeout(15_000, () => socket.destroy(new Error('The list SMTP listener did not answer.')));
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      // A reply ends with a line 'NNN text' (a space after the code, not a hyphen).
      const lines = buffer.split('\r\n');
      const done = lines.slice(0, -1).find((line) => /^\d{3} /.test(line));
      if (!done) return;
      buffer = '';
      const code = Number(done.slice(0, 3));
      const [, expected] = steps[step]!;
      if (code !== expected) {
        socket.destroy();
        reject(new Error(`SMTP: expected ${expected}, got '${done}'`));
        return;
      }
      if (step === 5) last = done;
      step++;
      if (step === steps.length) {
        socket.end();
        resolve(last);
        return;
      }
      socket.write(`${steps[step]![0]}\r\n`);
    });
  });
}
