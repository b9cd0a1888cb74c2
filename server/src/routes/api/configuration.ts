/** GET /accounts/rest/configuration: the portal configuration (spec section 3), public. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CSS_THEMES } from '@portal/shared/config';
import { ErrorBody } from '../../errors.js';

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
  },
  { additionalProperties: false },
);

export const configurationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/configuration',
    {
      config: { access: 'public', xsrf: false },
      schema: { response: { 200: ConfigurationBody, 500: ErrorBody } },
    },
    async () => app.portalConfig,
  );
};
