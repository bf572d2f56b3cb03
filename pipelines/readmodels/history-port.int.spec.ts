// The History contract on the port seam: chdb served on one end of a MessageChannel (as the pipeline
// thread serves its history, PIPELINE_THREAD), PortHistory on the other (as the API's thread reads it).
import { MessageChannel } from 'node:worker_threads';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { historyContract } from './history.contract.ts';
import { ChdbHistory } from './chdb-history.ts';
import { historyFacts, PortHistory, serveHistory } from './history-port.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-chdb-port-'));
historyContract('port (chdb behind it)', async (database) => {
  const served = await ChdbHistory.open(dir, database);
  const ch = new MessageChannel();
  serveHistory(served, ch.port1);
  const client = new PortHistory(ch.port2, historyFacts(served));
  // Closing the client closes the served history too, as the contract's afterAll expects of a History.
  const close = client.close.bind(client);
  client.close = async () => {
    await close();
    ch.port1.close();
    await served.close();
  };
  return client;
});
