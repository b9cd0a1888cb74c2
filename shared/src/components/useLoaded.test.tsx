import { act, renderHook } from '@testing-library/react';
import { errorText, useLoaded } from './useLoaded';

/** A load whose answer the test gives, keeping the signal it was handed. */
function pending<T>() {
  const signals: AbortSignal[] = [];
  let answer: (value: T) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const load = (signal: AbortSignal) => {
    signals.push(signal);
    return new Promise<T>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
  };
  return { load, signals, answer: (value: T) => answer(value), fail: (error: unknown) => fail(error) };
}

describe('useLoaded', () => {
  it('is idle without a load, loading, then ready with the answer', async () => {
    const call = pending<string>();
    const { result, rerender } = renderHook(({ load }) => useLoaded(load), { initialProps: { load: undefined as typeof call.load | undefined } });
    expect(result.current).toEqual({ status: 'idle' });
    rerender({ load: call.load });
    expect(result.current.status).toBe('loading');
    await act(async () => call.answer('jane.doe'));
    expect(result.current).toEqual({ status: 'ready', value: 'jane.doe' });
  });

  it('fails with the error', async () => {
    const call = pending<string>();
    const { result } = renderHook(() => useLoaded(call.load));
    await act(async () => call.fail(new Error('Forbidden')));
    expect(result.current).toEqual({ status: 'failed', error: new Error('Forbidden') });
  });

  it('aborts the call when the page leaves, and ignores its answer', async () => {
    const call = pending<string>();
    const { result, unmount } = renderHook(() => useLoaded(call.load));
    unmount();
    expect(call.signals[0]?.aborted).toBe(true);
    await act(async () => call.answer('late'));
    expect(result.current.status).toBe('loading');
  });

  it('keeps what it showed while the next load runs', async () => {
    const first = pending<string>();
    const second = pending<string>();
    const { result, rerender } = renderHook(({ load }) => useLoaded(load), { initialProps: { load: first.load } });
    await act(async () => first.answer('page 1'));
    rerender({ load: second.load });
    expect(result.current).toEqual({ status: 'loading', previous: 'page 1' });
    expect(second.signals).toHaveLength(1);
  });
});

describe('errorText', () => {
  it("is the error's message, else a generic one", () => {
    expect(errorText(new Error('Forbidden'))).toBe('Forbidden');
    expect(errorText(new Error(''))).toBe('Unknown server error');
    expect(errorText('nope')).toBe('Unknown server error');
  });
});
