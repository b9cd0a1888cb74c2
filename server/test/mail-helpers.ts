/** A real SMTP server for mail tests (smtp-server on 127.0.0.1): it keeps every message it receives. */
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The SMTP envelope. */
  from: string;
  rcptTo: string[];
  /** Unfolded headers, names in lower case. */
  headers: Record<string, string>;
  /** The body with LF line endings, without the final line break. */
  text: string;
  raw: string;
}

export interface SmtpCatcher {
  readonly port: number;
  readonly url: string;
  readonly received: ReceivedMail[];
  close(): Promise<void>;
}

function parse(raw: string, from: string, rcptTo: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { from, rcptTo, headers, text: body.replace(/\r\n/g, '\n').replace(/\n$/, ''), raw };
}

/** Starts an SMTP server on 127.0.0.1 (port 0: any free port). No TLS, no authentication. */
export async function startSmtpCatcher(port = 0): Promise<SmtpCatcher> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        received.push(parse(Buffer.concat(chunks).toString('utf8'), from, session.envelope.rcptTo.map((r) => r.address)));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const actual = typeof address === 'object' && address !== null ? address.port : port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A free port on 127.0.0.1 with nothing listening (an SMTP server that is down). */
export async function downSmtpPort(): Promise<number> {
  const catcher = await startSmtpCatcher();
  await catcher.close();
  return catcher.port;
}

export async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
