import { CONFIGURATION_KEYS, contactAddress, DEFAULT_CONFIGURATION, loginHelpUrl, supportedServices } from './config';

describe('configuration', () => {
  it('defaults to what spec section 8 says', () => {
    expect(DEFAULT_CONFIGURATION).toEqual({
      cac_support: true,
      auto_cert_registration_approval: true,
      brand: 'undefined',
      email_domain: 'undefined',
      css_theme: 'undefined',
      wiki_url: 'undefined',
      login_logo_filename: 'undefined',
      show_login_agreement: true,
      login_agreement_filename: 'undefined',
      supported_services: '',
      artifacts_token_max_expiry: 180,
      artifacts_token_default_expiry: 180,
      artifacts_token_revocable_expiry: 1,
      artifacts_profile_url: 'undefined',
      bitbucket_url: 'undefined',
      jira_url: 'undefined',
      login_help_url: 'undefined',
      service_origins: '',
    });
    // The spec's 14, and the portal's own bitbucket_url, jira_url, login_help_url and service_origins.
    expect(CONFIGURATION_KEYS).toHaveLength(18);
  });

  it('sends Login help to login_help_url, else to the wiki\'s login help page, else nowhere, never the wiki\'s home page', () => {
    expect(loginHelpUrl({ login_help_url: 'https://help.example.test/sign-in', wiki_url: 'https://wiki.example.test/' })).toBe('https://help.example.test/sign-in');
    expect(loginHelpUrl({ login_help_url: 'undefined', wiki_url: 'https://wiki.example.test/' })).toBe('https://wiki.example.test/display/WEB/Login+Help');
    expect(loginHelpUrl({ login_help_url: 'undefined', wiki_url: 'undefined' })).toBeUndefined();
  });

  it('reads supported services from the comma-separated list', () => {
    expect(supportedServices({ supported_services: ' jira, artifacts,,JIRA, gitlab ' })).toEqual(['jira', 'artifacts']);
    expect(supportedServices({ supported_services: '' })).toEqual([]);
  });

  it("gives the help address as 'web' at the email domain", () => {
    expect(contactAddress({ email_domain: 'example.test' })).toBe('web@example.test');
  });
});
