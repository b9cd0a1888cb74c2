// The asynchronous boundary module federation needs: shared modules (react, react-dom …) are
// negotiated with the share scope before bootstrap runs. It is built into this first file
// (webpackMode "eager": no request of its own), so the shell's chunk is the next thing fetched.
import { nextTask } from './nextTask';

// In a task of its own, after the federation's runtime has started: React and the first render
// are not one long task with the runtime's start (a long task is blocking time on a phone).
nextTask()
  .then(() => import(/* webpackMode: "eager" */ './bootstrap'))
  .catch((error: unknown) => {
    console.error('The portal could not start.', error);
    const root = document.getElementById('root');
    if (root) {
      root.innerHTML =
        '<p role="alert" style="padding:24px">The portal could not start. Please reload the page; if the problem persists, please contact an administrator.</p>';
    }
  });
