/** "1 case", "2 cases", "0 time logs": a count with its noun agreeing (English, regular plurals by default). */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
