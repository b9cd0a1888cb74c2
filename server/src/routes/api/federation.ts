/**
 * Federation operations for platform administrators (MANAGE_REMOTES; docs/federation.md):
 * what each environment runs, pins, rollbacks, the history and its CSV, and previews held by
 * the caller's session. The command line does the same (npm run portal -- remotes …).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import { CONTRACT_VERSION } from '@portal/shared/contract';
import { NotSignedInError } from '../../errors.js';
import { MESSAGES } from '../../messages.js';
import { listPinnedEnvironments } from '../../repositories/remotes.js';
import {
  endPreview,
  listPreviews,
  pinHistory,
  pinHistoryCsv,
  pinHistoryFileName,
  pinRemote,
  publishedVersions,
  remoteStatus,
  rollbackRemote,
  startPreview,
  type FederationContext,
  type PinChange,
} from '../../services/federation.js';
import type { PinHistoryRecord } from '../../repositories/remotes.js';
import { endpointRoute } from './endpoint-route.js';
import { signedInAccount } from './signed-in.js';

function historyEntry(e: PinHistoryRecord): api.PinHistoryEntry {
  return {
    id: e.id,
    environment: e.environment,
    remote: e.name,
    action: e.action,
    from_version: e.fromVersion,
    to_version: e.toVersion,
    changed_at: e.changedAt.getTime(),
    changed_by: e.changedBy,
    reason: e.reason,
  };
}

function changeBody(change: PinChange) {
  return {
    environment: change.environment,
    remote: change.name,
    action: change.action === 'rollback' ? ('rollback' as const) : ('pin' as const),
    from_version: change.fromVersion,
    to_version: change.toVersion,
  };
}

export const federationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const context = (): FederationContext => ({ db: app.db, storeDir: app.federation.storeDir, now: () => app.security.clock.now() });
  const environmentOf = (requested: string | undefined): string => requested ?? app.federation.environment();
  const sessionHash = async (request: Parameters<typeof signedInAccount>[0]): Promise<string> => {
    const session = await request.portalSession();
    if (!session?.account) throw new NotSignedInError(MESSAGES.notSignedIn);
    return session.idHash;
  };

  app.route({
    ...endpointRoute(api.getFederation),
    handler: async (request) => {
      const served = app.federation.environment();
      const environment = environmentOf(request.query.environment);
      const previews = environment === served ? new Map((await listPreviews(app.db, await sessionHash(request))).map((p) => [p.name, p.version])) : new Map<string, string>();
      const versions = await publishedVersions(context());
      const environments = [...new Set([served, ...(await listPinnedEnvironments(app.db))])].sort();
      return {
        environment,
        served_environment: served,
        environments,
        host_contract: CONTRACT_VERSION,
        remotes: (await remoteStatus(app.db, environment)).map((s) => ({
          name: s.name,
          version: s.version,
          contract: s.contract,
          routes: s.routes,
          pinned_at: s.pinnedAt.getTime(),
          pinned_by: s.pinnedBy,
          reason: s.reason,
          rollback_to: s.rollbackTo,
          preview: previews.get(s.name) ?? null,
          versions: versions
            .filter((v) => v.name === s.name)
            .map((v) => ({ version: v.version, contract: v.contract, published_at: v.publishedAt.getTime(), published_by: v.publishedBy, compatible: v.compatible })),
        })),
      };
    },
  });

  app.route({
    ...endpointRoute(api.getPinHistory),
    handler: async (request) => {
      const environment = environmentOf(request.query.environment);
      return { environment, history: (await pinHistory(app.db, environment, request.query.remote)).map(historyEntry) };
    },
  });

  app.route({
    ...endpointRoute(api.pinHistoryCsv),
    handler: async (request, reply) => {
      const environment = environmentOf(request.query.environment);
      const csv = pinHistoryCsv(await pinHistory(app.db, environment, request.query.remote));
      reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${pinHistoryFileName(environment)}"`);
      return csv;
    },
  });

  app.route({
    ...endpointRoute(api.pinRemoteVersion),
    handler: async (request) => {
      const { environment, remote, version, reason } = request.body;
      const account = await signedInAccount(request);
      return changeBody(await pinRemote(context(), environment, remote, version, account.username, reason));
    },
  });

  app.route({
    ...endpointRoute(api.rollbackRemoteVersion),
    handler: async (request) => {
      const { environment, remote, reason } = request.body;
      const account = await signedInAccount(request);
      return changeBody(await rollbackRemote(context(), environment, remote, account.username, reason));
    },
  });

  app.route({
    ...endpointRoute(api.startRemotePreview),
    handler: async (request) => {
      await startPreview(context(), app.federation.environment(), await sessionHash(request), request.params.remote, request.body.version);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpointRoute(api.endRemotePreview),
    handler: async (request) => {
      await endPreview(app.db, await sessionHash(request), request.params.remote);
      return { ok: true as const };
    },
  });
};
