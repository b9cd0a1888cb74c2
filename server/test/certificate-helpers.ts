/**
 * Client certificates for the visitors' smart-card tests (as test/cert.test.ts makes them): a
 * test CA and DoD-style cards (@peculiar/x509), sent the way a trusted reverse proxy passes them
 * (X-Client-Cert, URL-encoded PEM, with X-Client-Verify: SUCCESS).
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
type CryptoKeyPair = webcrypto.CryptoKeyPair;
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

export interface TestCertificate {
  pem: string;
  /** SHA-256 of the DER, lower-case hex. */
  fingerprint: string;
}

export interface TestCa {
  issue(subject: string): Promise<TestCertificate>;
}

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
    async issue(subject) {
      const cardKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
      const cert = await x509.X509CertificateGenerator.create({
        serialNumber: (serial++).toString(16).padStart(2, '0'),
        subject,
        issuer: caCert.subject,
        notBefore: new Date(Date.now() - DAY),
        notAfter: new Date(Date.now() + 180 * DAY),
        signingKey: keys.privateKey,
        publicKey: cardKeys.publicKey,
        signingAlgorithm: ALGORITHM,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
          await x509.AuthorityKeyIdentifierExtension.create(keys.publicKey),
        ],
      });
      return { pem: cert.toString('pem'), fingerprint: Buffer.from(await cert.getThumbprint('SHA-256')).toString('hex') };
    },
  };
}

export const dodSubject = (cn: string) => `CN=${cn}, OU=CONTRACTOR, OU=PKI, OU=DoD, O=U.S. Government, C=US`;

/** The address of the trusted reverse proxy in these tests (app.inject's remoteAddress). */
export const TEST_PROXY = '10.0.0.5';

/** The headers a trusted proxy adds for a verified client certificate. */
export function proxyCertificateHeaders(certificate: TestCertificate): Record<string, string> {
  return { 'x-client-cert': encodeURIComponent(certificate.pem), 'x-client-verify': 'SUCCESS' };
}
