/** The provisioning targets the server settings name (docs/provisioning.md). */
import { readFileSync } from 'node:fs';
import type { ServerSettings } from '../../config.js';
import type { ListEngine } from '../lists/engine.js';
import { createLdapTarget } from './ldap.js';
import { createListsTarget } from './lists.js';
import { createScimTarget } from './scim.js';
import type { ProvisioningTarget } from './target.js';

/** A target that cannot be set up from the settings (a password or token file that cannot be read). */
export class ProvisioningSetupError extends Error {}

type TargetSettingsOf = Pick<ServerSettings, 'ldapUrl' | 'ldapBindDn' | 'ldapBindPassword' | 'ldapBindPasswordFile' | 'ldapBaseDn' | 'ldapPrune' | 'scimTargets'>;

/** A secret's file's first line; `setting` names where the file was given. */
function firstLine(file: string, setting: string): string {
  try {
    return (readFileSync(file, 'utf8').split(/\r?\n/)[0] ?? '').trim();
  } catch (error) {
    throw new ProvisioningSetupError(`${setting}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
  }
}

function bindPassword(server: TargetSettingsOf): string {
  if (server.ldapBindPasswordFile === undefined) return server.ldapBindPassword ?? '';
  return firstLine(server.ldapBindPasswordFile, 'PORTAL_LDAP_BIND_PASSWORD_FILE');
}

/**
 * The directory, the SCIM services, and the mailing lists' rosters when `listEngine` keeps its own
 * (Mailman; the embedded engine's roster is the portal's tables, so there is nothing to push).
 */
export function provisioningTargets(server: TargetSettingsOf, listEngine?: ListEngine): ProvisioningTarget[] {
  const targets: ProvisioningTarget[] = [];
  if (server.ldapUrl !== undefined && server.ldapBindDn !== undefined && server.ldapBaseDn !== undefined) {
    targets.push(
      createLdapTarget({ url: server.ldapUrl, bindDn: server.ldapBindDn, bindPassword: bindPassword(server), baseDn: server.ldapBaseDn, prune: server.ldapPrune }),
    );
  }
  for (const scim of server.scimTargets) {
    const token = scim.tokenFile === undefined ? (scim.token ?? '') : firstLine(scim.tokenFile, `PORTAL_SCIM_TARGETS, entry '${scim.name}', tokenFile`);
    if (token === '') throw new ProvisioningSetupError(`PORTAL_SCIM_TARGETS, entry '${scim.name}': the token file ${scim.tokenFile} is empty`);
    targets.push(createScimTarget({ name: scim.name, url: scim.url, token }));
  }
  if (listEngine !== undefined && !listEngine.portalDelivers) targets.push(createListsTarget(listEngine));
  return targets;
}
