/** Work a server process repeats on a schedule (started after listen, stopped at shutdown, no timer left). */
export interface Periodic {
  stop(): Promise<void>;
}

export function startPeriodic(options: { intervalMs: number; run: () => Promise<unknown>; onError: (error: unknown) => void }): Periodic {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = running.then(() => options.run()).catch(options.onError);
  };
  tick();
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
