// Every page of a list (contract §2.1), for the short lists a picker offers.
export async function allPages<T>(fetchPage: (pageToken: string) => Promise<{ items: T[]; nextPageToken: string }>): Promise<T[]> {
  const items: T[] = [];
  let pageToken = "";
  do {
    const page = await fetchPage(pageToken);
    items.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return items;
}
