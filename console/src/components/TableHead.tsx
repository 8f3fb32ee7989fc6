/** A column heading: its text, right-aligned for numbers, an explanation on hover, or read by screen readers only. */
export interface Column {
  label: string;
  num?: boolean;
  title?: string;
  hidden?: boolean;
}

/** Column headings for a data table; a plain string is a left-aligned text column. */
export function TableHead({ columns }: { columns: (string | Column)[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const c = typeof column === 'string' ? { label: column } : column;
          return (
            <th key={c.label} scope="col" className={c.num ? 'num' : undefined} title={c.title}>
              {c.hidden ? <span className="visually-hidden">{c.label}</span> : c.label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
