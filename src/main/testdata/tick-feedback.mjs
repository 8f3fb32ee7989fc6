// Child script of keep-tick-shape.test.ts (run with --allow-natives-syntax --expose-gc --import tsx): loads the
// keeper, lets ticks run across full garbage collections, then prints the state of the inline caches of
// `process.nextTick`'s queue-entry literal as V8 reports them (the only thing it prints).
await import('../keep-tick-shape.ts');
const debugPrint = new Function('f', 'return %DebugPrint(f)');
const tick = () => new Promise((resolve) => process.nextTick(resolve));
for (let round = 0; round < 8; round++) {
  for (let i = 0; i < 20_000; i++) await tick();
  await new Promise((resolve) => setTimeout(resolve, 1));
  globalThis.gc();
}
debugPrint(process.nextTick);
