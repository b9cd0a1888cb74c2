import { defineEndpoint } from '../endpoint.js';
import { SessionBody } from './sessions.js';

/** POST /cert/sessions: smart-card sign-in with the client certificate the browser presents. */
export const signInWithCertificate = defineEndpoint({
  method: 'POST',
  path: '/cert/sessions',
  access: 'public',
  limit: 'sign-in',
  xsrf: false,
  summary: 'Signs in with the smart card (client certificate) presented',
  response: SessionBody,
  errors: [401, 403, 404, 423],
});
