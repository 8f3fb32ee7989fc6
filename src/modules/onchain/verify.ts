import { classifyTransfer, type Flow, flowId, type LabelLookup } from './classify.ts';
import type { ChainSource } from './ports.ts';
import type { OnchainRepository } from './repository.ts';

/** The fields of a stored flow that re-reading the node must reproduce exactly (USD depends on prices: not compared). */
const COMPARED = [
  'blockNumber',
  'blockHash',
  'txIndex',
  'timeMs',
  'direction',
  'asset',
  'tokenAddress',
  'amountRaw',
  'decimals',
] as const;

export interface VerifyReport {
  chain: string;
  fromBlock: number;
  toBlock: number;
  blocks: number;
  /** Flows the node and the labels give, and the stored ones, in the range. */
  derived: number;
  stored: number;
  /** Derived from the node but not stored. */
  missing: string[];
  /** Stored but not derivable from the node (e.g. from an orphaned block). */
  unexpected: string[];
  /** Stored and derived, with the fields that differ (stored → derived). */
  differing: Array<{ id: string; fields: Array<{ field: string; stored: unknown; derived: unknown }> }>;
  /** Stored flows classified by another label set than the one verifying (their differences may be labels). */
  otherLabelVersions: string[];
  ok: boolean;
}

const addressOf = (f: Flow) => `${f.from.address}>${f.to.address}`;

/**
 * Re-derives the flows of a block range from the node (the same source and classification as the indexer)
 * and compares them with what storage holds: anyone with a node can check every stored number.
 */
export async function verifyFlows(options: {
  source: ChainSource;
  repo: OnchainRepository;
  labels: LabelLookup;
  fromBlock: number;
  toBlock: number;
}): Promise<VerifyReport> {
  const { source, repo, labels, fromBlock, toBlock } = options;
  const chain = source.chain;
  const interest = (address: string) => labels.lookup(chain, address) !== undefined;
  const derived = new Map<string, Flow>();
  let blocks = 0;
  for (let n = fromBlock; n <= toBlock; n++) {
    const block = await source.block(n, interest);
    if (!block) break;
    blocks++;
    for (const transfer of block.transfers)
      for (const flow of classifyTransfer(transfer, block, chain, labels, undefined))
        derived.set(flowId(flow), flow);
  }
  const stored = await repo.flowsInBlocks(chain, fromBlock, toBlock);
  const report: VerifyReport = {
    chain,
    fromBlock,
    toBlock,
    blocks,
    derived: derived.size,
    stored: stored.length,
    missing: [],
    unexpected: [],
    differing: [],
    otherLabelVersions: [],
    ok: true,
  };
  const versions = new Set<string>();
  for (const flow of stored) {
    const id = flowId(flow);
    if (flow.labelVersion !== labels.version) versions.add(flow.labelVersion ?? '(none)');
    const twin = derived.get(id);
    if (!twin) {
      report.unexpected.push(id);
      continue;
    }
    derived.delete(id);
    const fields: VerifyReport['differing'][number]['fields'] = [];
    for (const field of COMPARED)
      if (flow[field] !== twin[field]) fields.push({ field, stored: flow[field], derived: twin[field] });
    if (addressOf(flow) !== addressOf(twin))
      fields.push({ field: 'from>to', stored: addressOf(flow), derived: addressOf(twin) });
    if (fields.length) report.differing.push({ id, fields });
  }
  report.missing = [...derived.keys()];
  report.otherLabelVersions = [...versions];
  report.ok = !report.missing.length && !report.unexpected.length && !report.differing.length;
  return report;
}

/** The report as lines for a terminal. */
export function formatVerifyReport(r: VerifyReport): string[] {
  const lines = [
    `${r.chain} blocks ${r.fromBlock}..${r.toBlock}: ${r.blocks} blocks read, ${r.derived} flows derived, ${r.stored} stored`,
  ];
  for (const id of r.missing) lines.push(`missing   ${id}`);
  for (const id of r.unexpected) lines.push(`unexpected ${id} (stored, not on the node)`);
  for (const d of r.differing)
    lines.push(
      `differs   ${d.id}: ${d.fields.map((f) => `${f.field} stored ${String(f.stored)} node ${String(f.derived)}`).join('; ')}`,
    );
  if (r.otherLabelVersions.length)
    lines.push(
      `note: some stored flows were classified with label set(s) ${r.otherLabelVersions.join(', ')}; differences may come from labels`,
    );
  lines.push(r.ok ? 'ok: every stored flow matches the node' : 'FAILED: storage differs from the node');
  return lines;
}
