// The simulator thread's body (thread.ts starts it): one simulator, its base URL to the parent,
// closed and gone on 'close'.
import { parentPort, workerData } from 'node:worker_threads';
import { startSimulator } from './server.ts';
import type { ThreadOptions } from './thread.ts';

const port = parentPort!;
try {
  const sim = await startSimulator((workerData as { options: ThreadOptions }).options);
  port.on('message', (m) => {
    if (m !== 'close') return;
    void sim.close().finally(() => port.close());
  });
  port.postMessage({ ready: true, baseUrl: sim.baseUrl });
} catch (e) {
  port.postMessage({ ready: false, error: String((e as Error)?.stack ?? e) });
}
