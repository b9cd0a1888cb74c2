/**
 * The request queues' pages, for the remote that owns a kind (bundled into each remote that uses
 * them; not a singleton): a kind's queue is a {@link KindConfig} and {@link queueRoutes}.
 */
export * from './api.js';
export * from './queue.js';
export * from './QueueDecisionPanel.js';
export * from './QueueTable.js';
export * from './RequestDetailPage.js';
export * from './RequestFields.js';
export * from './RequestListPage.js';
export * from './routes.js';
