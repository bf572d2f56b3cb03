# The two commands a newcomer needs: `make run` (embedded default) and `make test`.
# Each installs what it needs first. The stack targets (`up`, `down`) start real Kafka, the schema
# registry and Redis from infra/scripts (no Docker needed) or infra/compose.yaml where Docker runs.
.PHONY: install run test test-unit test-int test-e2e test-stack lint typecheck up down bench keys fuzz

# Plain `npm ci`: installs exactly the lock and never writes it, so `make run` on a fresh machine
# installs what was tested. chdb's optional per-platform binaries that the registry does not serve
# (@chdb/lib-darwin-*, lib-linux-arm64-gnu) are recorded in the lock with their os/cpu, so npm ci
# skips them on other platforms instead of finding the lock out of sync.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# The worker threads' entries and bin/run.ts compiled to .build/workers/ (bin/build-workers.ts,
# esbuild, under a second): workers start from them without a tsx loader thread each (15-17 MB RSS per
# worker, bench/soak.md), and so does the main thread (bin/start.mjs). Rebuilt at every install, so
# `make run` starts from current code; without a build, or after a source changed, each falls back to tsx.
# With them the code-pages addon (native/code-pages.c, `cc` and Node's headers; skipped without them).
install: node_modules/.installed
	node --import tsx bin/build-workers.ts

# MALLOC_ARENA_MAX=2: glibc's malloc gives each allocating thread an arena of its own (up to 8 per
# core); the service's threads filled 15-17 and held 145-305 MB of RSS at scale 1 (bench/soak.md,
# 2026-11-27, the malloc arenas). GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072: glibc's own
# starting threshold, held fixed. By default glibc raises it to the size of each mmap'd chunk freed
# (up to 32 MB), so after the first large free every Buffer and chdb block up to that size comes from
# the arenas, where one small live chunk above the freed ones keeps them in RSS. Held fixed, the scale-1
# soak's mean RSS was 56-109 MB lower (bench/soak.md, runs 67-76, 2026-11-27). Both are read by glibc at
# the process's start, so they are set here and in npm start. WORKER_CPUS=auto: every thread but the
# API's kept off the first CPU (lib/config.ts; bench/crawl-latency.md, 2026-11-27 16:46 UTC).
# --single-threaded-gc: each V8 isolate collects on its own thread. Otherwise the API thread's
# scavenges use V8's helper threads, which WORKER_CPUS keeps on the pipeline's busy CPU, and during a
# 1,000,000-market crawl they took 11-18 ms instead of 3-5 (bench/crawl-latency.md, the catalog route,
# 2026-11-27 19:01-20:22 UTC). --no-memory-reducer: for the API's thread alone (the workers get it back,
# pipelines/runtime/worker-heap.ts); its memory-reducing full collections after the catalog's load
# shrank the API's young generation and paused it 10-55 ms: with both flags the catalog route's p99 in
# a crawl was 1.00-2.50x idle corrected for coordinated omission (5 of 6 rounds within 2x) and
# 0.56-1.43x exact, against 1.00-5.50x and 0.63-2.57x without this one (bench/crawl-latency.md,
# "make run's heaps in the bench", 2026-11-27 21:19-21:58 UTC).
run: install
	WORKER_CPUS=auto MALLOC_ARENA_MAX=2 GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072 node --single-threaded-gc --no-memory-reducer --max-semi-space-size=16 bin/start.mjs

# The history SQL port's Python client test (pipelines/readmodels/sql-port-python.int.spec.ts) runs
# clickhouse-connect, pinned, from a venv under .infra/ (python3 with venv needed; .ci/run installs it).
CLICKHOUSE_CONNECT_VERSION := 1.12.0
SQL_VENV := .infra/sql-venv

$(SQL_VENV)/.clickhouse-connect-$(CLICKHOUSE_CONNECT_VERSION):
	python3 -m venv $(SQL_VENV)
	$(SQL_VENV)/bin/pip install --quiet --disable-pip-version-check clickhouse-connect==$(CLICKHOUSE_CONNECT_VERSION)
	@touch $@

# The whole suite: Redis, Kafka and the schema registry started on free ports for it and stopped after
# (infra/scripts/with-test-services.sh, as in CI); nothing skipped for a missing service.
test: install $(SQL_VENV)/.clickhouse-connect-$(CLICKHOUSE_CONNECT_VERSION)
	npx tsc --noEmit -p .
	npx eslint --max-warnings 0 .
	bash infra/scripts/with-test-services.sh npx vitest run

test-unit: install
	npx vitest run --project unit

test-int: install
	bash infra/scripts/with-test-services.sh npx vitest run --project int

test-e2e: install
	bash infra/scripts/with-test-services.sh npx vitest run --project e2e

# The chaos suite of the scale-out stack (test/stack/chaos.ts): starts Kafka, Redis and the registry
# (`make up`) and the stack (infra/scripts/stack.sh) on free ports of its own, kills and restarts its
# parts under load, checks recovery, served content, keys and the rate limiter; about 8 minutes. Not
# part of `make test`; .ci/run runs it after it. CHAOS_PROCESSORS=0 leaves out the processors steps.
test-stack: install
	node --max-semi-space-size=64 --import tsx test/stack/chaos.ts

lint: install
	npx eslint --max-warnings 0 .

typecheck: install
	npx tsc --noEmit -p .

up:
	bash infra/scripts/up.sh

down:
	bash infra/scripts/down.sh

keys: install
	npx tsx bin/keys.ts $(ARGS)

# Property-based fuzzing of the embedded service against its own /v1/openapi.json (schemathesis,
# pinned, in a venv under .infra/). Not in `make test`; .ci/run runs one (FUZZ_EXAMPLES=100, over 5,000 requests)
# after it. FUZZ_EXAMPLES (default 25 per operation); ARGS go to `schemathesis run`.
SCHEMATHESIS_VERSION := 4.32.5
FUZZ_VENV := .infra/fuzz-venv

$(FUZZ_VENV)/.schemathesis-$(SCHEMATHESIS_VERSION):
	python3 -m venv $(FUZZ_VENV)
	$(FUZZ_VENV)/bin/pip install --quiet --disable-pip-version-check schemathesis==$(SCHEMATHESIS_VERSION)
	@touch $@

fuzz: install $(FUZZ_VENV)/.schemathesis-$(SCHEMATHESIS_VERSION)
	bash infra/scripts/fuzz.sh $(ARGS)
