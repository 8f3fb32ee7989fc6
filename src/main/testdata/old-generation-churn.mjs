// Keeps ≈ 40 MB alive, then allocates small objects that each live long enough to be promoted to the old
// generation and die there (a ring of the last 400,000), as a server's medium-lived objects do under load,
// and prints how many full (mark-compact) collections that took. Run by heap-growth.test.ts.
import '../heap-growth.ts';
import { PerformanceObserver, constants } from 'node:perf_hooks';

let major = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
});
observer.observe({ entryTypes: ['gc'] });

const live = Array.from({ length: 40 }, () => new Array(131_072).fill(1.5));
const ring = new Array(400_000);
for (let i = 0; i < 20_000_000; i++) ring[i % ring.length] = { i, name: `n${i & 1023}` };
await new Promise((resolve) => setTimeout(resolve, 100));
observer.disconnect();
console.log(JSON.stringify({ major, kept: live.length + ring.length }));
