// Ends this process for an operator's stop once its work is done, even with a worker thread still
// inside native code. process.exit() joins every worker thread first, and a history worker abandoned
// inside a chdb call (minutes, bench/soak.md run 14) holds that join until the call returns. Dying by
// the signal the operator sent does not wait for threads; supervisors count an end by SIGINT or
// SIGTERM as a clean stop (systemd's SuccessExitStatus default; Kubernetes asked for it).

/** Ends the process: by `signal` (its default action) when threads may hang, else process.exit(code). */
export function endProcess(signal: NodeJS.Signals | null, code = 0): void {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code);
}
