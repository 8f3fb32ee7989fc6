// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Outlook } from '../api/types.ts';
import { OutlookView } from './OutlookWidget.tsx';

const horizon = (earned: boolean, move: number) => ({
  bias: earned ? (move > 0 ? 'bullish' : 'bearish') : 'neutral',
  score: earned ? Math.sign(move) * 0.12 : 0,
  expectedMovePct: move,
  confidence: earned ? 0.56 : 0.52,
  directionEarned: earned,
  interval80Pct: { low: -0.49, high: 0.44 },
  message: earned ? 'Up +0.12 % expected with confidence 56 %' : 'No direction earned: 80 % of outcomes …',
});

const outlook = (earned15m: boolean): Outlook =>
  ({
    symbol: 'BTCUSDT',
    bias: earned15m ? 'bullish' : 'neutral',
    score: earned15m ? 0.04 : 0,
    confidence: 0.52,
    message: earned15m
      ? 'Bullish where the record earns it (bullish at 15m); 1h: 80 % within −0.49 % … +0.44 %.'
      : 'Neutral: no direction earned at any horizon; 1h: 80 % within −0.49 % … +0.44 %.',
    horizons: { '15m': horizon(earned15m, 0.12), '1h': horizon(false, -0.03) },
    drivers: [
      {
        factor: 'funding',
        direction: 'neutral',
        weight: 0,
        reason:
          'Funding is +0.0120 % per 8 h, longs pay shorts: the model has earned no direction from funding and basis at these horizons.',
      },
    ],
    modelVersion: 'm1',
    generatedAt: '2026-01-01T00:00:00.000Z',
    gaps: [],
  }) as Outlook;

afterEach(cleanup);

describe('outlook card', () => {
  it('neutral where no direction was earned: the message and the 80 % range, no move or confidence', () => {
    const { container } = render(
      <MemoryRouter>
        <OutlookView outlook={outlook(false)} symbol="BTCUSDT" />
      </MemoryRouter>,
    );
    screen.getByText('Neutral: no direction earned at any horizon; 1h: 80 % within −0.49 % … +0.44 %.');
    const rows = [...container.querySelectorAll('.horizons dd')].map((dd) => dd.textContent);
    expect(rows).toHaveLength(2);
    for (const text of rows) {
      expect(text).toContain('no direction earned');
      expect(text).toContain('80 % in −0.49 % … +0.44 %');
      expect(text).not.toMatch(/confidence/);
    }
    expect(container.querySelectorAll('.bias.bullish, .bias.bearish')).toHaveLength(0);
    screen.getByText(/Funding is \+0\.0120 % per 8 h, longs pay shorts/);
  });

  it('a horizon whose direction was earned shows its side, move and confidence', () => {
    const { container } = render(
      <MemoryRouter>
        <OutlookView outlook={outlook(true)} symbol="BTCUSDT" />
      </MemoryRouter>,
    );
    const [earned, unearned] = [...container.querySelectorAll('.horizons dd')];
    expect(earned!.textContent).toContain('Bullish');
    expect(earned!.textContent).toContain('+0.12 %');
    expect(earned!.textContent).toContain('confidence 56 %');
    expect(unearned!.textContent).toContain('no direction earned');
    expect(unearned!.textContent).not.toContain('−0.03 %');
  });
});
