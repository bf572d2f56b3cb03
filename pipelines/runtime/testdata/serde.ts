// The serde the kill test's processes share: both must resolve the same schema ids.
import type { Serde } from '../../serde/index.ts';
import { jsonSerde } from '../../serde/index.ts';

export async function workerSerde(_dir: string): Promise<Serde> {
  return jsonSerde();
}
