import { useEffect, useRef, useState } from 'react';

/**
 * A secret shown exactly once: its heading takes focus (a screen reader announces it), a copy button, a
 * warning that it cannot be shown again, and "I have stored it" to dismiss it.
 */
export function SecretPanel({
  title,
  secret,
  warning,
  onDone,
}: {
  title: string;
  secret: string;
  warning: string;
  onDone(): void;
}) {
  const [copied, setCopied] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const code = useRef<HTMLElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // Clipboard refused (permissions, insecure context): select the text so the person can copy it.
      const range = document.createRange();
      range.selectNodeContents(code.current!);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
    }
  };
  return (
    <section className="card secret-panel" aria-labelledby="secret-title">
      <h2 id="secret-title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <p className="warning">{warning}</p>
      <div className="secret-row">
        <code ref={code} data-testid="new-secret">
          {secret}
        </code>
        <button type="button" className="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <span className="visually-hidden" role="status">
        {copied ? 'Secret copied to the clipboard' : ''}
      </span>
      <button type="button" className="button ghost" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}
