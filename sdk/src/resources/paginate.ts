import type { Message, MessagePage } from '../generated/index.js';

/** Every message of a paginated listing, fetching the next page only when the previous one is used up. */
export async function* paginate(fetchPage: (cursor: string | undefined) => Promise<MessagePage>): AsyncGenerator<Message> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.items;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}
