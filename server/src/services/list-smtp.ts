/**
 * The embedded list engine's SMTP listener (server/docs/mailing-lists.md, "The SMTP listener"):
 * it accepts mail for the portal's list addresses only, without authentication, and relays
 * nothing else (550 for any other recipient); a message over the size limit is refused at SMTP
 * time (552); each accepted message is parsed (mailparser) to plain text and handed to
 * receivePost. Plain SMTP on loopback by default: put it behind the platform's mail relay.
 */
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type { Database } from '../db/database.js';
import { mailingListExists } from '../repositories/mailing-lists.js';
import { receivePost } from './list-posts.js';

export interface ListSmtpOptions {
  db: Database;
  host: string;
  port: number;
  maxMessageBytes: number;
  now?: () => Date;
  onError(error: unknown): void;
  onPost?(event: { list: string; outcome: string }): void;
}

export interface ListSmtpServer {
  readonly port: number;
  close(): Promise<void>;
}

const smtpError = (message: string, code: number): Error => Object.assign(new Error(message), { responseCode: code });

export async function startListSmtpServer(options: ListSmtpOptions): Promise<ListSmtpServer> {
  const now = options.now ?? (() => new Date());
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: options.maxMessageBytes,
    logger: false,
    banner: 'Portal mailing lists',
    async onRcptTo(address: SMTPServerAddress, _session, callback) {
      try {
        const recipient = address.address.toLowerCase();
        if (await mailingListExists(options.db, recipient)) return callback();
        return callback(smtpError(`5.7.1 <${address.address}>: Relay access denied: not a mailing list here`, 550));
      } catch (error) {
        options.onError(error);
        return callback(smtpError('4.3.0 Temporary failure, try again later', 451));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(smtpError(`5.3.4 Message too big: the limit is ${options.maxMessageBytes} bytes`, 552));
          return;
        }
        const raw = Buffer.concat(chunks);
        void (async () => {
          const parsed = await simpleParser(raw, { skipHtmlToText: false, skipImageLinks: true, skipTextToHtml: true });
          const envelopeSender = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address.toLowerCase();
          const fromAddress = (parsed.from?.value[0]?.address ?? '').toLowerCase();
          const text = parsed.text ?? '';
          for (const rcpt of session.envelope.rcptTo) {
            const list = rcpt.address.toLowerCase();
            const outcome = await receivePost(options.db, list, { envelopeSender, fromAddress, subject: parsed.subject ?? '(no subject)', text, raw }, now());
            options.onPost?.({ list, outcome: outcome?.outcome ?? 'no such list' });
          }
        })().then(
          () => callback(),
          (error: unknown) => {
            options.onError(error);
            callback(smtpError('4.3.0 Temporary failure, try again later', 451));
          },
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
