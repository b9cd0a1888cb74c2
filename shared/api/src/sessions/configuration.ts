/** GET /configuration (spec section 7): the portal configuration of spec section 3, public. */
import { Type } from 'typebox';
import { closed } from '../common.js';
import { CSS_THEMES } from '../config.js';
import { defineEndpoint } from '../endpoint.js';

export const ConfigurationBody = Type.Object(
  {
    cac_support: Type.Boolean(),
    auto_cert_registration_approval: Type.Boolean(),
    brand: Type.String(),
    email_domain: Type.String(),
    css_theme: Type.Enum(CSS_THEMES),
    wiki_url: Type.String(),
    login_logo_filename: Type.String(),
    show_login_agreement: Type.Boolean(),
    login_agreement_filename: Type.String(),
    supported_services: Type.String(),
    artifacts_token_max_expiry: Type.Integer(),
    artifacts_token_default_expiry: Type.Integer(),
    artifacts_token_revocable_expiry: Type.Integer(),
    artifacts_profile_url: Type.String(),
    bitbucket_url: Type.String(),
    jira_url: Type.String(),
    login_help_url: Type.String(),
    service_origins: Type.String(),
  },
  closed,
);

export const getConfiguration = defineEndpoint({
  method: 'GET',
  path: '/configuration',
  access: 'public',
  xsrf: false,
  summary: 'The portal configuration (spec section 3)',
  response: ConfigurationBody,
});
