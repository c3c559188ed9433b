import { Button } from '../../../lib/ui/Button';

export interface CursorPages {
  /** The cursor of the page shown; undefined for the first. */
  cursor: string | undefined;
  page: number;
  next: (cursor: string) => void;
  previous: () => void;
  reset: () => void;
}

/** Cursors only go forward, so going back means remembering the ones already used. */
export function cursorPages(stack: (string | undefined)[], setStack: (stack: (string | undefined)[]) => void): CursorPages {
  return {
    cursor: stack[stack.length - 1],
    page: stack.length,
    next: (cursor) => setStack([...stack, cursor]),
    previous: () => setStack(stack.length > 1 ? stack.slice(0, -1) : stack),
    reset: () => setStack([undefined]),
  };
}

export function Pager({
  pages,
  nextCursor,
  label,
  pageCount,
}: {
  pages: CursorPages;
  nextCursor: string | null | undefined;
  label: string;
  pageCount?: number;
}) {
  if (pages.page === 1 && !nextCursor) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2 pt-3">
      <Button variant="secondary" size="sm" disabled={pages.page === 1} onClick={pages.previous}>
        ← Previous
      </Button>
      <span className="text-xs text-slate-500">
        Page {pages.page}
        {pageCount !== undefined && ` of ${pageCount.toLocaleString('en')}`}
      </span>
      <Button variant="secondary" size="sm" disabled={!nextCursor} onClick={() => nextCursor && pages.next(nextCursor)}>
        Next →
      </Button>
    </nav>
  );
}
