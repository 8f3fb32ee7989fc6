/** A labelled form field with its validation message right below it, tied to the control for screen readers. */
export function FormField({
  name,
  label,
  error,
  grow,
  children,
}: {
  name: string;
  label: string;
  error: string | undefined;
  grow: boolean;
  children: React.ReactNode;
}) {
  const id = `rule-${name.replace('/', '-')}`;
  return (
    <div className={`field${grow ? ' grow' : ''}${error ? ' invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}
