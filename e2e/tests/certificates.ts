/**
 * A test CA that issues the portal's TLS certificate and smart-card style client certificates
 * (CN in the DoD style, OU DoD / PKI / CONTRACTOR), written as PEM files for the server and for
 * Playwright's clientCertificates.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const crypto = webcrypto as unknown as Crypto;
x509.cryptoProvider.set(crypto);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

async function keyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
}

async function pemKey(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await crypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').trimEnd()}\n-----END PRIVATE KEY-----\n`;
}

export interface TestPki {
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
  /** Client certificate and key for a DoD-style identity. */
  issueClient(commonName: string, name: string): Promise<{ cert: string; key: string }>;
}

/** Creates a CA, a server certificate for localhost, and writes them to `dir`. */
export async function createTestPki(dir: string): Promise<TestPki> {
  mkdirSync(dir, { recursive: true });
  const caKeys = await keyPair();
  const caName = 'CN=Portal Test Root CA, OU=PKI, OU=DoD, O=U.S. Government, C=US';
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    name: caName,
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const issue = async (subject: string, extensions: x509.Extension[]) => {
    const keys = await keyPair();
    const cert = await x509.X509CertificateGenerator.create({
      subject,
      issuer: ca.subject,
      publicKey: keys.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: ALGORITHM,
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 86_400_000),
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        await x509.AuthorityKeyIdentifierExtension.create(ca, false),
        ...extensions,
      ],
    });
    return { cert: cert.toString('pem'), key: await pemKey(keys.privateKey) };
  };

  const server = await issue('CN=localhost', [
    new x509.SubjectAlternativeNameExtension([
      { type: 'dns', value: 'localhost' },
      { type: 'ip', value: '127.0.0.1' },
    ]),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
  ]);
  const pki: TestPki = {
    caCert: join(dir, 'ca.pem'),
    serverCert: join(dir, 'server.pem'),
    serverKey: join(dir, 'server-key.pem'),
    async issueClient(commonName, name) {
      const client = await issue(`CN=${commonName}, OU=CONTRACTOR, OU=PKI, OU=DoD, O=U.S. Government, C=US`, [
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ]);
      const cert = join(dir, `${name}.pem`);
      const key = join(dir, `${name}-key.pem`);
      writeFileSync(cert, client.cert);
      writeFileSync(key, client.key, { mode: 0o600 });
      return { cert, key };
    },
  };
  writeFileSync(pki.caCert, ca.toString('pem'));
  writeFileSync(pki.serverCert, server.cert);
  writeFileSync(pki.serverKey, server.key, { mode: 0o600 });
  return pki;
}
