import type { ReactNode } from 'react';
import { useSyncExternalStore } from 'react';
import { dataSources } from '../api/client.ts';
import { type DataKind, sourceNotice } from '../lib/data-source.ts';
import { Skeleton } from './Skeleton.tsx';

function useSeenSource(kind: DataKind) {
  return useSyncExternalStore(dataSources.subscribe, () => dataSources.current(kind));
}

/**
 * A visible label on every page that shows simulated (or replayed) prices or flows. The source is what the
 * API's answers said (`Meridian-Source`), or `source` when the page has it from a body field.
 */
export function SourceNotice({ kind, source }: { kind: DataKind; source?: string }) {
  const seen = useSeenSource(kind);
  const text = sourceNotice(kind, source ?? seen);
  if (!text) return null;
  return (
    <p className="notice source-notice" data-testid="source-notice" data-source={source ?? seen}>
      {text}
    </p>
  );
}

/**
 * A page's body under its source notice, out of layout until an answer has said where the data comes from
 * (or the page's own request `failed`): a notice arriving after the body would push all of it down. The
 * body is mounted from the start, so its requests run meanwhile.
 */
export function SourcedBody({
  kind,
  failed,
  children,
}: {
  kind: DataKind;
  failed?: boolean;
  children: ReactNode;
}) {
  const known = useSeenSource(kind) !== undefined || Boolean(failed);
  return (
    <>
      {known ? null : <Skeleton height={240} />}
      <div className="sourced-body" hidden={!known}>
        <SourceNotice kind={kind} />
        {children}
      </div>
    </>
  );
}
