// `npm run bench [name…]`: runs every registered benchmark (or the named ones) in sequence.
import { benches } from './index.ts';

const wanted = process.argv.slice(2);
const names = wanted.length ? wanted : Object.keys(benches);
for (const name of names) {
  const load = benches[name as keyof typeof benches];
  if (!load) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n=== ${name} ===`);
  const module = (await load()) as { run(): Promise<unknown> };
  await module.run();
}
process.exit(0);
