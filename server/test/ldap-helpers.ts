/**
 * A real OpenLDAP slapd for the provisioning tests (Debian's slapd and ldap-utils; `npm test`
 * installs them when run as root): a throwaway cn=config with the core, cosine and inetorgperson
 * schemas, an mdb database under dc=example,dc=test, the memberof overlay, on a free loopback
 * port. The tests read and change it with the ldap-utils commands, as a person would.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const LDAP_SUFFIX = 'dc=example,dc=test';
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_SUFFIX}`;
export const LDAP_ADMIN_PASSWORD = 'slapd-test-secret-1234';

export interface Slapd {
  url: string;
  /** Its folder (configuration and data). */
  dir: string;
  /** Stops it (the data stays: start() again serves the same entries). */
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
  /** Kills it and removes its folder at once, synchronously (for a process exiting unplanned). */
  killNow(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function configLdif(dataDir: string, maxSizeBytes: number, noSync: boolean): string {
  return `dn: cn=config
objectClass: olcGlobal
cn: config

dn: cn=module{0},cn=config
objectClass: olcModuleList
cn: module{0}
olcModulePath: /usr/lib/ldap
olcModuleLoad: back_mdb
olcModuleLoad: memberof

dn: cn=schema,cn=config
objectClass: olcSchemaConfig
cn: schema

include: file:///etc/ldap/schema/core.ldif

include: file:///etc/ldap/schema/cosine.ldif

include: file:///etc/ldap/schema/inetorgperson.ldif

dn: olcDatabase={-1}frontend,cn=config
objectClass: olcDatabaseConfig
objectClass: olcFrontendConfig
olcDatabase: {-1}frontend

dn: olcDatabase={0}config,cn=config
objectClass: olcDatabaseConfig
olcDatabase: {0}config
olcAccess: {0}to * by * none

dn: olcDatabase={1}mdb,cn=config
objectClass: olcDatabaseConfig
objectClass: olcMdbConfig
olcDatabase: {1}mdb
olcSuffix: ${LDAP_SUFFIX}
olcRootDN: ${LDAP_ADMIN_DN}
olcRootPW: ${LDAP_ADMIN_PASSWORD}
olcDbDirectory: ${dataDir}
olcDbMaxSize: ${maxSizeBytes}
${noSync ? 'olcDbNoSync: TRUE\n' : ''}olcDbIndex: objectClass eq
olcDbIndex: uid eq
olcDbIndex: cn eq
olcDbIndex: member eq
olcAccess: {0}to * by * read

dn: olcOverlay={0}memberof,olcDatabase={1}mdb,cn=config
objectClass: olcOverlayConfig
objectClass: olcMemberOf
olcOverlay: {0}memberof
olcMemberOfRefInt: TRUE
`;
}

/**
 * Starts a slapd with an empty directory holding only dc=example,dc=test. The bench
 * (scripts/bench-provisioning.mjs) starts its directories here too, with room for its scale.
 */
export async function startSlapd(options: { maxSizeBytes?: number; noSync?: boolean } = {}): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-slapd-'));
  const configDir = join(dir, 'slapd.d');
  const dataDir = join(dir, 'data');
  mkdirSync(configDir);
  mkdirSync(dataDir);
  writeFileSync(join(dir, 'config.ldif'), configLdif(dataDir, options.maxSizeBytes ?? 4294967296, options.noSync ?? false));
  execFileSync('/usr/sbin/slapadd', ['-n', '0', '-F', configDir, '-l', join(dir, 'config.ldif')], { stdio: ['ignore', 'ignore', 'pipe'] });
  writeFileSync(join(dir, 'base.ldif'), `dn: ${LDAP_SUFFIX}\nobjectClass: top\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n`);
  execFileSync('/usr/sbin/slapadd', ['-n', '1', '-F', configDir, '-l', join(dir, 'base.ldif')], { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    const running = spawn('/usr/sbin/slapd', ['-F', configDir, '-h', `${url}/`, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    running.stderr?.setEncoding('utf8').on('data', (c: string) => (errors += c));
    child = running;
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        execFileSync('ldapsearch', ['-x', '-H', url, '-b', LDAP_SUFFIX, '-s', 'base', '1.1'], { stdio: 'ignore' });
        return;
      } catch {
        if (running.exitCode !== null) throw new Error(`slapd exited (${running.exitCode}): ${errors}`);
        if (Date.now() > deadline) throw new Error(`slapd did not answer at ${url} within 15 s: ${errors}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url,
    dir,
    start,
    stop,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
    killNow() {
      child?.kill('SIGKILL');
      child = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** ldapsearch as the admin: the entries' attributes, as { dn, attribute: values[] }. */
export function ldapSearch(url: string, base: string, filter = '(objectClass=*)', attributes: string[] = [], scope = 'sub'): Record<string, string[]>[] {
  let out: string;
  try {
    out = execFileSync('ldapsearch', ['-x', '-LLL', '-o', 'ldif-wrap=no', '-H', url, '-D', LDAP_ADMIN_DN, '-w', LDAP_ADMIN_PASSWORD, '-b', base, '-s', scope, filter, ...attributes], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // 32: no such object (the base is not there).
    if ((error as { status?: number }).status === 32) return [];
    throw error;
  }
  const entries: Record<string, string[]>[] = [];
  for (const block of out.split(/\n\n+/)) {
    if (block.trim() === '') continue;
    const entry: Record<string, string[]> = {};
    for (const line of block.split('\n')) {
      const m = /^([A-Za-z0-9;-]+)(::?) ?(.*)$/.exec(line);
      if (!m) continue;
      const value = m[2] === '::' ? Buffer.from(m[3] ?? '', 'base64').toString('utf8') : (m[3] ?? '');
      (entry[m[1] ?? ''] ??= []).push(value);
    }
    entries.push(entry);
  }
  return entries;
}

/** Applies an LDIF change as the admin (ldapmodify), as someone changing the directory by hand. */
export function ldapModify(url: string, ldif: string): void {
  execFileSync('ldapmodify', ['-x', '-H', url, '-D', LDAP_ADMIN_DN, '-w', LDAP_ADMIN_PASSWORD], { input: ldif, stdio: ['pipe', 'ignore', 'pipe'] });
}

/** The usernames in a group of the portal's layout under `base` (sorted; none when it has no entry). */
export function groupMembers(url: string, base: string, group: string): string[] {
  const [entry] = ldapSearch(url, `ou=groups,${base}`, `(cn=${group})`, ['member'], 'one');
  return (entry?.member ?? []).map((dn) => dn.replace(/^uid=/, '').replace(/,ou=people,.*$/, '')).sort();
}

/** The groups (cn) a person is in, as the memberof overlay says (sorted). */
export function memberOf(url: string, base: string, username: string): string[] {
  const [entry] = ldapSearch(url, `ou=people,${base}`, `(uid=${username})`, ['memberOf'], 'one');
  return (entry?.memberOf ?? []).map((dn) => dn.replace(/^cn=/, '').replace(/,ou=groups,.*$/, '')).sort();
}
