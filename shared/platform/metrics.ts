// The Prometheus registry and every metric the service exports (contract §15.3).
import { getHeapStatistics } from "node:v8";
import { PerformanceObserver } from "node:perf_hooks";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, Summary } from "prom-client";

export interface Metrics {
  registry: Registry;
  httpRequestDuration: Histogram<"method" | "route" | "status_code" | "protocol">;
  authLogins: Counter<"status">;
  taskRuns: Counter<"state">;
  issueApprovalDuration: Histogram;
  planCheckRunDuration: Histogram<"status">;
  notificationDeliveries: Counter<"channel" | "status">;
  notificationDeliveryDelay: Histogram<"channel">;
  jobsPending: Gauge;
  jobsRunning: Gauge;
}

export interface JobCounts {
  pending: number;
  running: number;
}

/** Counts of background jobs, read when /metrics is scraped. */
export type JobCounter = () => Promise<JobCounts>;

export interface MetricsOptions {
  /** libuv thread-pool size (UV_THREADPOOL_SIZE), shown as go_threads. */
  threadPoolSize: number;
  countJobs?: JobCounter;
}

/**
 * http_requests_total, read from the duration histogram's counts when scraped:
 * each request is then recorded once (a labelled observation costs about a
 * microsecond, on every request), and the two can never disagree.
 */
function registerRequestCounter<L extends string>(durations: Histogram<L>, labelNames: readonly L[], registry: Registry): void {
  const countName = "http_request_duration_seconds_count";
  new Counter({
    name: "http_requests_total",
    help: "HTTP requests served.",
    labelNames,
    registers: [registry],
    async collect() {
      const { values } = await durations.get();
      this.reset();
      for (const { metricName, labels, value } of values) if (metricName === countName) this.inc(labels as Partial<Record<L, string>>, value);
    },
  });
}

/**
 * How often the event-loop lag is sampled (nodejs_eventloop_lag_*): each
 * sample is a timer that wakes the process, and prom-client's 10 ms woke
 * every process 100 times a second, busy or idle (decision 0139).
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * The registry's Prometheus text. prom-client writes a NaN sample as `Nan`,
 * which the text format's grammar does not have (Prometheus's own parser is
 * lenient, stricter ones refuse it); the event-loop lag gauges are NaN when
 * no sample fell between two scrapes.
 */
export async function exposition(metrics: Metrics): Promise<string> {
  return (await metrics.registry.metrics()).replaceAll(/ Nan$/gm, " NaN");
}

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  const readJobCounts = jobCountReader(options.countJobs);
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  registerGoCompatibility(registry, options.threadPoolSize);
  const httpLabels = ["method", "route", "status_code", "protocol"] as const;
  const httpRequestDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Duration of HTTP requests, by route template.",
    labelNames: httpLabels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  registerRequestCounter(httpRequestDuration, httpLabels, registry);
  return {
    registry,
    httpRequestDuration,
    authLogins: new Counter({ name: "svc_auth_login_total", help: "Sign-in attempts by outcome.", labelNames: ["status"], registers: [registry] }),
    taskRuns: new Counter({ name: "svc_task_run_total", help: "Task runs that reached a state.", labelNames: ["state"], registers: [registry] }),
    issueApprovalDuration: new Histogram({
      name: "svc_issue_approval_duration_seconds",
      help: "Time from an issue's approval request to its final approval.",
      buckets: [60, 300, 900, 3600, 4 * 3600, 24 * 3600, 7 * 24 * 3600],
      registers: [registry],
    }),
    planCheckRunDuration: new Histogram({
      name: "svc_plan_check_run_duration_seconds",
      help: "Duration of plan check runs.",
      labelNames: ["status"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    notificationDeliveries: new Counter({
      name: "svc_notification_deliveries_total",
      help: "Notification delivery attempts by channel and outcome (SENT, RETRY, FAILED).",
      labelNames: ["channel", "status"],
      registers: [registry],
    }),
    notificationDeliveryDelay: new Histogram({
      name: "svc_notification_delivery_delay_seconds",
      help: "Time from an event to the successful delivery of its notification.",
      labelNames: ["channel"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers: [registry],
    }),
    jobsPending: new Gauge({
      name: "svc_jobs_pending",
      help: "Background jobs waiting to run.",
      registers: [registry],
      async collect() {
        const counts = await readJobCounts();
        if (counts) this.set(counts.pending);
      },
    }),
    jobsRunning: new Gauge({
      name: "svc_jobs_running",
      help: "Background jobs running now.",
      registers: [registry],
      async collect() {
        const counts = await readJobCounts();
        if (counts) this.set(counts.running);
      },
    }),
  };
}

const JOB_COUNT_TIMEOUT_MS = 1_000;

/**
 * The queue's counts for a scrape: one read serves both gauges (the
 * registry collects them together), and none comes back when the store does
 * not answer within 1 s, so that a scrape still shows every other metric at
 * once (the gauges keep their last value).
 */
function jobCountReader(countJobs: JobCounter | undefined): () => Promise<JobCounts | undefined> {
  let reading: Promise<JobCounts | undefined> | undefined;
  const read = async () => {
    if (!countJobs) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), JOB_COUNT_TIMEOUT_MS);
    });
    try {
      return await Promise.race([countJobs().catch(() => undefined), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  return () => (reading ??= read().finally(() => (reading = undefined)));
}

// The specification names Go runtime metrics. They are exported with the
// Node.js meaning documented in contract §15.3 (and docs/operations.md).
function registerGoCompatibility(registry: Registry, threadPoolSize: number): void {
  const registers = [registry];
  new Gauge({
    name: "go_goroutines",
    help: "Node.js: active handles plus active requests of the event loop.",
    registers,
    collect() {
      this.set(process.getActiveResourcesInfo().length);
    },
  });
  new Gauge({
    name: "go_threads",
    help: "Node.js: size of the libuv thread pool.",
    registers,
    collect() {
      this.set(threadPoolSize);
    },
  });
  const memory: [string, string, () => number][] = [
    ["go_memstats_alloc_bytes", "Node.js: V8 heap used.", () => process.memoryUsage().heapUsed],
    ["go_memstats_heap_alloc_bytes", "Node.js: V8 heap used.", () => process.memoryUsage().heapUsed],
    ["go_memstats_heap_sys_bytes", "Node.js: V8 heap total.", () => getHeapStatistics().total_heap_size],
    ["go_memstats_sys_bytes", "Node.js: resident set size.", () => process.memoryUsage.rss()],
  ];
  for (const [name, help, read] of memory) {
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  }
  const gc = new Summary({ name: "go_gc_duration_seconds", help: "Node.js: garbage collection pause durations.", registers, percentiles: [0, 0.25, 0.5, 0.75, 1] });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gc.observe(entry.duration / 1000);
  }).observe({ entryTypes: ["gc"] });
}
