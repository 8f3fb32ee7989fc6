import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useId, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import type { Holding, ImportResult, Portfolio as PortfolioBody, PortfolioRow } from '../api/types.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { Skeleton } from '../components/Skeleton.tsx';
import { TableCard } from '../components/TableCard.tsx';
import { importCsv, usePortfolio, usePortfolioImports, usePortfolioRows } from '../hooks/portfolio.ts';
import { type CsvPreview, previewCsv } from '../lib/csv-preview.ts';
import {
  formatAmount,
  formatDateTime,
  formatPercent,
  formatPrice,
  formatRelative,
  formatUsdAmount,
} from '../lib/format.ts';
import { type FieldProblem, rowErrors } from '../lib/problems.ts';
import { SourceNotice } from '../components/SourceNotice.tsx';

export default function Portfolio() {
  const portfolio = usePortfolio();
  const [confirmReset, setConfirmReset] = useState(false);
  const queryClient = useQueryClient();
  return (
    <div className="page">
      <div className="page-title">
        <div>
          <h1>Portfolio</h1>
          <p className="muted">
            Your holdings valued at Meridian's merged market price. Import lots from a CSV export (Koinly,
            CoinTracker, Coinbase or your own columns).
          </p>
        </div>
        {portfolio.data ? (
          <p className="muted small" title={formatDateTime(portfolio.data.asOf)}>
            Prices: <span className="badge">{portfolio.data.priceSource}</span> · as of{' '}
            {formatRelative(portfolio.data.asOf, Date.now())}
          </p>
        ) : null}
      </div>
      <SourceNotice kind="market" source={portfolio.data?.priceSource} />
      <Totals portfolio={portfolio.data} />
      <Holdings portfolio={portfolio.data} error={portfolio.error} onRetry={() => portfolio.refetch()} />
      <CsvImport />
      <StoredRows onReset={() => setConfirmReset(true)} />
      <ImportHistory />
      {confirmReset ? (
        <ConfirmDialog
          title="Reset the portfolio?"
          confirmLabel="Delete every row"
          danger
          onClose={() => setConfirmReset(false)}
          onConfirm={async () => {
            await unwrap(api.DELETE('/api/portfolio'));
            await queryClient.invalidateQueries({ queryKey: ['portfolio'] });
          }}
        >
          <p>
            Every stored row is deleted and the holdings become empty. The import history is kept. This cannot
            be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

const tone = (value: number | string | null | undefined) => {
  const n = typeof value === 'string' ? Number(value) : value;
  return n === null || n === undefined || n === 0 || Number.isNaN(n) ? undefined : n > 0 ? 'up' : 'down';
};

function Totals({ portfolio }: { portfolio: PortfolioBody | undefined }) {
  const totals = portfolio?.totals;
  const figures = [
    { label: 'Value', value: totals && formatUsdAmount(totals.valueUsd), note: 'priced holdings' },
    { label: 'Cost basis', value: totals && formatUsdAmount(totals.costBasisUsd), note: 'with a full cost' },
    {
      label: 'Unrealized P&L',
      value: totals && formatUsdAmount(totals.unrealizedPnlUsd, { signed: true }),
      note: totals && formatPercent(totals.unrealizedPnlPct),
      tone: tone(totals?.unrealizedPnlUsd),
    },
    {
      label: '24 h change',
      value: totals && formatUsdAmount(totals.change24hUsd, { signed: true }),
      note: totals && formatPercent(totals.change24hPct),
      tone: tone(totals?.change24hUsd),
    },
  ];
  return (
    <section className="grid stats" aria-label="Portfolio totals">
      {figures.map((figure) => (
        <div key={figure.label} className="card stat">
          <span className="stat-label">{figure.label}</span>
          {figure.value ? (
            <span className={`stat-value ${figure.tone ?? ''}`}>{figure.value}</span>
          ) : (
            <Skeleton height={30} width="70%" />
          )}
          <span className={`small ${figure.tone ?? 'muted'}`}>{figure.note ?? '\u00a0'}</span>
        </div>
      ))}
      {totals && (totals.unpricedAssets.length > 0 || totals.assetsWithoutCost.length > 0) ? (
        <p className="notice stat wide">
          {totals.unpricedAssets.length > 0
            ? `No market price for ${totals.unpricedAssets.join(', ')}: held but not counted in the value (never as $0). `
            : ''}
          {totals.assetsWithoutCost.length > 0
            ? `No full cost basis for ${totals.assetsWithoutCost.join(', ')}: left out of cost and P&L.`
            : ''}
        </p>
      ) : null}
    </section>
  );
}

function Holdings({
  portfolio,
  error,
  onRetry,
}: {
  portfolio: PortfolioBody | undefined;
  error: unknown;
  onRetry(): void;
}) {
  const columns = [
    'Asset',
    { label: 'Quantity', num: true },
    { label: 'Price', num: true },
    { label: 'Value', num: true },
    { label: 'Cost', num: true },
    { label: 'Unrealized P&L', num: true },
    { label: 'P&L %', num: true },
    { label: 'Allocation', num: true },
    { label: '24 h', num: true },
  ];
  return (
    <TableCard
      id="holdings-title"
      title="Holdings"
      columns={columns}
      items={portfolio?.holdings}
      row={(holding) => <HoldingRow key={holding.asset} holding={holding} />}
      empty="No holdings yet. Import a CSV below."
      error={error}
      onRetry={onRetry}
    />
  );
}

function HoldingRow({ holding: h }: { holding: Holding }) {
  const unpriced = h.price === null;
  return (
    <tr data-asset={h.asset}>
      <th scope="row">
        {h.asset}
        <span className="muted small"> · {h.rows === 1 ? '1 lot' : `${h.rows} lots`}</span>
      </th>
      <td className="num">{formatAmount(h.quantity)}</td>
      <td className="num" title={h.priceAsOf ? `as of ${formatDateTime(h.priceAsOf)}` : undefined}>
        {unpriced ? <span className="badge warn plain">no price</span> : formatPrice(h.price)}
      </td>
      <td className="num">{formatUsdAmount(h.valueUsd)}</td>
      <td className="num" title={h.costBasisUsd === null ? 'Some lots have no cost basis' : undefined}>
        {formatUsdAmount(h.costBasisUsd)}
      </td>
      <td className={`num ${tone(h.unrealizedPnlUsd) ?? ''}`}>
        {formatUsdAmount(h.unrealizedPnlUsd, { signed: true })}
      </td>
      <td className={`num ${tone(h.unrealizedPnlPct) ?? ''}`}>{formatPercent(h.unrealizedPnlPct)}</td>
      <td className="num">
        {h.allocationPct === null ? (
          '—'
        ) : (
          <span className="allocation">
            <span className="allocation-bar" aria-hidden="true">
              <span style={{ width: `${Math.min(100, Math.max(0, h.allocationPct))}%` }} />
            </span>
            {formatPercent(h.allocationPct, 1, false)}
          </span>
        )}
      </td>
      <td className={`num ${tone(h.change24hPct) ?? ''}`}>{formatPercent(h.change24hPct)}</td>
    </tr>
  );
}

interface Upload {
  name: string;
  text: string;
  preview: CsvPreview;
  /** One key per upload attempt: a retry of this import replays its answer instead of importing twice. */
  importKey: string;
}

function CsvImport() {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [upload, setUpload] = useState<Upload>();
  const [dragging, setDragging] = useState(false);
  const [imported, setImported] = useState<ImportResult>();

  const dryRun = useMutation({
    mutationFn: (text: string) => importCsv(text, { dryRun: true, idempotencyKey: crypto.randomUUID() }),
  });
  const commit = useMutation({
    mutationFn: (u: Upload) => importCsv(u.text, { dryRun: false, idempotencyKey: u.importKey }),
    onSuccess: async (result) => {
      setImported(result);
      setUpload(undefined);
      dryRun.reset();
      await queryClient.invalidateQueries({ queryKey: ['portfolio'] });
    },
  });

  const choose = async (file: File | undefined) => {
    if (!file) return;
    const text = await file.text();
    const next = { name: file.name, text, preview: previewCsv(text), importKey: crypto.randomUUID() };
    setUpload(next);
    setImported(undefined);
    commit.reset();
    dryRun.mutate(text);
  };
  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  const problemSource = commit.error ?? dryRun.error;
  const { byLine, other } = rowErrors(problemSource);
  const ready = dryRun.data && !dryRun.isPending && !commit.isPending;

  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import a CSV</h2>
      <p className="muted small">
        Up to 200 rows, all or nothing. Rows need an asset and a quantity column; a cost basis, currency,
        date, venue, note and external id are optional. The file is checked first (a dry run) and nothing is
        stored until you confirm.
      </p>
      <label
        htmlFor={inputId}
        className={`drop-zone${dragging ? ' dragging' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <strong>Drop a CSV file here</strong>
        <span className="muted small">or choose one</span>
        <input
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          aria-label="CSV file"
          onChange={(event) => {
            choose(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </label>
      <div role="status" className="import-status">
        {imported ? (
          <p className="notice ok">
            Imported {imported.rows} {imported.rows === 1 ? 'row' : 'rows'}: {imported.inserted} new,{' '}
            {imported.updated} updated, {imported.unchanged} unchanged.
          </p>
        ) : upload && dryRun.isPending ? (
          <p className="muted">Checking {upload.name}…</p>
        ) : upload && dryRun.data ? (
          <p className="notice ok">
            {upload.name}: {dryRun.data.rows} {dryRun.data.rows === 1 ? 'row' : 'rows'} ready —{' '}
            {dryRun.data.inserted} new, {dryRun.data.updated} updated, {dryRun.data.unchanged} unchanged.
            {dryRun.data.ignoredColumns?.length
              ? ` Ignored columns: ${dryRun.data.ignoredColumns.join(', ')}.`
              : ''}
          </p>
        ) : null}
      </div>
      {problemSource ? (
        <ErrorNote
          error={problemSource}
          // Row problems are shown next to their rows below; the note lists only the others.
          errors={other}
          onRetry={commit.error && byLine.size === 0 ? () => commit.mutate(upload!) : undefined}
        />
      ) : null}
      {upload ? <PreviewTable upload={upload} problems={byLine} /> : null}
      {upload ? (
        <div className="form-actions">
          <button
            type="button"
            className="button primary"
            disabled={!ready}
            onClick={() => commit.mutate(upload)}
          >
            {commit.isPending ? 'Importing…' : dryRun.data ? `Import ${dryRun.data.rows} rows` : 'Import'}
          </button>
          <button
            type="button"
            className="button ghost"
            onClick={() => {
              setUpload(undefined);
              dryRun.reset();
              commit.reset();
            }}
          >
            Cancel
          </button>
        </div>
      ) : null}
    </section>
  );
}

/** The file as read, one line per record, with each row's problems right below it. */
function PreviewTable({ upload, problems }: { upload: Upload; problems: Map<number, FieldProblem[]> }) {
  const [head, ...records] = upload.preview.records;
  if (!head) return <p className="muted">The file is empty.</p>;
  const width = Math.max(head.cells.length, ...records.map((r) => r.cells.length));
  const cells = (values: string[]) => Array.from({ length: width }, (_, i) => values[i] ?? '');
  return (
    <div className="table-scroll preview">
      <table className="data compact">
        <caption className="visually-hidden">Preview of {upload.name}</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              Line
            </th>
            {cells(head.cells).map((cell, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
              <th key={i} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((record) => {
            const found = problems.get(record.line);
            const badColumns = new Set(found?.map((p) => p.column));
            return (
              <PreviewRow key={record.line} line={record.line} problems={found} span={width + 1}>
                {cells(record.cells).map((cell, i) => (
                  <td
                    // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                    key={i}
                    className={badColumns.has(head.cells[i]) ? 'cell-error' : undefined}
                  >
                    {cell}
                  </td>
                ))}
              </PreviewRow>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function PreviewRow({
  line,
  problems,
  span,
  children,
}: {
  line: number;
  problems: FieldProblem[] | undefined;
  span: number;
  children: React.ReactNode;
}) {
  const errorId = `line-${line}-problems`;
  return (
    <>
      <tr
        data-line={line}
        className={problems ? 'row-invalid' : undefined}
        aria-describedby={problems ? errorId : undefined}
      >
        <td className="num muted">{line}</td>
        {children}
      </tr>
      {problems ? (
        <tr className="row-problems" data-problems-for={line}>
          <td colSpan={span} id={errorId}>
            {problems.map((p) => (
              <span key={p.pointer + p.message} className="row-problem">
                Row {p.row}
                {p.column ? ` · ${p.column}` : ''}: {p.message}
              </span>
            ))}
          </td>
        </tr>
      ) : null}
    </>
  );
}

function StoredRows({ onReset }: { onReset(): void }) {
  const rows = usePortfolioRows();
  const [deleting, setDeleting] = useState<PortfolioRow>();
  const queryClient = useQueryClient();
  const columns = [
    'Asset',
    { label: 'Quantity', num: true },
    { label: 'Cost', num: true },
    'Acquired',
    'Venue',
    'Note',
    { label: 'Actions', hidden: true },
  ];
  return (
    <>
      <TableCard
        id="rows-title"
        title="Stored rows"
        actions={
          <button
            type="button"
            className="button small danger"
            onClick={onReset}
            disabled={!rows.data?.length}
          >
            Reset portfolio
          </button>
        }
        columns={columns}
        items={rows.data}
        row={(row) => (
          <tr key={row.id} data-row-id={row.id}>
            <th scope="row">{row.asset}</th>
            <td className="num">{formatAmount(row.quantity)}</td>
            <td className="num">
              {row.costBasis === null ? '—' : `${formatAmount(row.costBasis)} ${row.costCurrency ?? 'USD'}`}
            </td>
            <td title={formatDateTime(row.acquiredAt)}>
              {row.acquiredAt ? formatDateTime(row.acquiredAt).slice(0, 10) : '—'}
            </td>
            <td>{row.venue ?? '—'}</td>
            <td className="truncate" title={row.note ?? undefined}>
              {row.note ?? '—'}
            </td>
            <td>
              <div className="row-actions">
                <button
                  type="button"
                  className="button small ghost"
                  aria-label={`Delete the ${row.asset} row of ${row.quantity}`}
                  onClick={() => setDeleting(row)}
                >
                  Delete
                </button>
              </div>
            </td>
          </tr>
        )}
        empty="Nothing stored."
        error={rows.error}
        onRetry={() => rows.refetch()}
      />
      {deleting ? (
        <ConfirmDialog
          title={`Delete this ${deleting.asset} row?`}
          confirmLabel="Delete row"
          danger
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await unwrap(api.DELETE('/api/portfolio/rows/{id}', { params: { path: { id: deleting.id } } }));
            await queryClient.invalidateQueries({ queryKey: ['portfolio'] });
          }}
        >
          <p>
            {formatAmount(deleting.quantity)} {deleting.asset}
            {deleting.venue ? ` on ${deleting.venue}` : ''} leaves the holdings.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

function ImportHistory() {
  const imports = usePortfolioImports();
  const columns = [
    'When',
    'Format',
    { label: 'Rows', num: true },
    { label: 'New', num: true },
    { label: 'Updated', num: true },
    { label: 'Unchanged', num: true },
  ];
  const now = Date.now();
  return (
    <TableCard
      id="imports-title"
      title="Import history"
      columns={columns}
      items={imports.data}
      row={(entry) => (
        <tr key={entry.id}>
          <td title={formatDateTime(entry.createdAt)}>{formatRelative(entry.createdAt, now)}</td>
          <td className="uppercase">{entry.format}</td>
          <td className="num">{entry.rows}</td>
          <td className="num">{entry.inserted}</td>
          <td className="num">{entry.updated}</td>
          <td className="num">{entry.unchanged}</td>
        </tr>
      )}
      empty="No imports yet."
      error={imports.error}
      onRetry={() => imports.refetch()}
      skeletonRows={2}
    />
  );
}
