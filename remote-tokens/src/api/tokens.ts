/** The token calls (definitions in @portal/api tokens/, spec section 7 "Tokens"). */
import * as api from '@portal/api';
import type { ArtifactToken, CreatedToken, CreateTokenBody, TokenGroup } from '@portal/api';
import { call } from '@portal/shared';

type Options = { readonly signal?: AbortSignal };

export async function listTokens(options: Options = {}): Promise<ArtifactToken[]> {
  return (await call(api.listTokens, {}, options)).tokens;
}

export async function listTokenGroups(options: Options = {}): Promise<TokenGroup[]> {
  return (await call(api.listTokenGroups, {}, options)).rows;
}

export function createToken(body: CreateTokenBody, options: Options = {}): Promise<CreatedToken> {
  return call(api.createToken, { body }, options);
}

export function revokeToken(id: string, options: Options = {}): Promise<unknown> {
  return call(api.revokeToken, { params: { id } }, options);
}
