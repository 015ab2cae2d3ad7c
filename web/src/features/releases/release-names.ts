// The last segment of a resource name, the id the console's paths use:
// "projects/p/releases/7" → "7".
export function lastId(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1);
}
