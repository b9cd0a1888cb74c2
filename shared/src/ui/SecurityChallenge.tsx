import { getBotChallenge } from '@portal/api';
import { ApiError, call } from '../api/client.js';
import type { AltchaWidgetElement } from 'altcha';
import { Alert, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';

export const CHALLENGE_LOAD_ERROR = 'There was an error loading the security challenge.';

interface Props {
  /** Changing it fetches a new challenge (after a refused or used one). */
  readonly generation: number;
  /** The solution to send as botChallengeResponse, or undefined while there is none. */
  onSolved(payload: string | undefined): void;
  /** An error to show in the challenge area (e.g. 'Invalid Security Challenge Response'). */
  readonly error?: string;
}

/**
 * The ALTCHA proof-of-work widget (self-hosted, no third party). The challenge comes from the
 * portal's own endpoint; the widget solves it in the browser when the user ticks it.
 */
export function SecurityChallenge({ generation, onSolved, error }: Props) {
  const widget = useRef<AltchaWidgetElement>(null);
  /** Why the challenge could not be loaded: the server's words when it refused for the rate (429). */
  const [loadFailure, setLoadFailure] = useState<string>();
  const solvedRef = useRef(onSolved);
  solvedRef.current = onSolved;

  useEffect(() => {
    const controller = new AbortController();
    setLoadFailure(undefined);
    solvedRef.current(undefined);
    Promise.all([import(/* webpackChunkName: "altcha" */ 'altcha'), call(getBotChallenge, {}, { signal: controller.signal }).then((answer) => answer.ok)])
      .then(async ([, challenge]) => {
        const element = widget.current;
        if (!element || controller.signal.aborted) return;
        await element.configure({ challenge: challenge as never, hideFooter: true, hideLogo: false });
        element.reset();
      })
      .catch((cause: unknown) => {
        if (controller.signal.aborted) return;
        console.error(cause);
        setLoadFailure(cause instanceof ApiError && cause.status === 429 ? cause.message : CHALLENGE_LOAD_ERROR);
      });
    return () => controller.abort();
  }, [generation]);

  useEffect(() => {
    const element = widget.current;
    if (!element) return undefined;
    const onChange = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state: string; payload?: string }>).detail;
      solvedRef.current(state === 'verified' && payload ? payload : undefined);
    };
    element.addEventListener('statechange', onChange);
    return () => element.removeEventListener('statechange', onChange);
  }, []);

  return (
    <div role="group" aria-label="Security challenge" style={{ marginBottom: 16 }}>
      <Typography.Text strong>Security challenge</Typography.Text>
      <div style={{ marginTop: 8 }}>
        <altcha-widget ref={widget} />
      </div>
      {loadFailure && <Alert type="error" showIcon title={loadFailure} style={{ marginTop: 8 }} />}
      {error && <Alert type="error" showIcon role="alert" title={error} style={{ marginTop: 8 }} />}
    </div>
  );
}

export const CHALLENGE_REQUIRED = 'Please complete the security challenge.';

/**
 * The state a form keeps for its security challenge: the latest solution (in a ref, so that a
 * submit handler sees the solution reported just before the click), the generation that asks
 * the widget for a new challenge, and the error shown in the challenge area.
 */
export function useChallengeSolution() {
  const solution = useRef<string | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  const [error, setError] = useState<string>();
  const onSolved = useCallback((payload: string | undefined) => {
    solution.current = payload;
  }, []);
  /** A challenge is good for one attempt: every attempt gets a new one. */
  const renew = useCallback(() => setGeneration((g) => g + 1), []);
  /** The solution to send, or undefined (and the 'complete the challenge' error) when there is none. */
  const take = useCallback((): string | undefined => {
    if (!solution.current) {
      setError(CHALLENGE_REQUIRED);
      return undefined;
    }
    setError(undefined);
    return solution.current;
  }, []);
  return { generation, error, setError, onSolved, renew, take } as const;
}
