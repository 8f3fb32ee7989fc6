import { useSyncExternalStore } from 'react';
import { dataSources } from '../api/client.ts';
import { type DataKind, sourceNotice } from '../lib/data-source.ts';

/**
 * A visible label on every page that shows simulated (or replayed) prices or flows. The source is what the
 * API's answers said (`Meridian-Source`), or `source` when the page has it from a body field.
 */
export function SourceNotice({ kind, source }: { kind: DataKind; source?: string }) {
  const seen = useSyncExternalStore(dataSources.subscribe, () => dataSources.current(kind));
  const text = sourceNotice(kind, source ?? seen);
  if (!text) return null;
  return (
    <p className="notice source-notice" data-testid="source-notice" data-source={source ?? seen}>
      {text}
    </p>
  );
}
