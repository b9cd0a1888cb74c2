/**
 * The sign-in page is a chunk of its own: it brings the form stack with it
 * (@portal/shared/forms, the form libraries, antd's forms part), which the signed-in pages
 * without a form no longer download before their content. Only the shell imports it, so it holds
 * nothing the shell has; on /login and / the server's first HTML hints at its files
 * (page-preloads.json), so they arrive with the host's first file, not after the shell rendered.
 */
import type * as LoginPageModule from './pages/login/LoginPage';

type LoginModule = typeof LoginPageModule;

let loading: Promise<LoginModule> | undefined;

/** The sign-in page's module, asked for once; a failed load is asked for again next time. */
export function loadLoginPage(): Promise<LoginModule> {
  loading ??= import(/* webpackChunkName: "login" */ './pages/login/LoginPage').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
