/**
 * POST /accounts/{username} with the profile: the owner with allow-profilechange, or EDIT_ACCOUNT.
 * Every field is optional in the schema so that a missing one gets the spec's message ('Please
 * enter a phone number' …) from the shared rules rather than a schema error; the bounds are
 * generous, the rules' own ('Must be less than 255 characters (300/255)') apply below them.
 */
import { Type, type Static } from 'typebox';
import { closed, UsernameParams } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { Account, type ProfileValues } from './account.js';

const Field = Type.Optional(Type.String({ maxLength: 2000 }));

export const ProfileUpdate = Type.Object(
  {
    phone: Field,
    address: Type.Optional(Type.Object({ street: Field, city: Field, state: Field, zip: Field, country: Field }, closed)),
    company: Field,
    project: Field,
    supervisor: Type.Optional(Type.Object({ first_name: Field, last_name: Field, email: Field, phone: Field }, closed)),
    reason: Type.Optional(Type.String({ maxLength: 4000 })),
  },
  closed,
);
export type ProfileUpdate = Static<typeof ProfileUpdate>;

export const updateProfile = defineEndpoint({
  method: 'POST',
  path: '/accounts/:username',
  access: 'session',
  summary: "Updates an account's profile: the owner with allow-profilechange, or EDIT_ACCOUNT",
  params: UsernameParams,
  body: ProfileUpdate,
  response: Account,
  errors: [404],
});

/** The body of POST /accounts/{username} from flat values, trimmed. */
export function profileUpdate(values: Partial<ProfileValues>): Required<ProfileUpdate> {
  const t = (value: string | undefined) => (value ?? '').trim();
  return {
    phone: t(values.phone),
    address: { street: t(values.street), city: t(values.city), state: t(values.state), zip: t(values.zip), country: t(values.country) },
    company: t(values.company),
    project: t(values.project),
    supervisor: {
      first_name: t(values.supervisor_first_name),
      last_name: t(values.supervisor_last_name),
      email: t(values.supervisor_email),
      phone: t(values.supervisor_phone),
    },
    reason: t(values.reason),
  };
}
