/**
 * The sign-in page is a chunk of its own (issue 17): it brings the form stack with it
 * (@portal/shared/forms, the form libraries, antd's forms part), which the signed-in pages
 * without a form no longer download before their content. On the sign-in page's own address the
 * host asks for it as it starts (bootstrap.tsx), alongside the shell, not once the shell has
 * rendered.
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

/** The addresses the sign-in page answers: /login, and / (which sends a visitor there). */
export function isSignInPath(pathname: string): boolean {
  return pathname === '/' || pathname === '/login' || pathname === '/login/';
}
