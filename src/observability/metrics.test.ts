import { describe, expect, it } from 'vitest';
import { periodicJob } from '../shared/periodic-job.ts';
import { createMetrics } from './metrics.ts';

const lineOf = (text: string, labels: string) =>
  text.split('\n').find((l) => l.startsWith('meridian_http_') && l.includes(labels));
const sampleValue = (line: string | undefined) => Number(line?.split(' ').pop());

describe('counters batched for the hot path', () => {
  it('hands each increment to prom-client exactly once, however often the registry is scraped', async () => {
    const metrics = createMetrics();
    const ok = metrics.http.series('GET', '/api/account', 200);
    ok.record(0.002);
    ok.record(0.02);
    const first = await metrics.registry.metrics();
    expect(sampleValue(lineOf(first, 'requests_total{method="GET",route="/api/account",status="200"}'))).toBe(
      2,
    );
    // A second scrape with nothing new reads the same totals; then new increments add to them.
    const second = await metrics.registry.metrics();
    expect(
      sampleValue(lineOf(second, 'requests_total{method="GET",route="/api/account",status="200"}')),
    ).toBe(2);
    ok.record(0.5);
    const third = await metrics.registry.metrics();
    expect(sampleValue(lineOf(third, 'requests_total{method="GET",route="/api/account",status="200"}'))).toBe(
      3,
    );
    expect(sampleValue(lineOf(third, 'duration_seconds_count{route="/api/account"}'))).toBe(3);
  });

  it('two series resolved for the same labels add up in one line', async () => {
    const metrics = createMetrics();
    const labels = { method: 'GET', route: '/api/market-data', status: '200' };
    const a = metrics.http.requests.batched(labels);
    const b = metrics.http.requests.batched(labels);
    a.inc();
    b.inc();
    b.inc();
    const text = await metrics.registry.metrics();
    expect(
      sampleValue(lineOf(text, 'requests_total{method="GET",route="/api/market-data",status="200"}')),
    ).toBe(3);
  });
});

describe('periodic jobs', () => {
  it('exports the runs, skipped ticks and failures of each job, skipped ticks and failures labelled by its name', async () => {
    const job = periodicJob({
      name: 'metrics-test-job',
      everyMs: 60_000,
      run: () => {
        throw new Error('down');
      },
    });
    await job.runNow();
    await job.runNow();
    const text = await createMetrics().registry.metrics();
    expect(text).toContain('meridian_job_runs_total{job="metrics-test-job"} 2');
    expect(text).toContain('meridian_job_failures_total{job="metrics-test-job"} 2');
    expect(text).toContain('meridian_job_skipped_runs_total{job="metrics-test-job"} 0');
  });
});
