// The error catalog and ApiError, as the API's routes and plugins import them. They live in
// lib/errors.ts, below both api/ and pipelines/ (the venue client raises the same upstream errors),
// so pipelines/ never imports api/.
export * from '../lib/errors.ts';
