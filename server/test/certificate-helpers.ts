/**
 * The server tests' certificates: a test CA (@peculiar/x509) that issues DoD-style smart cards
 * and server certificates, and the headers a trusted reverse proxy sends for a verified card
 * (X-Client-Cert, URL-encoded PEM, with X-Client-Verify: SUCCESS).
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
type CryptoKeyPair = webcrypto.CryptoKeyPair;
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

/** A certificate the test CA issued (or the CA's own), with its private key. */
export interface TestCertificate {
  cert: x509.X509Certificate;
  pem: string;
  keyPem: string;
  keys: CryptoKeyPair;
  /** SHA-256 of the DER, lower-case hex. */
  fingerprint: string;
}

export interface IssueOptions {
  /** 'client' (a smart card, the default) or 'server' (localhost, for the HTTPS listener). */
  usage?: 'client' | 'server';
  validFrom?: Date;
  validUntil?: Date;
}

export interface TestCa extends TestCertificate {
  issue(subject: string, options?: IssueOptions): Promise<TestCertificate>;
}

async function described(cert: x509.X509Certificate, keys: CryptoKeyPair): Promise<TestCertificate> {
  const keyPem = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as webcrypto.CryptoKey), 'PRIVATE KEY');
  const fingerprint = Buffer.from(await cert.getThumbprint('SHA-256')).toString('hex');
  return { cert, pem: cert.toString('pem'), keyPem, keys, fingerprint };
}

/** The one test PKI of the server tests: a CA that issues smart cards and server certificates. */
export async function createTestCa(name = 'CN=Test DoD Root CA 3, OU=PKI, OU=DoD, O=U.S. Government, C=US'): Promise<TestCa> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 365 * DAY),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 1, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  let serial = 16;
  return {
    ...(await described(caCert, keys)),
    async issue(subject, { usage = 'client', validFrom = new Date(Date.now() - DAY), validUntil = new Date(Date.now() + 180 * DAY) } = {}) {
      const cardKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
      const extensions: x509.Extension[] = [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
        new x509.ExtendedKeyUsageExtension([usage === 'client' ? x509.ExtendedKeyUsage.clientAuth : x509.ExtendedKeyUsage.serverAuth]),
        await x509.AuthorityKeyIdentifierExtension.create(keys.publicKey),
      ];
      if (usage === 'server') {
        extensions.push(new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'localhost' }, { type: 'ip', value: '127.0.0.1' }]));
      }
      const cert = await x509.X509CertificateGenerator.create({
        serialNumber: (serial++).toString(16).padStart(2, '0'),
        subject,
        issuer: caCert.subject,
        notBefore: validFrom,
        notAfter: validUntil,
        signingKey: keys.privateKey,
        publicKey: cardKeys.publicKey,
        signingAlgorithm: ALGORITHM,
        extensions,
      });
      return described(cert, cardKeys);
    },
  };
}

export const dodSubject = (cn: string) => `CN=${cn}, OU=CONTRACTOR, OU=PKI, OU=DoD, O=U.S. Government, C=US`;

/** The address of the trusted reverse proxy in these tests (app.inject's remoteAddress). */
export const TEST_PROXY = '10.0.0.5';

/** The headers a trusted proxy adds for a verified client certificate. */
export function proxyCertificateHeaders(certificate: Pick<TestCertificate, 'pem'>): Record<string, string> {
  return { 'x-client-cert': encodeURIComponent(certificate.pem), 'x-client-verify': 'SUCCESS' };
}
