/** A value for a list filter (contract §2.3): always a quoted string, with `"` and `\` escaped. */
export function filterValue(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
