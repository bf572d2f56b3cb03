// The pipeline thread's body (pipeline-thread.ts starts it): runService with the roles of the
// pipeline (simulator, pollers, processors) and the main thread's snapshot store behind a port; its
// history, and its log's tails for the push stream, served to the main thread on ports; 'stop' runs its stop and answers whether work in
// flight was abandoned.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Config } from '../../lib/config.ts';
import { runService } from '../../bin/run.ts';
import { PortSnapshotStore } from '../readmodels/store-port.ts';
import { historyFacts, serveHistory, type HistoryFacts } from '../readmodels/history-port.ts';
import { toWireError } from './history-host.ts';
import { metricsText } from './metrics.ts';
import { serveLogTail } from '../log/log-port.ts';
import type { Log } from '../log/types.ts';
import type { PipelineCall, PipelineReply } from './pipeline-thread.ts';
import { replyTo } from './port-calls.ts';

const port = parentPort!;
const data = workerData as { config: Config; storePort: MessagePort; historyPort: MessagePort; logPort?: MessagePort };
const say = (m: PipelineReply) => port.postMessage(m);

process.on('uncaughtException', (e) => say({ fatal: toWireError(e) }));
process.on('unhandledRejection', (e) => say({ fatal: toWireError(e) }));

try {
  const store = new PortSnapshotStore(data.storePort);
  let history: HistoryFacts | undefined;
  let logKind: Log['kind'] | undefined;
  const svc = await runService(
    { ...data.config, ROLES: 'simulator,pollers,processors', PIPELINE_THREAD: false },
    {
      quiet: true,
      store,
      onBackbone: (b) => {
        if (b.history) {
          serveHistory(b.history, data.historyPort);
          history = historyFacts(b.history);
        }
        if (b.log && data.logPort) {
          serveLogTail(b.log, b.registry, data.logPort);
          logKind = b.log.kind;
        }
      },
    },
  );
  port.on('message', (m: 'stop' | PipelineCall) => {
    if (typeof m === 'object') {
      if (m.op === 'metrics') replyTo(port, m.id, metricsText());
      return;
    }
    if (m !== 'stop') return;
    void svc.stop().then(() => {
      say({ stopped: true, abandoned: svc.abandoned() });
      data.historyPort.close();
      data.logPort?.close();
      port.close();
    });
  });
  say({ ready: true, venueBaseUrl: svc.venueBaseUrl, sqlAddress: svc.sqlAddress, metricsAddress: svc.metricsAddress, history: history!, log: logKind });
} catch (e) {
  say({ ready: false, error: toWireError(e) });
}
