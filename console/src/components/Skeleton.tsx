/** Placeholder blocks with the size of what will load, so nothing jumps when data arrives. */
export function Skeleton({
  height = 16,
  width = '100%',
}: {
  height?: number | string;
  width?: number | string;
}) {
  return <span className="skeleton" style={{ height, width }} aria-hidden="true" />;
}

export function SkeletonRows({ rows, columns }: { rows: number; columns: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <tr key={r}>
          {Array.from({ length: columns }, (_, c) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <td key={c}>
              <Skeleton height={14} width={c === 0 ? '70%' : '55%'} />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

export function PageSkeleton() {
  return (
    <div className="page" aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading…
      </p>
      <Skeleton height={32} width={240} />
      <div className="grid two" style={{ marginTop: 24 }}>
        <div className="card">
          <Skeleton height={280} />
        </div>
        <div className="card">
          <Skeleton height={280} />
        </div>
      </div>
    </div>
  );
}
