import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  ConfigError,
  envVarFor,
  loadPortalConfiguration,
  loadServerSettings,
  loadSettings,
  DEFAULT_PERSONAL_EMAIL_DOMAINS,
  type Env,
} from '../src/config.js';
import { REPO_DIR, SERVER_DIR } from '../src/paths.js';
import { DEFAULT_CONFIGURATION, externalRedirect, PROJECT_KEY, serviceOrigins, serviceTokenLinks, supportedServices } from '@portal/api';

const dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let fileCounter = 0;
function configFile(content: unknown): string {
  const file = join(dir, `config-${++fileCounter}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** The problems a load reports; fails the test when it does not throw a ConfigError. */
function problemsOf(load: () => unknown): readonly string[] {
  try {
    load();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    assert.equal(error.message, error.problems.join('\n'));
    return error.problems;
  }
  assert.fail('expected a ConfigError');
}

const portal = (env: Env) => loadPortalConfiguration({ env, cwd: dir });

describe('portal configuration', () => {
  test('with nothing configured, every key has its spec default', () => {
    // The spec's values themselves are pinned by shared/src/config.test.ts.
    assert.deepEqual(portal({}), DEFAULT_CONFIGURATION);
  });

  test("the demo's file (npm start's) names every supported service's origin, so a sign-in redirect to any of them is checked", () => {
    const demo = portal({ PORTAL_CONFIG_FILE: join(SERVER_DIR, 'config', 'demo.json') });
    const services = supportedServices(demo);
    assert.deepEqual(services, ['artifacts', 'bitbucket', 'confluence', 'jenkins', 'jira', 'jsm', 'sonarqube']);
    const origins = serviceOrigins(demo);
    assert.deepEqual(origins.map((o) => o.service).sort(), [...services].sort(), 'one origin for each supported service');
    for (const { service, origin } of origins) {
      assert.deepEqual(externalRedirect(`${origin}/some/page?x=1`, demo), { href: `${origin}/some/page?x=1`, service }, service);
    }
    // The issue tracker's link of the walk-through, and the wiki: Confluence's address, checked as Confluence.
    assert.deepEqual(externalRedirect('https://jira.example.test/browse/X-1', demo), { href: 'https://jira.example.test/browse/X-1', service: 'jira' });
    assert.deepEqual(externalRedirect(`${demo.wiki_url}display/WEB/Home`, demo), { href: 'https://wiki.example.test/display/WEB/Home', service: 'confluence' });
    // /tokens/services: the three services that issue their own tokens, the source host's project path with its placeholder.
    const links = serviceTokenLinks(demo);
    assert.deepEqual(links.map((l) => l.service), ['bitbucket', 'confluence', 'jira']);
    assert.equal(links[0]?.projectTokens, `https://code.example.test/plugins/servlet/access-tokens/projects/${PROJECT_KEY}/manage`);
  });

  test('a supported service without an origin in service_origins is said at start: a redirect to it would be refused', () => {
    const settings = loadSettings({
      env: { PORTAL_SUPPORTED_SERVICES: 'jira,confluence,jenkins,sonarqube', PORTAL_SERVICE_ORIGINS: 'jira=https://jira.example.test', PORTAL_WIKI_URL: 'https://wiki.example.test/' },
      cwd: dir,
    });
    // Confluence is reached at the wiki's origin.
    assert.deepEqual(settings.warnings, ["service_origins names no origin for jenkins, sonarqube (supported): a sign-in's redirect to them is refused"]);
    const demo = loadSettings({ env: { PORTAL_CONFIG_FILE: join(SERVER_DIR, 'config', 'demo.json') }, cwd: dir });
    assert.deepEqual(demo.warnings, [], "the demo's file names every one");
  });

  test('a file overrides the defaults', () => {
    const file = configFile({
      brand: 'DevPlatform',
      cac_support: false,
      css_theme: 'dark',
      supported_services: 'jira, Artifacts,jira',
      artifacts_token_default_expiry: 30,
      wiki_url: 'https://wiki.example.test/',
    });
    const config = portal({ PORTAL_CONFIG_FILE: file });
    assert.equal(config.brand, 'DevPlatform');
    assert.equal(config.cac_support, false);
    assert.equal(config.css_theme, 'dark');
    assert.equal(config.supported_services, 'jira,artifacts');
    assert.equal(config.artifacts_token_default_expiry, 30);
    assert.equal(config.wiki_url, 'https://wiki.example.test/');
    assert.equal(config.show_login_agreement, true, 'keys absent from the file keep their default');
  });

  test('a relative PORTAL_CONFIG_FILE is found from the working directory', () => {
    const file = configFile({ brand: 'Relative' });
    assert.equal(portal({ PORTAL_CONFIG_FILE: file.slice(dir.length + 1) }).brand, 'Relative');
  });

  test('environment variables override the file', () => {
    const file = configFile({ brand: 'From file', cac_support: false, artifacts_token_max_expiry: 90 });
    const config = portal({
      PORTAL_CONFIG_FILE: file,
      PORTAL_BRAND: 'From env',
      PORTAL_CAC_SUPPORT: 'yes',
      PORTAL_SUPPORTED_SERVICES: 'bitbucket,sonarqube',
      PORTAL_ARTIFACTS_TOKEN_MAX_EXPIRY: '365',
    });
    assert.equal(config.brand, 'From env');
    assert.equal(config.cac_support, true);
    assert.equal(config.supported_services, 'bitbucket,sonarqube');
    assert.equal(config.artifacts_token_max_expiry, 365);
  });

  test('every boolean spelling is accepted from the environment', () => {
    for (const [text, value] of [['true', true], ['1', true], ['YES', true], ['false', false], ['0', false], ['no', false]] as const) {
      assert.equal(portal({ PORTAL_SHOW_LOGIN_AGREEMENT: text }).show_login_agreement, value, text);
    }
  });

  test('the revocable threshold is in hours, the maximum in days', () => {
    const config = portal({ PORTAL_ARTIFACTS_TOKEN_MAX_EXPIRY: '7', PORTAL_ARTIFACTS_TOKEN_DEFAULT_EXPIRY: '7', PORTAL_ARTIFACTS_TOKEN_REVOCABLE_EXPIRY: '24' });
    assert.equal(config.artifacts_token_revocable_expiry, 24);
  });

  test('an empty environment variable counts as unset', () => {
    assert.equal(portal({ PORTAL_BRAND: '', PORTAL_CAC_SUPPORT: ' ' }).brand, 'undefined');
  });

  test('every key has the environment variable PORTAL_<KEY>', () => {
    assert.equal(envVarFor('auto_cert_registration_approval'), 'PORTAL_AUTO_CERT_REGISTRATION_APPROVAL');
    assert.equal(portal({ PORTAL_AUTO_CERT_REGISTRATION_APPROVAL: 'no' }).auto_cert_registration_approval, false);
    assert.equal(portal({ PORTAL_LOGIN_LOGO_FILENAME: 'logo.svg' }).login_logo_filename, 'logo.svg');
    assert.equal(portal({ PORTAL_ARTIFACTS_PROFILE_URL: 'http://artifacts.example.test/profile' }).artifacts_profile_url, 'http://artifacts.example.test/profile');
    assert.equal(portal({ PORTAL_SERVICE_ORIGINS: ' Jira=https://JIRA.example.test/ignored/path , bitbucket=https://code.example.test:8443' }).service_origins, 'jira=https://jira.example.test,bitbucket=https://code.example.test:8443');
    assert.deepEqual(problemsOf(() => portal({ PORTAL_SERVICE_ORIGINS: 'jira=ftp://x.test,wiki' })), [
      "service_origins: 'jira=ftp://x.test' is not service=origin with a known service and an http(s) address; 'wiki' is not service=origin with a known service and an http(s) address (from PORTAL_SERVICE_ORIGINS)",
    ]);
    assert.equal(portal({}).login_help_url, 'undefined');
    assert.equal(portal({ PORTAL_LOGIN_HELP_URL: 'https://help.example.test/sign-in' }).login_help_url, 'https://help.example.test/sign-in');
  });

  describe('bad values give a ConfigError naming the key', () => {
    const cases: [string, Env, string][] = [
      ['boolean (env)', { PORTAL_CAC_SUPPORT: 'maybe' }, "cac_support: 'maybe' is not a boolean; use true, false, 1, 0, yes or no (from PORTAL_CAC_SUPPORT)"],
      ['unknown service', { PORTAL_SUPPORTED_SERVICES: 'jira,gitlab' }, "supported_services: unknown service 'gitlab' (known: artifacts, bitbucket, confluence, jenkins, jira, jsm, sonarqube, repository) (from PORTAL_SUPPORTED_SERVICES)"],
      ['theme', { PORTAL_CSS_THEME: 'blue' }, "css_theme: 'blue' is not a theme (known: light, dark, undefined) (from PORTAL_CSS_THEME)"],
      ['expiry zero', { PORTAL_ARTIFACTS_TOKEN_MAX_EXPIRY: '0' }, "artifacts_token_max_expiry: '0' is not a whole number of at least 1 (from PORTAL_ARTIFACTS_TOKEN_MAX_EXPIRY)"],
      ['expiry fraction', { PORTAL_ARTIFACTS_TOKEN_DEFAULT_EXPIRY: '1.5' }, "artifacts_token_default_expiry: '1.5' is not a whole number of at least 1 (from PORTAL_ARTIFACTS_TOKEN_DEFAULT_EXPIRY)"],
      ['expiry text', { PORTAL_ARTIFACTS_TOKEN_REVOCABLE_EXPIRY: 'soon' }, "artifacts_token_revocable_expiry: 'soon' is not a whole number of at least 1 (from PORTAL_ARTIFACTS_TOKEN_REVOCABLE_EXPIRY)"],
      ['default above max', { PORTAL_ARTIFACTS_TOKEN_DEFAULT_EXPIRY: '200' }, 'artifacts_token_default_expiry: 200 is more than artifacts_token_max_expiry (180)'],
      ['revocable (hours) above max (days)', { PORTAL_ARTIFACTS_TOKEN_MAX_EXPIRY: '10', PORTAL_ARTIFACTS_TOKEN_DEFAULT_EXPIRY: '5', PORTAL_ARTIFACTS_TOKEN_REVOCABLE_EXPIRY: '241' }, 'artifacts_token_revocable_expiry: 241 hours is longer than artifacts_token_max_expiry (10 days = 240 hours)'],
      ['url', { PORTAL_WIKI_URL: 'wiki.example.test' }, "wiki_url: 'wiki.example.test' is not a URL; give an http(s) URL or 'undefined' (from PORTAL_WIKI_URL)"],
      ['help url', { PORTAL_LOGIN_HELP_URL: 'help.example.test' }, "login_help_url: 'help.example.test' is not a URL; give an http(s) URL or 'undefined' (from PORTAL_LOGIN_HELP_URL)"],
      ['url scheme', { PORTAL_ARTIFACTS_PROFILE_URL: 'ftp://example.test/' }, "artifacts_profile_url: 'ftp://example.test/' is not an http(s) URL; give an http(s) URL or 'undefined' (from PORTAL_ARTIFACTS_PROFILE_URL)"],
    ];
    for (const [name, env, problem] of cases) {
      test(name, () => assert.deepEqual(problemsOf(() => portal(env)), [problem]));
    }

    test('wrong JSON types in the file', () => {
      const file = configFile({
        cac_support: 'true',
        brand: 42,
        artifacts_token_max_expiry: '180',
        artifacts_token_default_expiry: 2.5,
        supported_services: ['jira'],
      });
      assert.deepEqual(problemsOf(() => portal({ PORTAL_CONFIG_FILE: file })), [
        `cac_support: 'true' is not a boolean; use true or false (in ${file})`,
        `brand: 42 is not a string (in ${file})`,
        `artifacts_token_max_expiry: '180' is not a whole number of at least 1 (in ${file})`,
        `artifacts_token_default_expiry: 2.5 is not a whole number of at least 1 (in ${file})`,
        `supported_services: ["jira"] is not a string (in ${file})`,
      ]);
    });
  });

  test('an invalid maximum is reported once, not also against the other expiries', () => {
    assert.deepEqual(problemsOf(() => portal({ PORTAL_ARTIFACTS_TOKEN_MAX_EXPIRY: '0', PORTAL_ARTIFACTS_TOKEN_DEFAULT_EXPIRY: '200' })), [
      "artifacts_token_max_expiry: '0' is not a whole number of at least 1 (from PORTAL_ARTIFACTS_TOKEN_MAX_EXPIRY)",
    ]);
  });

  test('an unknown key in the file is rejected', () => {
    const file = configFile({ brand: 'x', cac_suport: true });
    const problems = problemsOf(() => portal({ PORTAL_CONFIG_FILE: file }));
    assert.equal(problems.length, 1);
    assert.match(problems[0] ?? '', new RegExp(`^cac_suport: unknown key in ${file} \\(known: cac_support, `));
  });

  test('a missing file named explicitly is an error', () => {
    const file = join(dir, 'nope.json');
    assert.deepEqual(problemsOf(() => portal({ PORTAL_CONFIG_FILE: file })), [`PORTAL_CONFIG_FILE: ${file} does not exist`]);
  });

  test('a file that is not JSON, or not an object, is an error', () => {
    const broken = configFile('{ "brand": ');
    assert.match(problemsOf(() => portal({ PORTAL_CONFIG_FILE: broken }))[0] ?? '', /^PORTAL_CONFIG_FILE: .* is not valid JSON \(/);
    const list = configFile([1, 2]);
    assert.deepEqual(problemsOf(() => portal({ PORTAL_CONFIG_FILE: list })), [
      `PORTAL_CONFIG_FILE: ${list} must hold a JSON object of configuration keys`,
    ]);
  });

  test('all problems are reported together, file and environment alike', () => {
    const file = configFile({ css_theme: 'neon', gitlab_url: 'x' });
    const problems = problemsOf(() =>
      portal({ PORTAL_CONFIG_FILE: file, PORTAL_CAC_SUPPORT: 'maybe', PORTAL_SUPPORTED_SERVICES: 'gitlab' }),
    );
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      ['css_theme', 'gitlab_url', 'cac_support', 'supported_services'],
    );
  });
});

