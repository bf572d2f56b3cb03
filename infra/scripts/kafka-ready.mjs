/* global process, console, setTimeout */
// Health check: resolves when the broker at $1 answers a metadata request (kafkajs describeCluster),
// exits 1 after $2 seconds. Plain ESM so it runs without tsx.
import kafkajs from 'kafkajs';
const { Kafka, logLevel } = kafkajs;
const broker = process.argv[2] ?? '127.0.0.1:9092';
const deadline = Date.now() + Number(process.argv[3] ?? 60) * 1000;
const kafka = new Kafka({ clientId: 'kafka-ready', brokers: [broker], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
for (;;) {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    await admin.disconnect();
    console.log(`kafka-ready: ${broker} answers metadata (controller ${cluster.controller}, ${cluster.brokers.length} broker)`);
    process.exit(0);
  } catch {
    await admin.disconnect().catch(() => {});
    if (Date.now() > deadline) {
      console.error(`kafka-ready: ${broker} did not answer metadata in time`);
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
