import { describe, expect, it } from 'vitest';
import { cursorPages } from './Pager';

describe('cursor pages', () => {
  it('goes forward by cursor and back by remembering the cursors used', () => {
    let stack: (string | undefined)[] = [undefined];
    const pages = () => cursorPages(stack, (next) => (stack = next));
    expect(pages()).toMatchObject({ cursor: undefined, page: 1 });
    pages().next('c2');
    pages().next('c3');
    expect(pages()).toMatchObject({ cursor: 'c3', page: 3 });
    pages().previous();
    expect(pages()).toMatchObject({ cursor: 'c2', page: 2 });
    pages().previous();
    pages().previous();
    expect(pages()).toMatchObject({ cursor: undefined, page: 1 });
    pages().next('x');
    pages().reset();
    expect(pages().page).toBe(1);
  });
});
