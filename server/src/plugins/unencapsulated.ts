/**
 * Marks a plugin so that what it adds (decorators, hooks, handlers) applies to the instance it is
 * registered on rather than to a child context. This is what the fastify-plugin package does,
 * through Fastify's documented 'skip-override' symbol.
 */
export function unencapsulated<F extends object>(plugin: F, name: string): F {
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: name,
  });
}
