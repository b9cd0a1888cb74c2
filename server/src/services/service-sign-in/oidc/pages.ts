/**
 * The provider's own pages (consent, sign-out, errors): plain HTML under a policy that allows no
 * style, so the browser's own, light or dark as the reader's system is (color-scheme), readable on
 * a phone (viewport), each control a button or a link the keyboard reaches.
 */
import { createHash } from 'node:crypto';

export const escapeHtml = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A whole page; `title` and `body` are HTML already (escape what they quote). */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${title}</title></head>
<body>
${body}
</body></html>
`;
}

/** The consent page of a client added with --consent: what it will learn, Allow or Deny. */
export function consentPage(clientName: string, allowAction: string, denyAction: string): string {
  const name = escapeHtml(clientName);
  return page(
    `Sign in to ${name}`,
    `<h1>Sign in to ${name}</h1>
<p>${name} will learn your username, your name, your email address and your groups.</p>
<form method="post" action="${escapeHtml(allowAction)}"><button type="submit">Allow</button></form>
<form method="post" action="${escapeHtml(denyAction)}"><button type="submit">Deny</button></form>`,
  );
}

/**
 * The sign-out confirmation of RP-initiated logout (oidc-provider's logoutSource): `form` is the
 * provider's (id op.logoutForm, its anti-forgery field); "Sign out" sends logout=yes (the whole
 * sign-out), the other button only the client's own.
 */
export function logoutPage(clientName: string | undefined, form: string): string {
  const name = clientName === undefined ? undefined : escapeHtml(clientName);
  return page(
    'Sign out',
    `<h1>Sign out?</h1>
<p>${name ?? 'A service'} asks to sign you out. Signing out ends your session on the portal and your sign-ins to the platform's services in this browser.</p>
${form}
<p><button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button></p>
<p><button type="submit" form="op.logoutForm">${name === undefined ? 'Stay signed in' : `Sign out of ${name} only`}</button></p>`,
  );
}

/** The script that sends a form at once: the sign-out the ID token hint named needs no confirmation. */
export const AUTO_SUBMIT_SCRIPT = "document.getElementById('op.logoutForm').submit();";

/** The sign-out sent at once (with logout=yes); a button when scripts do not run. */
export function logoutNowPage(form: string): string {
  const withLogout = form.replace('</form>', '<input type="hidden" name="logout" value="yes"/><noscript><button type="submit">Sign out</button></noscript></form>');
  return page('Signing out', `<h1>Signing out…</h1>\n${withLogout}\n<script>${AUTO_SUBMIT_SCRIPT}</script>`);
}

/** After a sign-out with no post_logout_redirect_uri (oidc-provider's postLogoutSuccessSource). */
export function signedOutPage(stillSignedInTo: string | undefined, portalHome: string): string {
  const body =
    stillSignedInTo === undefined
      ? `<h1>Signed out</h1>\n<p>You are signed out of the portal and of the platform's services in this browser.</p>`
      : `<h1>Signed out of ${escapeHtml(stillSignedInTo)}</h1>\n<p>You are still signed in to the portal.</p>`;
  return page('Signed out', `${body}\n<p><a href="${escapeHtml(portalHome)}">Go to the portal</a></p>`);
}

export function errorPage(error: string, description: string): string {
  return page(
    'Sign-in to a service refused',
    `<h1>Sign-in to a service refused</h1>
<p>${escapeHtml(description)}</p>
<p>Error: <code>${escapeHtml(error)}</code></p>`,
  );
}

/**
 * The policy of a page of the provider's (consent, sign-out): nothing but its own inline scripts
 * (by their hashes), its forms posted here, and the redirect after them to the client's address
 * (its redirect URI, or its post-logout address): browsers check the redirects after a form
 * against form-action, so without the client's origin the answer of a form would never reach it.
 */
export function pagePolicy(html: string, clientUri: string | undefined): string {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => `'sha256-${createHash('sha256').update(match[1] ?? '').digest('base64')}'`);
  let origin: string | undefined;
  try {
    origin = clientUri === undefined ? undefined : new URL(clientUri).origin;
  } catch {
    origin = undefined;
  }
  return [
    "default-src 'none'",
    `script-src ${scripts.length > 0 ? scripts.join(' ') : "'none'"}`,
    `form-action 'self'${origin === undefined ? '' : ` ${origin}`}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}
