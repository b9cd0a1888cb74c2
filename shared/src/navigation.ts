/**
 * The feedback banner (spec section 2, Chrome): a page passes a message through navigation and
 * the host shows it, dismissable, at the top of the next page.
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';

export interface FeedbackState {
  readonly feedback: string;
}

export function feedbackOf(state: unknown): string | undefined {
  if (typeof state === 'object' && state !== null && 'feedback' in state) {
    const { feedback } = state as { feedback: unknown };
    if (typeof feedback === 'string' && feedback !== '') return feedback;
  }
  return undefined;
}

/** navigate(to, message): goes to `to` and shows `message` in the banner there. */
export function useNavigateWithFeedback(): (to: string, feedback: string) => void {
  const navigate = useNavigate();
  return useCallback((to: string, feedback: string) => navigate(to, { state: { feedback } satisfies FeedbackState }), [navigate]);
}

/**
 * Where a redirect parameter may send the user after sign-in: a path on this site only
 * ('/groups?x=1'), never another origin ('//evil.example', 'https://…', '/\\evil').
 */
export function safeRedirect(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  // Control characters (a tab or newline inside '/\t/evil') can turn a path into another origin.
  if ([...value].some((c) => c.charCodeAt(0) < 0x20)) return undefined;
  return value;
}
