// madvise(MADV_DONTNEED) for Node (N-API, no dependencies): pipelines/runtime/code-pages.ts passes the
// ranges of the process's read-only file mappings (libchdb's and node's code and constants) whose
// pages are all the file's own, so the kernel unmaps them from this process and maps them again from
// the page cache as they are next used. Built at install by bin/build-workers.ts when a C compiler and
// Node's headers are there; without it the pages stay mapped.
#include <node_api.h>
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>

// drop(start: bigint, length: bigint): 0, or the errno of madvise.
static napi_value Drop(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2) return NULL;
  uint64_t start = 0, length = 0;
  bool lossless = false;
  if (napi_get_value_bigint_uint64(env, argv[0], &start, &lossless) != napi_ok || !lossless) return NULL;
  if (napi_get_value_bigint_uint64(env, argv[1], &length, &lossless) != napi_ok || !lossless) return NULL;
  int r = madvise((void *)(uintptr_t)start, (size_t)length, MADV_DONTNEED);
  napi_value out;
  napi_create_int32(env, r == 0 ? 0 : errno, &out);
  return out;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "drop", NAPI_AUTO_LENGTH, Drop, NULL, &fn);
  napi_set_named_property(env, exports, "drop", fn);
  return exports;
}
