/**
 * The validation rules of spec section 5, one validator per rule, with the spec's messages word
 * for word. The forms use them field by field; the server runs the same validators over the
 * whole body (validateFields) and answers 400 with the first message per field. Nothing here
 * imports React or antd, so the server can import it.
 */
import { composeValidators, required, type Validator } from './validation.js';

/** One plain address (local@domain): no display name, list, spaces or control characters. */
const MAIL_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
/** RFC 5321's path limit less the angle brackets. */
export const MAX_MAIL_ADDRESS_LENGTH = 254;

export function isMailAddress(text: string): boolean {
  return text.length <= MAX_MAIL_ADDRESS_LENGTH && MAIL_ADDRESS.test(text);
}

/** Spec section 9: text limits. */
export const LIMITS = {
  min: 2,
  text: 255,
  username: 20,
  street: 125,
  city: 75,
  state: 15,
  zip: 10,
  country: 15,
  /**
   * Every reason box (spec section 9: "adjudication and reason boxes 150"): the reason for the
   * account (account request and profile), lock, unlock and close, unlock request, email and
   * authentication change, CAC registration, and the adjudicators' comments on every kind but the
   * new account request. The table is in server/docs/self-service.md ("Text limits").
   */
  reason: 150,
  /** The adjudicator's comment on a new account request ("the account request comment") and the applicant's response. */
  comment: 1000,
  phone: 30,
} as const;

export const RULE_MESSAGES = {
  atLeast2: 'Must be at least 2 characters',
  lessThan: (max: number, length: number) => `Must be less than ${max} characters (${length}/${max})`,
  emailInvalid: 'Email address is invalid',
  validEmail: 'Please enter a valid email.',
  emailMismatch: 'Email does not match',
  usernameIsEmail: 'Please avoid using email as username',
  usernameCharacters: 'Must have only alphanumeric characters including . - and _',
  usernameStartsWithDigit: 'Username must not start with a number',
  nameCharacters: 'Must have only alphabetical characters',
  invalidPhone: 'Invalid phone',
  fieldRequired: 'This field is required',
  validEmailAddress: 'Please enter a valid email address.',
  sameEmail: 'Please enter an email address different from your current one.',
  emailsDontMatch: "Email addresses don't match",
  changeEmailReason: 'Please enter a reason to change email',
  certifyAccurate: 'Please certify that your account information is accurate',
  emailInUse: 'This email is already in use in the system.',
  verificationCode: 'Please enter your verification code.',
  responseRequired: 'A response is required.',
  unlockReason: 'Reason is required',
  certifyRequirements: 'Please certify that you have read the requirements.',
  commentNeeded: 'Please enter a comment describing the information needed',
  reasonRequired: 'Please enter a reason',
  searchTermRequired: 'Please enter a search term.',
} as const;

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));
const isBlank = (value: unknown) => text(value).trim() === '';

/** 'Must be at least 2 characters' below min (blank is left to required()). */
export function minLength(min: number = LIMITS.min): Validator {
  return (value) => (!isBlank(value) && text(value).trim().length < min ? RULE_MESSAGES.atLeast2 : undefined);
}

/** 'Must be less than N characters (n/N)' above max. */
export function lengthAtMost(max: number): Validator {
  return (value) => {
    const length = text(value).length;
    return length > max ? RULE_MESSAGES.lessThan(max, length) : undefined;
  };
}

/** Spec section 5: a length between 2 and max. */
export function lengthBetween(max: number): Validator {
  return composeValidators(minLength(), lengthAtMost(max));
}

export function email(message: string = RULE_MESSAGES.emailInvalid): Validator {
  return (value) => (!isBlank(value) && !isMailAddress(text(value).trim()) ? message : undefined);
}

const USERNAME_CHARACTERS = /^[A-Za-z0-9._-]*$/;
export const usernameRules: Validator = composeValidators(
  required('Please enter a username'),
  (value) => (text(value).includes('@') ? RULE_MESSAGES.usernameIsEmail : undefined),
  (value) => (/^\s*[0-9]/.test(text(value)) ? RULE_MESSAGES.usernameStartsWithDigit : undefined),
  (value) => (!USERNAME_CHARACTERS.test(text(value)) ? RULE_MESSAGES.usernameCharacters : undefined),
  minLength(),
  lengthAtMost(LIMITS.username),
);