describe('server settings', () => {
  const server = (env: Env) => loadServerSettings({ env, cwd: dir });

  test('defaults', () => {
    assert.deepEqual(server({}), {
      port: 8080,
      host: 'localhost',
      databaseUrl: undefined,
      dataDir: join(dir, 'data'),
      environment: 'local',
      environmentManifest: join(SERVER_DIR, 'environments', 'local.json'),
      hostDir: join(REPO_DIR, 'host', 'dist'),
      remotesDir: undefined,
      devRemotes: {},
      nodeEnv: 'development',
      seedDemo: true,
      logLevel: 'info',
      loginMaxFailures: 5,
      challengeSecret: undefined,
      challengeCost: 5000,
      sessionIdleMinutes: 30,
      sessionAbsoluteHours: 12,
      tlsCert: undefined,
      tlsKey: undefined,
      tlsClientCa: undefined,
      trustedProxies: [],
      rateLimits: {
        'sign-in': { max: 30, windowSeconds: 60 },
        challenge: { max: 60, windowSeconds: 60 },
        'session-start': { max: 120, windowSeconds: 60 },
        'verification-mail': { max: 30, windowSeconds: 3600 },
        'account-request': { max: 20, windowSeconds: 3600 },
        'status-check': { max: 60, windowSeconds: 600 },
        unlock: { max: 20, windowSeconds: 3600 },
        'token-reset': { max: 20, windowSeconds: 3600 },
        'cac-registration': { max: 20, windowSeconds: 3600 },
        'oidc-token': { max: 600, windowSeconds: 60 },
      },
      sessionRateLimit: { max: 600, windowSeconds: 60 },
      smtpUrl: undefined,
      mailFrom: undefined,
      mailPollMs: 2000,
      personalEmailDomains: DEFAULT_PERSONAL_EMAIL_DOMAINS,
      publicUrl: undefined,
      cookieDomain: undefined,
      tokenIssuer: 'embedded',
      artifactoryUrl: undefined,
      artifactoryAdminToken: undefined,
      tokenMaintenanceMs: 60_000,
      listSmtpHost: '127.0.0.1',
      listSmtpPort: 2525,
      listMaxMessageBytes: 1_048_576,
      listEngine: 'embedded',
      mailmanUrl: undefined,
      mailmanUser: undefined,
      mailmanPassword: undefined,
      ldapUrl: undefined,
      ldapBindDn: undefined,
      ldapBindPassword: undefined,
      ldapBindPasswordFile: undefined,
      ldapBaseDn: undefined,
      ldapPrune: false,
      scimTargets: [],
      provisioningReconcileMinutes: 10,
      provisioningHistoryDays: 30,
      purgeIntervalMs: 600_000,
      loginFailureRetentionHours: 24,
      lockedIdentifierRetentionDays: 0,
      verificationCodeRetentionHours: 24,
      sentMailRetentionDays: 30,
    });
    assert.ok(DEFAULT_PERSONAL_EMAIL_DOMAINS.includes('gmail.com'));
  });

  test('visitor settings: personal email domains and the public URL', () => {
    const settings = server({ PORTAL_PERSONAL_EMAIL_DOMAINS: ' Gmail.com, @example.org,,gmail.com ', PORTAL_PUBLIC_URL: 'https://Portal.Example.test/accounts/' });
    assert.deepEqual(settings.personalEmailDomains, ['gmail.com', 'example.org']);
    assert.equal(settings.publicUrl, 'https://portal.example.test/accounts');
    assert.deepEqual(server({ PORTAL_PERSONAL_EMAIL_DOMAINS: 'none' }).personalEmailDomains, []);
    assert.deepEqual(server({ PORTAL_PERSONAL_EMAIL_DOMAINS: '' }).personalEmailDomains, DEFAULT_PERSONAL_EMAIL_DOMAINS);
    assert.equal(server({ PORTAL_PUBLIC_URL: 'http://localhost:8080' }).publicUrl, 'http://localhost:8080');
    assert.deepEqual(problemsOf(() => server({ PORTAL_PERSONAL_EMAIL_DOMAINS: 'gmail.com, not a domain', PORTAL_PUBLIC_URL: 'ftp://portal.example.test' })), [
      "PORTAL_PERSONAL_EMAIL_DOMAINS: 'not a domain' is not a domain name (e.g. gmail.com; 'none' for no list)",
      "PORTAL_PUBLIC_URL: 'ftp://portal.example.test' is not an http(s) address without query or fragment, e.g. https://portal.example.test",
    ]);
    assert.equal(problemsOf(() => server({ PORTAL_PUBLIC_URL: 'https://portal.example.test/?x=1' })).length, 1);
    assert.deepEqual(loadSettings({ env: { PORTAL_PUBLIC_URL: 'https://portal.example.test', PORTAL_PERSONAL_EMAIL_DOMAINS: 'none' }, cwd: dir }).warnings, []);
  });

  test("the session cookie's domain: a parent domain of PORTAL_PUBLIC_URL's host, refused at start otherwise", () => {
    const portalAt = (url: string, domain: string) => server({ PORTAL_PUBLIC_URL: url, PORTAL_COOKIE_DOMAIN: domain });
    assert.equal(portalAt('https://portal.example.test', ' .Example.TEST ').cookieDomain, 'example.test');
    assert.equal(portalAt('https://accounts.platform.example.test/portal', 'platform.example.test').cookieDomain, 'platform.example.test');
    assert.equal(portalAt('https://example.test', 'example.test').cookieDomain, 'example.test', 'the host itself');
    assert.equal(server({}).cookieDomain, undefined);
    assert.deepEqual(problemsOf(() => server({ PORTAL_COOKIE_DOMAIN: 'example.test' })), [
      "PORTAL_COOKIE_DOMAIN: needs PORTAL_PUBLIC_URL (the portal's address, whose host must be inside example.test)",
    ]);
    assert.deepEqual(problemsOf(() => portalAt('https://portal.example.test', 'other.test')), [
      'PORTAL_COOKIE_DOMAIN: the portal\'s host portal.example.test (PORTAL_PUBLIC_URL) is not inside other.test, so its session cookie could not be set there',
    ]);
    assert.equal(problemsOf(() => portalAt('https://portal.notexample.test', 'example.test')).length, 1, 'a suffix that is not a whole label');
    for (const domain of ['localhost', 'example..test', '10.0.0.1', 'exa mple.test', 'http://example.test', '*.example.test']) {
      assert.deepEqual(
        problemsOf(() => portalAt('https://portal.example.test', domain)),
        [`PORTAL_COOKIE_DOMAIN: '${domain}' is not a domain name, e.g. example.test (the parent domain of the portal's host and the services' hosts)`],
        domain,
      );
    }
  });

  test('token issuer settings: artifactory needs its address and admin token, never echoed', () => {
    const settings = server({ PORTAL_TOKEN_ISSUER: 'artifactory', ARTIFACTORY_URL: 'https://artifacts.example.test/', ARTIFACTORY_ADMIN_TOKEN: ' s3cret-admin ' });
    assert.equal(settings.tokenIssuer, 'artifactory');
    assert.equal(settings.artifactoryUrl, 'https://artifacts.example.test');
    assert.equal(settings.artifactoryAdminToken, 's3cret-admin');
    assert.deepEqual(problemsOf(() => server({ PORTAL_TOKEN_ISSUER: 'artifactory' })), [
      'PORTAL_TOKEN_ISSUER=artifactory needs ARTIFACTORY_URL and ARTIFACTORY_ADMIN_TOKEN',
    ]);
    const problems = problemsOf(() => server({ PORTAL_TOKEN_ISSUER: 'keycloak', ARTIFACTORY_URL: 'ftp://x.test', ARTIFACTORY_ADMIN_TOKEN: 'hunter2', PORTAL_TOKEN_MAINTENANCE_MS: '5' }));
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems[0]!, /^PORTAL_TOKEN_ISSUER: 'keycloak' is not a token issuer/);
    assert.ok(!problems.join('\n').includes('hunter2'), 'the admin token is never echoed');
  });

  test('list engine settings: mailman needs its REST address, user and password, never echoed', () => {
    const settings = server({ PORTAL_LIST_ENGINE: 'mailman', PORTAL_MAILMAN_URL: 'http://127.0.0.1:8001/', PORTAL_MAILMAN_USER: ' restadmin ', PORTAL_MAILMAN_PASSWORD: ' s3cret ' });
    assert.deepEqual(
      [settings.listEngine, settings.mailmanUrl, settings.mailmanUser, settings.mailmanPassword],
      ['mailman', 'http://127.0.0.1:8001', 'restadmin', 's3cret'],
    );
    assert.deepEqual(problemsOf(() => server({ PORTAL_LIST_ENGINE: 'mailman', PORTAL_MAILMAN_URL: 'http://127.0.0.1:8001' })), [
      'PORTAL_LIST_ENGINE=mailman needs PORTAL_MAILMAN_URL, PORTAL_MAILMAN_USER and PORTAL_MAILMAN_PASSWORD',
    ]);
    const problems = problemsOf(() => server({ PORTAL_LIST_ENGINE: 'listserv', PORTAL_MAILMAN_URL: 'ftp://x.test', PORTAL_MAILMAN_PASSWORD: 'hunter2' }));
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.equal(problems[0], "PORTAL_LIST_ENGINE: 'listserv' is not a list engine (known: embedded, mailman)");
    assert.ok(!problems.join('\n').includes('hunter2'), 'the password is never echoed');
  });

  test('directory settings: an ldap:// or ldaps:// address needs its bind DN, one password and a base; the password is never echoed', () => {
    const full = { PORTAL_LDAP_URL: ' ldaps://ldap.example.test:636 ', PORTAL_LDAP_BIND_DN: 'cn=portal,dc=example,dc=test', PORTAL_LDAP_BIND_PASSWORD: 'hunter2', PORTAL_LDAP_BASE_DN: 'dc=example,dc=test' };
    const settings = server({ ...full, PORTAL_LDAP_PRUNE: 'yes', PORTAL_PROVISIONING_RECONCILE_MINUTES: '5' });
    assert.deepEqual(
      [settings.ldapUrl, settings.ldapBindDn, settings.ldapBindPassword, settings.ldapBaseDn, settings.ldapPrune, settings.provisioningReconcileMinutes],
      ['ldaps://ldap.example.test:636', 'cn=portal,dc=example,dc=test', 'hunter2', 'dc=example,dc=test', true, 5],
    );
    assert.deepEqual(problemsOf(() => server({ PORTAL_LDAP_URL: 'ldap://ldap.example.test' })), [
      'PORTAL_LDAP_URL needs PORTAL_LDAP_BIND_DN, PORTAL_LDAP_BIND_PASSWORD (or PORTAL_LDAP_BIND_PASSWORD_FILE) and PORTAL_LDAP_BASE_DN',
    ]);
    assert.deepEqual(problemsOf(() => server({ ...full, PORTAL_LDAP_BIND_PASSWORD_FILE: '/run/secrets/ldap' })), [
      'PORTAL_LDAP_BIND_PASSWORD and PORTAL_LDAP_BIND_PASSWORD_FILE: set one of them, not both',
    ]);
    const problems = problemsOf(() => server({ ...full, PORTAL_LDAP_URL: 'http://ldap.example.test', PORTAL_PROVISIONING_RECONCILE_MINUTES: '0' }));
    assert.deepEqual(problems, [
      "PORTAL_LDAP_URL: 'http://ldap.example.test' is not an LDAP address; use ldap://host:port or ldaps://host:port",
      "PORTAL_PROVISIONING_RECONCILE_MINUTES: '0' is not a whole number from 1 to 1440",
    ]);
    assert.ok(!problems.join('\n').includes('hunter2'), 'the password is never echoed');
  });

  test('SCIM settings: a JSON array of named targets, each with an http(s) address and a token or a token file; no token is ever echoed', () => {
    const targets = [
      { name: 'artifactory', url: ' https://artifactory.example.test/access/api/v1/scim/v2/ ', token: ' secret-token-1 ' },
      { name: 'sonar.qube', url: 'http://sonar.example.test/api/scim/v2', tokenFile: 'secrets/sonar' },
    ];
    assert.deepEqual(server({ PORTAL_SCIM_TARGETS: JSON.stringify(targets) }).scimTargets, [
      { name: 'artifactory', url: 'https://artifactory.example.test/access/api/v1/scim/v2', token: 'secret-token-1', tokenFile: undefined },
      { name: 'sonar.qube', url: 'http://sonar.example.test/api/scim/v2', token: undefined, tokenFile: join(dir, 'secrets', 'sonar') },
    ]);
    assert.deepEqual(server({ PORTAL_SCIM_TARGETS: '[]' }).scimTargets, []);
    const bad = [
      { name: 'gitlab', url: 'ftp://gitlab.example.test/scim', token: 'secret-token-2' },
      { name: 'gitlab', url: 'https://gitlab.example.test/api/scim/v2', token: 'secret-token-3', tokenFile: '/run/secrets/gitlab' },
      { url: 'https://x.example.test/scim/v2', token: 'secret-token-4' },
      { name: 'nothing', url: 'https://user:secret-token-5@x.example.test/scim/v2' },
      { name: 'typo', tokn: 'secret-token-6', token: 'secret-token-7' },
      'artifactory',
    ];
    const problems = problemsOf(() => server({ PORTAL_SCIM_TARGETS: JSON.stringify(bad) }));
    assert.deepEqual(problems, [
      "PORTAL_SCIM_TARGETS: entry 'gitlab': url 'ftp://gitlab.example.test/scim' is not an http(s) address",
      "PORTAL_SCIM_TARGETS: entry 'gitlab': give token or tokenFile, not both",
      "PORTAL_SCIM_TARGETS: entries 1 and 2 are both named 'gitlab'; each target needs a name of its own",
      'PORTAL_SCIM_TARGETS: entry 3: name is missing (letters, digits, \'.\', \'-\' and \'_\', e.g. "artifactory")',
      "PORTAL_SCIM_TARGETS: entry 'nothing': url must hold no user, password, query or fragment (the token goes in token or tokenFile)",
      "PORTAL_SCIM_TARGETS: entry 'nothing': give its bearer token (token) or a file holding it (tokenFile)",
      "PORTAL_SCIM_TARGETS: entry 'typo': unknown key 'tokn' (known: name, url, token, tokenFile)",
      'PORTAL_SCIM_TARGETS: entry \'typo\': url is missing (the SCIM base address, e.g. https://artifactory.example.test/access/api/v1/scim/v2)',
      'PORTAL_SCIM_TARGETS: entry 6 is not an object with name, url and token or tokenFile',
    ]);
    assert.ok(!problems.join('\n').includes('secret-token'), 'no token is echoed');
    const broken = problemsOf(() => server({ PORTAL_SCIM_TARGETS: '[{"name":"a","token":"secret-token-8",}]' }));
    assert.deepEqual(broken, [
      'PORTAL_SCIM_TARGETS: is not valid JSON (at position 38); give an array such as [{"name":"artifactory","url":"https://artifactory.example.test/access/api/v1/scim/v2","tokenFile":"/run/secrets/scim"}]',
    ]);
    assert.deepEqual(problemsOf(() => server({ PORTAL_SCIM_TARGETS: '{"name":"a"}' })), [
      'PORTAL_SCIM_TARGETS: must be a JSON array of targets, such as [{"name":"artifactory","url":"https://artifactory.example.test/access/api/v1/scim/v2","tokenFile":"/run/secrets/scim"}]',
    ]);
  });

  test('mail settings', () => {
    const settings = server({ SMTP_URL: ' smtp://user:p%40ss@mail.example.test:2525 ', MAIL_FROM: 'portal@example.test', PORTAL_MAIL_POLL_MS: '500' });
    assert.equal(settings.smtpUrl, 'smtp://user:p%40ss@mail.example.test:2525');
    assert.equal(settings.mailFrom, 'portal@example.test');
    assert.equal(settings.mailPollMs, 500);
    assert.equal(server({ SMTP_URL: 'smtps://mail.example.test' }).smtpUrl, 'smtps://mail.example.test');
    const problems = problemsOf(() => server({ SMTP_URL: 'http://user:hunter2@mail.example.test', MAIL_FROM: 'a@b.test, c@d.test', PORTAL_MAIL_POLL_MS: '0' }));
    assert.deepEqual(problems, [
      'SMTP_URL: must be an smtp:// or smtps:// URL with a host, e.g. smtp://mail.example.test:587 (unset it to keep mail in the outbox)',
      "MAIL_FROM: 'a@b.test, c@d.test' is not one email address",
      "PORTAL_MAIL_POLL_MS: '0' is not a whole number from 1 to 3600000",
    ]);
    assert.ok(!problems.join('\n').includes('hunter2'), 'the password of SMTP_URL is never echoed');
    assert.deepEqual(problemsOf(() => server({ SMTP_URL: 'not a url' })).length, 1);
    assert.deepEqual(problemsOf(() => server({ MAIL_FROM: 'a@b.test\r\nBcc: x@y.test' })), ["MAIL_FROM: 'a@b.test  Bcc: x@y.test' is not one email address"]);
  });

  test('sign-in, session, challenge, TLS and proxy settings', () => {
    const settings = server({
      PORTAL_LOGIN_MAX_FAILURES: '3',
      PORTAL_CHALLENGE_SECRET: 'a-secret-of-at-least-32-characters!!',
      PORTAL_CHALLENGE_COST: '10',
      PORTAL_SESSION_IDLE_MINUTES: '15',
      PORTAL_SESSION_ABSOLUTE_HOURS: '8',
      PORTAL_TLS_CERT: 'tls/cert.pem',
      PORTAL_TLS_KEY: '/etc/portal/key.pem',
      PORTAL_TLS_CLIENT_CA: 'tls/ca.pem',
      PORTAL_TRUSTED_PROXIES: '10.0.0.5, ::FFFF:10.0.0.6,fd00::1',
    });
    assert.equal(settings.loginMaxFailures, 3);
    assert.equal(settings.challengeSecret, 'a-secret-of-at-least-32-characters!!');
    assert.equal(settings.challengeCost, 10);
    assert.equal(settings.sessionIdleMinutes, 15);
    assert.equal(settings.sessionAbsoluteHours, 8);
    assert.equal(settings.tlsCert, join(dir, 'tls', 'cert.pem'));
    assert.equal(settings.tlsKey, '/etc/portal/key.pem');
    assert.equal(settings.tlsClientCa, join(dir, 'tls', 'ca.pem'));
    assert.deepEqual(settings.trustedProxies, ['10.0.0.5', '10.0.0.6', 'fd00::1']);
  });

  test('rate limits: some changed, one off; the session limit off; wrong ones named', () => {
    const settings = server({ PORTAL_RATE_LIMITS: 'sign-in=10/60,unlock=off', PORTAL_SESSION_RATE_LIMIT: 'off' });
    assert.deepEqual(settings.rateLimits['sign-in'], { max: 10, windowSeconds: 60 });
    assert.equal(settings.rateLimits.unlock, undefined);
    assert.deepEqual(settings.rateLimits.challenge, { max: 60, windowSeconds: 60 });
    assert.equal(settings.sessionRateLimit, undefined);
    assert.deepEqual(server({ PORTAL_RATE_LIMITS: 'off', PORTAL_SESSION_RATE_LIMIT: '100/10' }).rateLimits, {});
    assert.deepEqual(server({ PORTAL_SESSION_RATE_LIMIT: '100/10' }).sessionRateLimit, { max: 100, windowSeconds: 10 });
    assert.deepEqual(problemsOf(() => server({ PORTAL_RATE_LIMITS: 'login=5/60', PORTAL_SESSION_RATE_LIMIT: 'many' })), [
      "PORTAL_RATE_LIMITS: 'login' is not a rate limit (the limits: sign-in, challenge, session-start, verification-mail, account-request, status-check, unlock, token-reset, cac-registration, oidc-token; or 'off' for none)",
      "PORTAL_SESSION_RATE_LIMIT: 'many' is not a limit: write calls/seconds, e.g. 30/60 (at least 1 call, a window of 1 to 86400 seconds)",
    ]);
  });

  test('bad sign-in, session, TLS and proxy settings name their variable', () => {
    const problems = problemsOf(() =>
      server({
        PORTAL_LOGIN_MAX_FAILURES: '0',
        PORTAL_CHALLENGE_SECRET: 'short',
        PORTAL_CHALLENGE_COST: 'cheap',
        PORTAL_SESSION_IDLE_MINUTES: '-1',
        PORTAL_TLS_KEY: 'key.pem',
        PORTAL_TRUSTED_PROXIES: '10.0.0.5,proxy.example.test',
      }),
    );
    assert.deepEqual(problems, [
      'PORTAL_TLS_CERT, PORTAL_TLS_KEY: set both (HTTPS) or neither (HTTP)',
      'PORTAL_CHALLENGE_SECRET: must be at least 32 characters long (or unset, for a generated one)',
      "PORTAL_LOGIN_MAX_FAILURES: '0' is not a whole number from 1 to 1000",
      "PORTAL_CHALLENGE_COST: 'cheap' is not a whole number from 1 to 10000000",
      "PORTAL_SESSION_IDLE_MINUTES: '-1' is not a whole number from 1 to 43200",
      "PORTAL_TRUSTED_PROXIES: 'proxy.example.test' is not an IP address",
    ]);
  });

  test('the server package and repository directories are found from the source', () => {
    assert.equal(SERVER_DIR, join(REPO_DIR, 'server'));
  });

  test('values from the environment, relative paths resolved from the working directory', () => {
    const settings = server({
      PORT: '9090',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://portal@db.example.test:5432/portal',
      PORTAL_DATA_DIR: 'var/db',
      PORTAL_ENVIRONMENT: 'staging',
      PORTAL_HOST_DIR: '/srv/host',
      PORTAL_REMOTES_DIR: 'remotes',
      PORTAL_DEV_REMOTES: 'groups=http://localhost:3102/mf-manifest.json, tokens=/dev/tokens/mf-manifest.json',
      NODE_ENV: 'production',
      LOG_LEVEL: 'WARN',
    });
    assert.equal(settings.port, 9090);
    assert.equal(settings.host, '0.0.0.0');
    assert.equal(settings.databaseUrl, 'postgresql://portal@db.example.test:5432/portal');
    assert.equal(settings.dataDir, join(dir, 'var', 'db'));
    assert.equal(settings.environmentManifest, join(SERVER_DIR, 'environments', 'staging.json'));
    assert.equal(settings.hostDir, '/srv/host');
    assert.equal(settings.remotesDir, join(dir, 'remotes'));
    assert.deepEqual(settings.devRemotes, {
      groups: 'http://localhost:3102/mf-manifest.json',
      tokens: '/dev/tokens/mf-manifest.json',
    });
    assert.equal(settings.seedDemo, false);
    assert.equal(settings.logLevel, 'warn');
  });

  test('demo data: by default only for the embedded database outside production; PORTAL_SEED_DEMO decides otherwise', () => {
    assert.equal(server({}).seedDemo, true);
    assert.equal(server({ NODE_ENV: 'production' }).seedDemo, false);
    assert.equal(server({ DATABASE_URL: 'postgres://localhost/portal' }).seedDemo, false);
    assert.equal(server({ DATABASE_URL: 'postgres://localhost/portal', PORTAL_SEED_DEMO: 'true' }).seedDemo, true);
    assert.equal(server({ PORTAL_SEED_DEMO: '0' }).seedDemo, false);
  });

  test('bad values name the variable, never echoing a database URL', () => {
    const problems = problemsOf(() =>
      server({
        PORT: '80a',
        DATABASE_URL: 'mysql://root:secret@db/portal',
        PORTAL_ENVIRONMENT: '../etc',
        PORTAL_DEV_REMOTES: 'groups=localhost:3102,bad-name=http://x.test/',
        PORTAL_SEED_DEMO: 'sometimes',
        LOG_LEVEL: 'loud',
      }),
    );
    assert.deepEqual(problems, [
      'DATABASE_URL: must be a postgres:// or postgresql:// URL (unset it to use the embedded database)',
      "PORTAL_ENVIRONMENT: '../etc' is not an environment name (letters, digits, - and _)",
      "LOG_LEVEL: 'loud' is not a log level (known: fatal, error, warn, info, debug, trace, silent)",
      "PORTAL_SEED_DEMO: 'sometimes' is not a boolean; use true, false, 1, 0, yes or no",
      "PORT: '80a' is not a port number (0 to 65535)",
      "PORTAL_DEV_REMOTES: the entry of 'groups' must be an http(s) URL or a path starting with /",
      "PORTAL_DEV_REMOTES: 'bad-name' is not a remote name (expected name=url, e.g. groups=http://localhost:3102/remoteEntry.js)",
    ]);
    assert.ok(!problems.join('\n').includes('secret'));
  });

  test('a port above 65535 is refused', () => {
    assert.deepEqual(problemsOf(() => server({ PORT: '70000' })), ["PORT: '70000' is not a port number (0 to 65535)"]);
  });
});

describe('loadSettings', () => {
  test('reports the problems of the configuration and of the server settings together', () => {
    const problems = problemsOf(() => loadSettings({ env: { PORTAL_CAC_SUPPORT: 'maybe', PORT: 'x' }, cwd: dir }));
    assert.deepEqual(problems.map((p) => p.split(':')[0]), ['cac_support', 'PORT']);
  });

  test('warns about PORTAL_ variables it does not know', () => {
    const settings = loadSettings({ env: { PORTAL_CAC_SUPORT: 'true', PORTAL_BRAND: 'x' }, cwd: dir });
    assert.deepEqual(settings.warnings, ['PORTAL_CAC_SUPORT is not a setting of the server; it is ignored']);
    assert.equal(settings.portal.brand, 'x');
  });
});
