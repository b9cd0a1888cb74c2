import { defineEndpoint } from '../endpoint.js';
import { submitAccountRequest } from './submit-account-request.js';

/** POST /cert/requests/new: the same, with the applicant's smart card presented and kept with the request. */
export const submitCertificateAccountRequest = defineEndpoint({
  ...submitAccountRequest,
  path: '/cert/requests/new',
  summary: 'Requests an account with the smart card presented',
});