const NAME_CHARACTERS = /^[\p{L}']*$/u;
export function personName(requiredMessage: string): Validator {
  return composeValidators(
    required(requiredMessage),
    (value) => (!NAME_CHARACTERS.test(text(value).trim()) ? RULE_MESSAGES.nameCharacters : undefined),
    lengthBetween(LIMITS.text),
  );
}

/** Digits with the usual separators: +, spaces, dots, hyphens, parentheses and an extension; 7 to 15 digits. */
const PHONE_CHARACTERS = /^\+?[0-9 ().-]+(?:\s*(?:x|ext\.?)\s*[0-9]{1,6})?$/i;
export function phone(requiredMessage: string): Validator {
  return composeValidators(required(requiredMessage), (value) => {
    const t = text(value).trim();
    const main = t.replace(/\s*(?:x|ext\.?)\s*[0-9]{1,6}$/i, '');
    const digits = main.replace(/[^0-9]/g, '').length;
    return !PHONE_CHARACTERS.test(t) || digits < 7 || digits > 15 || t.length > LIMITS.phone ? RULE_MESSAGES.invalidPhone : undefined;
  });
}

export function textBetween(requiredMessage: string, max: number = LIMITS.text): Validator {
  return composeValidators(required(requiredMessage), lengthBetween(max));
}

export function requiredEmail(requiredMessage: string, invalidMessage: string = RULE_MESSAGES.emailInvalid): Validator {
  return composeValidators(required(requiredMessage), email(invalidMessage), lengthAtMost(MAX_MAIL_ADDRESS_LENGTH));
}

/** ' [GOVT SPONSOR: {email}]' at the end of a CAC exception's reason (spec section 5). */
const SPONSOR_SUFFIX = / \[GOVT SPONSOR: [^\]]*\]$/;

/** The reason as its writer typed it: without the sponsor the screen appended. */
export const withoutSponsor = (reason: string) => reason.replace(SPONSOR_SUFFIX, '');

/** The longest sponsor suffix: ' [GOVT SPONSOR: ' + an address of 254 + ']'. */
export const MAX_SPONSOR_SUFFIX = ' [GOVT SPONSOR: ]'.length + MAX_MAIL_ADDRESS_LENGTH;

/** The reason for the account: a reason box, 150 like every reason of spec section 9, the sponsor's suffix not counted. */
const accountReasonLength: Validator = (value) => lengthAtMost(LIMITS.reason)(withoutSponsor(typeof value === 'string' ? value : ''));

/** The fields of a profile (section 5: all required), as the profile form and POST /accounts/{username} name them. */
export const PROFILE_RULES = {
  phone: phone('Please enter a phone number'),
  street: textBetween('Please enter a street address', LIMITS.street),
  city: textBetween('Please enter a city', LIMITS.city),
  state: textBetween('Please enter a state', LIMITS.state),
  zip: textBetween('Please enter a postal code', LIMITS.zip),
  country: textBetween('Please enter a country', LIMITS.country),
  company: textBetween('Please enter a company or government symbol'),
  project: textBetween('Please enter a project'),
  supervisor_first_name: personName("Please enter your supervisor's first name"),
  supervisor_last_name: personName("Please enter your supervisor's last name"),
  supervisor_email: requiredEmail("Please enter your supervisor's email address"),
  supervisor_phone: phone("Please enter your supervisor's phone number"),
  reason: composeValidators(required('Please enter a reason'), minLength(), accountReasonLength),
} as const satisfies Record<string, Validator>;

/** The new account form (section 5), flat field names; `email_confirmation` is the form's alone. */
export const ACCOUNT_REQUEST_RULES = {
  first_name: personName('Please enter your first name'),
  last_name: personName('Please enter your last name'),
  username: usernameRules,
  email: requiredEmail('Please enter an email address'),
  ...PROFILE_RULES,
} as const satisfies Record<string, Validator>;

export type AccountRequestField = keyof typeof ACCOUNT_REQUEST_RULES;
export type ProfileField = keyof typeof PROFILE_RULES;

/** The sponsor of a CAC exception (section 5) and of a change from CAC to token. */
export const sponsorEmailRules: Validator = composeValidators(required(RULE_MESSAGES.fieldRequired), email('Please enter a valid email'));

/** Runs each field's validator over a body; the first message per failing field, in the rules' order. */
export function validateFields<K extends string>(rules: Record<K, Validator>, body: Partial<Record<K, unknown>>): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const field of Object.keys(rules) as K[]) {
    const message = rules[field](body[field]);
    if (message) errors[field] = message;
  }
  return errors;
}

/** ' [GOVT SPONSOR: {email}]' appended to a reason (spec section 5). */
export function withSponsor(reason: string, sponsorEmail: string): string {
  return `${reason} [GOVT SPONSOR: ${sponsorEmail.trim()}]`;
}

/** Verification codes: six digits. */
export const VERIFICATION_CODE = /^[0-9]{6}$/;
