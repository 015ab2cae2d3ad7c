// The resource name of a group (contract §5.2).
export function groupName(id: string): string {
  return `groups/${id}`;
}
