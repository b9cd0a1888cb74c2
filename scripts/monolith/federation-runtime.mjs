// The monolith's stand-in for '@module-federation/enhanced/runtime': the
// host's RemoteLoader asks it for '<remote>/routes' as it asks the federation runtime, and it
// answers with the remote's routes module imported directly, one code-split chunk per remote.
// Only `npm run bench` builds it: the portal itself always runs federated.
const REMOTES = {
  self_service: () => import(/* webpackChunkName: "self_service" */ '../../remote-self-service/src/routes.tsx'),
  groups: () => import(/* webpackChunkName: "groups" */ '../../remote-groups/src/routes.tsx'),
  adjudication: () => import(/* webpackChunkName: "adjudication" */ '../../remote-adjudication/src/routes.tsx'),
  mailing_lists: () => import(/* webpackChunkName: "mailing_lists" */ '../../remote-mailing-lists/src/routes.tsx'),
  tokens: () => import(/* webpackChunkName: "tokens" */ '../../remote-tokens/src/routes.tsx'),
};

function remoteOf(id) {
  const load = REMOTES[id.split('/')[0]];
  if (!load) throw new Error(`The monolith has no remote ${id}`);
  return load;
}

export function registerRemotes() {}

/** The host's preload asks with `{ loadFactory: false }`: here too the remote's chunk is imported (there is nothing to run apart). */
export function loadRemote(id) {
  return remoteOf(id)();
}
