/**
 * GET /login-agreement: the text of the login agreement that stage one of /login shows (spec
 * section 2: "a login agreement (optional, shown only if configured)"). Public and exempt from the
 * anti-forgery check like the configuration: it is read before anyone signs in. The text is the
 * file named by `login_agreement_filename`, or the portal's standard notice when none is named.
 */
import { Type, type Static } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

/** The notice shown when no agreement file is configured (login_agreement_filename 'undefined'). */
export const DEFAULT_LOGIN_AGREEMENT =
  'You are accessing a system provided for authorized use only.\n\n' +
  'By using this system you consent to the monitoring, recording and auditing of your use of it. ' +
  'Unauthorized use, or use beyond your authorization, may be reported and may lead to the loss of your access and to ' +
  'disciplinary, civil or criminal action.\n\n' +
  'Do not store or send information this system is not approved for. Keep your website token and smart card to yourself.\n\n' +
  'Select I Agree to accept these terms and continue to sign in.';

/** The longest agreement file served, in characters (a longer one is a configuration mistake: 500). */
export const MAX_LOGIN_AGREEMENT = 100_000;

export const LoginAgreement = Type.Object(
  {
    /** The configured file name ('undefined': none, the standard notice). */
    filename: Type.String(),
    /** Plain text; line breaks are kept, nothing is read as markup. */
    text: Type.String({ maxLength: MAX_LOGIN_AGREEMENT }),
  },
  closed,
);
export type LoginAgreement = Static<typeof LoginAgreement>;

export const getLoginAgreement = defineEndpoint({
  method: 'GET',
  path: '/login-agreement',
  access: 'public',
  xsrf: false,
  summary: 'The login agreement shown before sign-in',
  response: LoginAgreement,
});
