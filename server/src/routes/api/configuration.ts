/**
 * GET /accounts/rest/configuration: the portal configuration (spec section 3), public; and
 * GET /accounts/rest/login-agreement: the agreement /login shows first (the screen
 * must show the text itself, not its file's name). The agreement is the file `login_agreement_filename` names (UTF-8 plain
 * text; a relative name from the server's working directory), read at each request so that an
 * edited file needs no restart; with no file named, the standard notice of @portal/api. A file
 * that cannot be read answers 500 and is logged: nobody agrees to a text they were not shown.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_LOGIN_AGREEMENT, getConfiguration, getLoginAgreement, MAX_LOGIN_AGREEMENT } from '@portal/api';
import { ApiError } from '../../errors.js';
import { endpointRoute } from './endpoint-route.js';

export const LOGIN_AGREEMENT_UNREADABLE = 'The login agreement could not be read. Please contact an administrator.';

export const configurationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...endpointRoute(getConfiguration), handler: async () => app.portalConfig });

  app.route({
    ...endpointRoute(getLoginAgreement),
    handler: async (request) => {
      const filename = app.portalConfig.login_agreement_filename;
      if (filename.trim() === '' || filename === 'undefined') return { filename: 'undefined', text: DEFAULT_LOGIN_AGREEMENT };
      try {
        const text = (await readFile(resolve(process.cwd(), filename), 'utf8')).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
        if (text.length > MAX_LOGIN_AGREEMENT || text.trim() === '') throw new Error(`the agreement file is ${text.trim() === '' ? 'empty' : 'too long'}`);
        return { filename, text };
      } catch (error) {
        request.log.error({ err: error, filename }, 'the login agreement could not be read');
        throw new ApiError(500, LOGIN_AGREEMENT_UNREADABLE);
      }
    },
  });
};
