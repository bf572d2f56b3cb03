// The simulator on a worker thread of its own. In: the options of startSimulator (serializable ones:
// seed, scale, port, host, a scenario by name or path). Out: its base URL and close().
//
// Why: in the embedded default the simulator stands in for nine venues, and during a large crawl
// answering the pollers (building and serializing listing pages) is as much work as reading them.
// On the API's event loop that work delays every request; on its own thread it uses the second core
// and the API's loop only sees the pollers' side. The venues are HTTP servers in production too, so
// nothing changes for the pollers or the live routes (they only ever had its base URL).
import { Worker } from 'node:worker_threads';
import type { SimulatorOptions } from './server.ts';
import { WORKER_RESOURCE_LIMITS } from '../../runtime/worker-heap.ts';

export type ThreadOptions = Omit<SimulatorOptions, 'clock' | 'scenario'> & { scenario?: string; /** The thread's nice value (WORKER_NICE; ts-worker.mjs). */ nice?: number };

export interface SimulatorThread {
  baseUrl: string;
  close(): Promise<void>;
}

interface Ready {
  ready: true;
  baseUrl: string;
}
interface Failed {
  ready: false;
  error: string;
}

export async function startSimulatorThread(options: ThreadOptions): Promise<SimulatorThread> {
  const worker = new Worker(new URL('../../runtime/ts-worker.mjs', import.meta.url), {
    workerData: { entry: new URL('./thread-worker.ts', import.meta.url).href, options, nice: options.nice },
    resourceLimits: WORKER_RESOURCE_LIMITS,
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const first = await new Promise<Ready | Failed>((resolve, reject) => {
    worker.once('message', (m: Ready | Failed) => resolve(m));
    worker.once('error', reject);
    void exited.then(() => reject(new Error('the simulator thread exited before it listened')));
  });
  if (!first.ready) {
    await worker.terminate();
    throw new Error(`the simulator thread failed to start: ${first.error}`);
  }
  return {
    baseUrl: first.baseUrl,
    async close() {
      // The thread closes its server (in-flight answers end) and exits by itself; terminate only if not.
      worker.postMessage('close');
      const done = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5_000).unref())]);
      if (!done) await worker.terminate();
    },
  };
}
