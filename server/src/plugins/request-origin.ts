/**
 * Where a request came from, as the TCP connection says and as a trusted proxy's forwarded
 * headers say (never a header from any other peer): the client's address and whether it came
 * over TLS. Its own module so that the security headers and the routes ask it without loading
 * the session and access plugin (security.ts), which answers its refusals through the error handler.
 */
import { isIP } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import { normalizeAddress } from '../config.js';
import type { SecuritySettings } from '../services/security-context.js';

/** The TCP peer's address (never a forwarded header). */
export function peerAddress(request: FastifyRequest): string {
  return normalizeAddress(request.raw.socket?.remoteAddress ?? '');
}

export function isFromTrustedProxy(request: FastifyRequest, settings: SecuritySettings): boolean {
  return settings.trustedProxies.includes(peerAddress(request));
}

/**
 * The client's address: the TCP peer's, or, when the peer is a trusted proxy, the nearest
 * address in X-Forwarded-For that is not a trusted proxy (the proxies append, so the addresses
 * a client wrote itself, on the left, are never believed past the first untrusted one).
 */
export function clientAddress(request: FastifyRequest, settings: SecuritySettings): string {
  const peer = peerAddress(request);
  if (!settings.trustedProxies.includes(peer)) return peer;
  const header = request.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => normalizeAddress(hop.trim()))
    .filter((hop) => isIP(hop) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!settings.trustedProxies.includes(hop)) return hop;
  }
  return peer;
}

/** Whether the request came over TLS: our own HTTPS listener, or a trusted proxy saying so. */
export function isSecureRequest(request: FastifyRequest, settings: SecuritySettings): boolean {
  if (request.raw.socket instanceof TLSSocket && request.raw.socket.encrypted) return true;
  return isFromTrustedProxy(request, settings) && request.headers['x-forwarded-proto'] === 'https';
}
