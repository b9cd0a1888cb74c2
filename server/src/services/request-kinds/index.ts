/**
 * Every request kind, registered: loading this module loads each kind's module, which registers
 * itself (registry.ts). A new kind is a new module here and one line below.
 */
import './new-account.js';
import './profile-change.js';
import './auth-change.js';
import './unlock.js';
import './user-group.js';
import './mailing-list.js';
import './membership.js';

export { registerRequestKind, registeredKinds, requestKind, type DecisionContext, type DecisionEffect, type KindPermissions, type RequestAccess, type RequestKindDefinition, type RequestKindModule } from './registry.js';
