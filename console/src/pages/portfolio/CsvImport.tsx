import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useId, useState } from 'react';
import type { ImportResult } from '../../api/types.ts';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { importCsv } from '../../hooks/portfolio.ts';
import { type CsvPreview, previewCsv } from '../../lib/csv-preview.ts';
import { rowErrors } from '../../lib/problems.ts';
import { PreviewTable } from './PreviewTable.tsx';

export interface Upload {
  name: string;
  text: string;
  preview: CsvPreview;
  /** One key per upload attempt: a retry of this import replays its answer instead of importing twice. */
  importKey: string;
}

/** Drop or choose a CSV: a dry run first, its preview with row problems, then the import on confirm. */
export function CsvImport() {
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
