import { useQuery } from '@tanstack/react-query';
import { type RefObject, useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import type { TemplatePreviewRequest } from '../../api/types.ts';
import { Segmented } from '../../components/Segmented.tsx';
import { ruleBody } from '../../lib/alerts.ts';
import type { FormRuleType } from './labels.ts';

const views = ['Text', 'Telegram', 'Slack', 'Discord', 'Email'] as const;

/** The rule form as a preview request: the template and what the rule would fill it with. */
function previewRequest(type: FormRuleType, form: HTMLFormElement): TemplatePreviewRequest {
  const data = new FormData(form);
  const rule = ruleBody(type, data) as {
    name?: string;
    symbol?: string;
    condition?: Record<string, unknown>;
  };
  const template = String(data.get('template') ?? '').trim();
  return {
    ruleType: type,
    ...(template ? { template } : {}),
    rule: {
      ...(rule.name ? { name: rule.name } : {}),
      ...(rule.symbol ? { symbol: rule.symbol } : {}),
      condition: Object.fromEntries(
        Object.entries(rule.condition ?? {}).filter(([, v]) => !(typeof v === 'number' && Number.isNaN(v))),
      ),
    },
  };
}

/**
 * The message template field with a live preview rendered by the server (the same renderer that sends), for
 * each channel; placeholders that name no variable are flagged while typing.
 */
export function TemplateEditor({
  type,
  form,
  version,
}: {
  type: FormRuleType;
  form: RefObject<HTMLFormElement | null>;
  /** Bumped on every edit of the form, so the preview follows the rule's other fields too. */
  version: number;
}) {
  const [request, setRequest] = useState<TemplatePreviewRequest>();
  const [view, setView] = useState<(typeof views)[number]>('Text');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the signal that the form changed
  useEffect(() => {
    const timer = setTimeout(() => {
      if (form.current) setRequest(previewRequest(type, form.current));
    }, 300);
    return () => clearTimeout(timer);
  }, [type, form, version]);
  const preview = useQuery({
    queryKey: ['template-preview', request],
    queryFn: () => unwrap(api.POST('/api/alert-channels/preview', { body: request! })),
    enabled: request !== undefined,
    placeholderData: (previous) => previous,
  });
  const p = preview.data;
  const shown = !p
    ? ''
    : view === 'Telegram'
      ? p.telegram
      : view === 'Slack'
        ? p.slack
        : view === 'Discord'
          ? p.discord
          : view === 'Email'
            ? `Subject: ${p.email.subject}\n\n${p.email.text}`
            : p.text;
  return (
    <div className="template-editor">
      <div className="field grow">
        <label htmlFor="rule-template">Message (optional)</label>
        <textarea
          id="rule-template"
          name="template"
          rows={2}
          maxLength={1000}
          placeholder={p && !request?.template ? p.template : '{{symbol}} {{condition}} at {{price}}'}
          aria-describedby="rule-template-help"
          aria-invalid={p?.unknownVariables.length ? true : undefined}
        />
        <span className="muted small" id="rule-template-help">
          {p
            ? `Variables: ${Object.keys(p.values)
                .map((v) => `{{${v}}}`)
                .join(' ')}. `
            : ''}
          Empty: the default shown.
        </span>
        {p?.unknownVariables.length ? (
          <span className="field-error" role="alert">
            Not a variable: {p.unknownVariables.map((v) => `{{${v}}}`).join(', ')}
          </span>
        ) : null}
      </div>
      <div className="template-preview" aria-live="polite">
        <div className="card-header wrap">
          <span className="muted small">Preview (values made up from this rule; nothing is sent)</span>
          <Segmented
            label="Preview as"
            options={views}
            value={view}
            onChange={(next) => setView(next as (typeof views)[number])}
          />
        </div>
        <pre data-testid="template-preview">{shown}</pre>
      </div>
    </div>
  );
}
