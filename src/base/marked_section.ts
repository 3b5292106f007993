// A generated part of a doc: the text between a start and an end marker, read to check it and
// replaced to write it (the settings and reasons tables).

export type Markers = { start: string; end: string; doc: string };

/** The text between the markers (undefined when the doc has none). */
export function markedSectionIn(text: string, markers: Markers): string | undefined {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (start < 0 || end < start) return undefined;
  return text.slice(start + markers.start.length, end).trim();
}

/** The text with `section` between the markers; a doc without them is an error naming it. */
export function withMarkedSection(text: string, markers: Markers, section: string): string {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (start < 0 || end < start) throw new Error(`${markers.doc} has no ${markers.start} … ${markers.end} markers`);
  return `${text.slice(0, start + markers.start.length)}\n${section}\n${text.slice(end)}`;
}
