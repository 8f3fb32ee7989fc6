/**
 * Provenance headers: where an answer's data comes from (`Meridian-Source`), its own time (`Meridian-As-Of`)
 * and whether that is too old at the moment of the answer (`Meridian-Stale`) — computed per answer, never
 * stored with the bytes. The time's text is kept until the time changes (once per refresh).
 */
export function provenanceHeaderSource(read: () => { source: string; asOf: number | null; stale: boolean }) {
  let asOfMs: number | null = null;
  let asOfText = '';
  return (): Array<[string, string]> => {
    const p = read();
    const headers: Array<[string, string]> = [
      ['meridian-source', p.source],
      ['meridian-stale', p.stale ? 'true' : 'false'],
    ];
    if (p.asOf !== null) {
      if (p.asOf !== asOfMs) {
        asOfMs = p.asOf;
        asOfText = new Date(p.asOf).toISOString();
      }
      headers.push(['meridian-as-of', asOfText]);
    }
    return headers;
  };
}
