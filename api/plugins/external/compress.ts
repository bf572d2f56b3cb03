// gzip (spec: "Limits": "Responses are compressed for clients sending Accept-Encoding: gzip, and
// carry Vary: Accept-Encoding"). @fastify/compress on every route with threshold 0, so small
// bodies are compressed too; the shell sets Vary itself on every response (compress only adds it
// when it compresses), and errors answered outside any route are gzipped by the shell.
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export async function registerCompress(app: FastifyInstance): Promise<void> {
  await app.register(compress, { global: true, threshold: 0, encodings: ['gzip'] });
}
