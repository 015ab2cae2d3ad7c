// Reading a process's Prometheus exposition (contract §15.3) in tests.
import assert from "node:assert/strict";

/** GET <baseUrl>/metrics: answers the text, after checking the status and content type. */
export async function scrapeMetrics(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
  assert.equal(res.status, 200, `${baseUrl}/metrics answered ${res.status}`);
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one sample (name with its labels, as exposed), or undefined when absent. */
export function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The sum of every sample of a metric, whatever its labels (0 when it has none). */
export function sampleSum(metrics: string, name: string): number {
  return metrics
    .split("\n")
    .filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}
