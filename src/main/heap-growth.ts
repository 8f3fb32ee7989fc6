import { setFlagsFromString } from 'node:v8';
import { variables } from '../config/env.ts';

/**
 * Sets how far the old generation may grow past the last full collection's survivors before V8 starts the
 * next one (`MERIDIAN_HEAP_GROWTH_PERCENT`, V8's `--heap-growing-percent`). Imported by the CLI before
 * anything else allocates much.
 *
 * V8 picks that margin from how fast the program allocates against how fast it collects. Under load a server
 * collects its old generation fast, so V8 picks a margin of 10–20 %: with Meridian's ≈ 60 MB of live heap, a
 * full collection every 1–3 s, each with tens of milliseconds of marking on the request thread and a final
 * pause of 4–10 ms. Those collections set the p99 under load and cost throughput
 * (docs/adr/0018-heap-growth.md). A margin of 300 % — a factor of 4, the largest V8
 * picks by itself on a machine with ample memory (`kHighFactor` in V8's heap-controller.cc) — lets the heap
 * reach about four times its live size first: up to ≈ 180 MB more heap for full collections minutes apart.
 * A program that allocates faster than V8 collects gets that margin from V8 anyway (heap-growth.test.ts).
 * The flag replaces V8's choice in every mode, its memory-saving ones included (small devices, where V8
 * caps the factor at 1.3–2, and memory pressure); the limit still stays below halfway to the maximum heap
 * size. On a machine short of memory set it lower, or to 0. V8 reads the flag at every collection, so
 * setting it at start-up acts like the command-line flag; no library sets V8 flags, hence this module.
 */
export function heapGrowthPercent(): number {
  try {
    return variables.heapGrowthPercent.parse(process.env[variables.heapGrowthPercent.name]);
  } catch {
    // An invalid value: the configuration, loaded next, reports it and stops.
    return 0;
  }
}

const percent = heapGrowthPercent();
if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
