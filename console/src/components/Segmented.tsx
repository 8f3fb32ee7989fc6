/** A small group of toggle buttons (one pressed), reachable with Tab and operated with Enter or Space. */
export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
  labels,
}: {
  label: string;
  options: readonly T[];
  value: string;
  onChange(value: T): void;
  /** Text to show for an option when it differs from its value. */
  labels?: Partial<Record<T, string>>;
}) {
  return (
    <fieldset className="segmented">
      <legend className="visually-hidden">{label}</legend>
      {options.map((option) => (
        <button key={option} type="button" aria-pressed={option === value} onClick={() => onChange(option)}>
          {labels?.[option] ?? option}
        </button>
      ))}
    </fieldset>
  );
}
