// Types of worker-entry.mjs (plain JavaScript: the worker launcher imports it before any loader).
export declare const REPO_ROOT: string;
export declare const BUILD_DIR: string;
export declare function compiledEntry(entry: string, buildDir?: string): { url: string } | { url: null; why: string };
