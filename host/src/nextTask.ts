/**
 * Resolves in a task of its own, so that no task is long (blocking time): the start's work before and after an
 * `await nextTask()` runs as two tasks, so the browser can paint and answer input between them
 * instead of being held for one long task. Nothing here may import a shared module: the first
 * file's entry uses it before the share scope is set up.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
}
