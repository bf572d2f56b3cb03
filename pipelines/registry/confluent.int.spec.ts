// The registry contract against a Confluent-compatible server through @kafkajs/confluent-schema-registry:
// SCHEMA_REGISTRY_URL (`make up` and .ci/run start Apicurio Registry: infra/scripts/start-registry.sh),
// else a testcontainers registry where Docker answers; skipped with the reason otherwise.
import { describe } from 'vitest';
import { available, requireRegistry } from '../../test/services/index.ts';
import { ConfluentRegistry } from './confluent.ts';
import { registryContract } from './registry.contract.ts';

const registry = await available('registry');

describe.skipIf(!registry.ok)(`Confluent-compatible registry (${registry.reason})`, () => {
  registryContract('confluent', async () => {
    const { url } = await requireRegistry();
    return { open: async () => new ConfluentRegistry(url) };
  });
});
