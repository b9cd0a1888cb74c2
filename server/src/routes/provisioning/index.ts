/**
 * Provisioning for platform administrators (MANAGE_PROVISIONING; docs/provisioning.md): each
 * target, its failures and history, Retry and Reconcile now, the history as CSV; and for an
 * account, whether its access to each service is in step (the owner or VIEW_ACCOUNT).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import { ConflictError, NotFoundError } from '../../errors.js';
import { eventRows } from '../../repositories/provisioning/queue.js';
import { ReconcileBusyError, UnknownTargetError, type ProvisioningEngine } from '../../services/provisioning/engine.js';
import { provisioningHistoryCsv } from '../../services/provisioning/history.js';
import { getServiceAccess, objectNames, provisioningOverview } from '../../services/provisioning/status.js';
import { endpointRoute } from '../api/endpoint-route.js';
import { selfServiceContext, signedInAccount } from '../api/signed-in.js';

const HISTORY_ON_PAGE = 50;
const NOT_RUNNING = 'Provisioning does not run on this server: no target is configured (PORTAL_LDAP_URL or PORTAL_SCIM_TARGETS).';

export const provisioningRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const options = { get historyDays() { return app.provisioning.historyDays; } };
  const engine = (): ProvisioningEngine => {
    const running = app.provisioning.engine;
    if (!running || running.targets.length === 0) throw new ConflictError(NOT_RUNNING);
    return running;
  };
  const domain = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof UnknownTargetError) throw new NotFoundError(error.message);
      if (error instanceof ReconcileBusyError) throw new ConflictError(error.message);
      throw error;
    }
  };

  app.route({
    ...endpointRoute(api.getProvisioning),
    handler: async () => {
      const overview = await provisioningOverview(app.db);
      const time = (iso: string | null) => (iso === null ? null : Date.parse(iso));
      const history = await eventRows(app.db, { sinceDays: options.historyDays, limit: HISTORY_ON_PAGE });
      const names = await objectNames(app.db, history);
      return {
        targets: overview.targets.map((t) => ({ ...t, oldest_pending: time(t.oldest_pending), last_reconcile_at: time(t.last_reconcile_at) })),
        failures: overview.failures.map((f) => ({ ...f, since: Date.parse(f.since), next_attempt_at: Date.parse(f.next_attempt_at) })),
        history: history.map((e) => ({ id: e.id, target: e.target, at: e.at.getTime(), kind: e.kind, object: e.object === null ? null : (names.get(e.object) ?? e.object), detail: e.detail })),
      };
    },
  });

  app.route({
    ...endpointRoute(api.retryProvisioning),
    handler: async (request) => {
      const account = await signedInAccount(request);
      return domain(async () => ({ retried: await engine().retry(request.body.target, account.username) }));
    },
  });

  app.route({
    ...endpointRoute(api.reconcileProvisioning),
    handler: async (request) =>
      domain(async () => {
        const done = await engine().reconcile({ dryRun: false, ...(request.body.target === undefined ? {} : { target: request.body.target }) });
        return { results: done.map((r) => ({ target: r.target, summary: r.summary, differences: r.report.differences, drift: r.report.drift, unknown: r.report.unknown })) };
      }),
  });

  app.route({
    ...endpointRoute(api.provisioningHistoryCsv),
    handler: async (_request, reply) => {
      const events = await eventRows(app.db, { sinceDays: options.historyDays, limit: 1_000_000 });
      const csv = provisioningHistoryCsv(events, await objectNames(app.db, events));
      reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="provisioning-history.csv"');
      return csv;
    },
  });

  app.route({
    ...endpointRoute(api.getServiceAccess),
    handler: async (request) => getServiceAccess(selfServiceContext(app), await signedInAccount(request), request.params.username),
  });
};
