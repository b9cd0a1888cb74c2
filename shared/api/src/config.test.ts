import { CONFIGURATION_KEYS, contactAddress, DEFAULT_CONFIGURATION, supportedServices } from './config';

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
    });
    expect(CONFIGURATION_KEYS).toHaveLength(14);
  });

  it('reads supported services from the comma-separated list', () => {
    expect(supportedServices({ supported_services: ' jira, artifacts,,JIRA, gitlab ' })).toEqual(['jira', 'artifacts']);
    expect(supportedServices({ supported_services: '' })).toEqual([]);
  });

  it("gives the help address as 'web' at the email domain", () => {
    expect(contactAddress({ email_domain: 'example.test' })).toBe('web@example.test');
  });
});
