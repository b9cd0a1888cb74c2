/** What server tests share about requests. */

/** The details of a new account request as the request form sends them (names given; `extra` overrides). */
export function newRequestDetails(first: string, last: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    first_name: first,
    last_name: last,
    phone: '555-0100',
    address: { street: '1 Main Street', city: 'Springfield', state: 'VA', zip: '22150', country: 'USA' },
    company: 'Example Corp',
    project: 'Portal',
    supervisor: { first_name: 'Sam', last_name: 'Boss', email: 'sam.boss@example.test', phone: '555-0199' },
    cac_eligible: false,
    certificate: null,
    ...extra,
  };
}
