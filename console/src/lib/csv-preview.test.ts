import { describe, expect, it } from 'vitest';
import { detectDelimiter, previewCsv } from './csv-preview.ts';

describe('previewCsv', () => {
  it('keeps the line each record starts on, across blank lines and quoted newlines', () => {
    const text = 'asset,quantity,note\nBTC,0.5,"two\nlines"\n\nETH,2,\r\nSOL,10,x';
    const preview = previewCsv(text);
    expect(preview.unreadable).toBeUndefined();
    expect(preview.records.map((r) => r.line)).toEqual([1, 2, 5, 6]);
    expect(preview.records[1]!.cells).toEqual(['BTC', '0.5', 'two\nlines']);
    expect(preview.records[2]!.cells).toEqual(['ETH', '2', '']);
  });

  it('reads semicolon and tab files and strips a BOM', () => {
    expect(previewCsv('\uFEFFasset;quantity\nBTC;1').records[0]!.cells).toEqual(['asset', 'quantity']);
    expect(detectDelimiter('asset\tquantity\nBTC\t1')).toBe('\t');
    expect(detectDelimiter('"a,b";c;d\nx;y;z')).toBe(';');
  });

  it('says when the file is not CSV instead of throwing', () => {
    const preview = previewCsv('asset,quantity\n"BTC,1\n');
    expect(preview.unreadable).toMatch(/quote/i);
  });
});
