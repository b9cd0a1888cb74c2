/** The last-used user type and authentication type (spec section 2, /login), kept in local storage. */
export type UserType = 'new' | 'returning';
export type AuthType = 'cac' | 'token';

export const USER_TYPE_KEY = 'portal.login.userType';
export const AUTH_TYPE_KEY = 'portal.login.authType';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // private mode or storage full: the choice is simply not remembered
  }
}

export function lastUserType(): UserType {
  return read(USER_TYPE_KEY) === 'new' ? 'new' : 'returning';
}

/** The default is CAC when smart-card support is on, else the website token. */
export function lastAuthType(cacSupport: boolean): AuthType {
  if (!cacSupport) return 'token';
  const stored = read(AUTH_TYPE_KEY);
  return stored === 'token' ? 'token' : 'cac';
}

export const rememberUserType = (type: UserType) => write(USER_TYPE_KEY, type);
export const rememberAuthType = (type: AuthType) => write(AUTH_TYPE_KEY, type);
