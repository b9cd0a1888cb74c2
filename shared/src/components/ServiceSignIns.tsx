/**
 * The sign-ins to services an account holds through the portal's OpenID provider
 * (server/docs/service-sign-in.md, "Sign-ins to services"): a table of the services (the client's
 * name, the portal service it is bound to), when each sign-in was made and when it ends, and a
 * button per row that ends it after a confirmation; what happened is said above the table, whose
 * rows are then the server's answer. The profile shows the user's own (OWN_SIGN_IN_WORDS), Account
 * Administration an account's (accountSignInWords). Nothing when the portal has no OpenID client
 * registered (nothing can be signed in to). While it loads, an empty mark says the page is still
 * busy (aria-busy), as ServiceAccess.tsx does.
 */
import type { EndedServiceSignIns, ServiceSignIn, ServiceSignInList } from '@portal/api';
import { SERVICE_INFO } from '@portal/api';
import { ConfirmModal, useConfirmation } from '@portal/shared';
import { Alert, Skeleton, Typography } from 'antd';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { errorText, useLoaded } from './useLoaded.js';
import { TableLoadBoundary } from './TableLoadBoundary.js';

// The table is a chunk of its own (antd's tables' part), as the groups' table is: /profile's first
// content does not wait for it.
const Table = lazy(() => import(/* webpackChunkName: "service-sign-ins-table" */ './ServiceSignInsTableView.js'));

export const SERVICE_SIGN_INS_TITLE = 'Sign-ins to Services';
export const NO_SERVICE_SIGN_INS = 'No sign-ins to services.';
export const serviceSignInsError = (error: unknown) => `Could not list the sign-ins to services: ${errorText(error)}`;
export const SERVICE_SIGN_INS_TABLE_ERROR = 'The sign-ins to services could not be shown. Reload the page to try again.';

/** What a page says about the rows and their ending. */
export interface ServiceSignInWords {
  /** The text of a row's button. */
  button(signIn: ServiceSignIn): string;
  /** Its accessible name (the row's service in it). */
  buttonLabel(signIn: ServiceSignIn): string;
  confirmTitle(signIn: ServiceSignIn): string;
  confirmText(signIn: ServiceSignIn): string;
  okText: string;
  /** After the ending; `ended` false when nothing was left to end. */
  ended(signIn: ServiceSignIn, ended: boolean): string;
}

export const OWN_SIGN_IN_WORDS: ServiceSignInWords = {
  button: (signIn) => `Sign out of ${signIn.client}`,
  buttonLabel: (signIn) => `Sign out of ${signIn.client}`,
  confirmTitle: (signIn) => `Sign out of ${signIn.client}?`,
  confirmText: (signIn) =>
    `${signIn.client} can no longer act for you with what the portal gave it; to use it again you sign in to it again. Your session on the portal goes on.`,
  okText: 'Sign Out',
  ended: (signIn, ended) => (ended ? `Signed out of ${signIn.client}.` : `You were no longer signed in to ${signIn.client}.`),
};

export const accountSignInWords = (username: string): ServiceSignInWords => ({
  button: () => 'End',
  buttonLabel: (signIn) => `End the sign-in to ${signIn.client}`,
  confirmTitle: () => 'End sign-in to service?',
  confirmText: (signIn) =>
    `${username} is signed out of ${signIn.client} at once: what the portal gave it stops working. ${username} may sign in to it again unless the account is locked.`,
  okText: 'End',
  ended: (signIn, ended) => (ended ? `The sign-in of ${username} to ${signIn.client} ended.` : `The sign-in of ${username} to ${signIn.client} had already ended.`),
});

/** A service's name as the subscriptions show it; an id the portal does not list, as given. */
export const boundServiceName = (id: string) => (SERVICE_INFO as Readonly<Record<string, { name: string } | undefined>>)[id]?.name ?? id;

export interface ServiceSignInsTableProps {
  readonly signIns: readonly ServiceSignIn[];
  readonly words: ServiceSignInWords;
  onEnd(signIn: ServiceSignIn): void;
}


export interface ServiceSignInsPanelProps {
  /** The list (GET /service-sign-ins, or an account's); memoize it (a new function is a new call). */
  load(signal: AbortSignal): Promise<ServiceSignInList>;
  /** Ends the sign-in to the client of that name. */
  end(client: string): Promise<EndedServiceSignIns>;
  readonly words: ServiceSignInWords;
  /** After an ending (Account Administration reloads the history). */
  onEnded?(): void;
}

export function ServiceSignInsPanel({ load, end, words, onEnded }: ServiceSignInsPanelProps) {
  const headingId = useId();
  const state = useLoaded(load);
  const [signIns, setSignIns] = useState<readonly ServiceSignIn[]>();
  const [outcome, setOutcome] = useState<{ type: 'success' | 'info' | 'error'; text: string }>();
  const confirmation = useConfirmation<ServiceSignIn>();

  useEffect(() => {
    if (state.status === 'ready') setSignIns(state.value.sign_ins);
  }, [state]);

  const endOne = async (signIn: ServiceSignIn) => {
    setOutcome(undefined);
    if (!(await confirmation.ask(signIn))) return;
    try {
      const answer = await end(signIn.client);
      // The server's list after the ending.
      setSignIns(answer.sign_ins);
      setOutcome({ type: answer.ended > 0 ? 'success' : 'info', text: words.ended(signIn, answer.ended > 0) });
      onEnded?.();
    } catch (error) {
      setOutcome({ type: 'error', text: errorText(error) });
    } finally {
      confirmation.finish();
    }
  };

  if (state.status === 'idle' || state.status === 'loading' || (state.status === 'ready' && signIns === undefined)) return <div aria-busy="true" />;
  if (state.status === 'ready' && !state.value.available) return null;
  return (
    <section aria-labelledby={headingId} style={{ marginTop: 24 }}>
      <Typography.Title level={3} id={headingId}>
        {SERVICE_SIGN_INS_TITLE}
      </Typography.Title>
      {state.status === 'failed' ? (
        <Alert type="warning" showIcon role="alert" title={serviceSignInsError(state.error)} />
      ) : (
        <>
          {outcome && <Alert type={outcome.type} showIcon role={outcome.type === 'error' ? 'alert' : 'status'} title={outcome.text} style={{ marginBottom: 12 }} />}
          <TableLoadBoundary message={SERVICE_SIGN_INS_TABLE_ERROR}>
            <Suspense
              fallback={
                <div role="status" aria-busy="true" aria-label="Loading the sign-ins to services">
                  <Skeleton active title={false} paragraph={{ rows: 2 }} />
                </div>
              }
            >
              <Table signIns={signIns ?? []} words={words} onEnd={(signIn) => void endOne(signIn)} />
            </Suspense>
          </TableLoadBoundary>
          <ConfirmModal title={confirmation.subject ? words.confirmTitle(confirmation.subject) : ''} okText={words.okText} {...confirmation.modal}>
            {confirmation.subject && <Typography.Paragraph>{words.confirmText(confirmation.subject)}</Typography.Paragraph>}
          </ConfirmModal>
        </>
      )}
    </section>
  );
}
