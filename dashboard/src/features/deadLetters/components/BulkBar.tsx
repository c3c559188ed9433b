import { capitalize, formatCount } from '../../../lib/format';
import { Button } from '../../../lib/ui/Button';

/**
 * Acting on many dead letters: the ones ticked (on this page or others before it), or every one
 * the filters match, however many pages that is.
 */
export function BulkBar({
  pageIds,
  selected,
  onSelect,
  total,
  onSelection,
  onMatching,
}: {
  pageIds: string[];
  selected: Set<string>;
  onSelect: (selected: Set<string>) => void;
  total: string | null;
  onSelection: (verb: 'replay' | 'delete') => void;
  onMatching: (verb: 'replay' | 'delete') => void;
}) {
  const allOnPage = pageIds.every((id) => selected.has(id));
  const togglePage = () => {
    const next = new Set(selected);
    for (const id of pageIds) {
      if (allOnPage) next.delete(id);
      else next.add(id);
    }
    onSelect(next);
  };
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 rounded-lg bg-white px-3 py-2 text-sm shadow-xs ring-1 ring-slate-200" data-testid="bulk-bar">
      <label className="flex items-center gap-2 text-slate-700">
        <input type="checkbox" checked={allOnPage} onChange={togglePage} className="size-4 rounded border-slate-300" />
        Select this page
      </label>
      <span className="text-slate-500" aria-live="polite">
        {selected.size > 0 ? `${formatCount(selected.size)} selected` : total ? `${capitalize(total)} ${total.startsWith('1 ') ? 'matches' : 'match'}` : ''}
      </span>
      <span className="ml-auto flex flex-wrap gap-2">
        {selected.size > 0 ? (
          <>
            <Button size="sm" onClick={() => onSelection('replay')}>
              Replay selected
            </Button>
            <Button size="sm" variant="danger" onClick={() => onSelection('delete')}>
              Delete selected
            </Button>
            <Button size="sm" variant="ghost" onClick={() => onSelect(new Set())}>
              Clear
            </Button>
          </>
        ) : (
          <>
            <Button size="sm" variant="secondary" onClick={() => onMatching('replay')}>
              Replay all matching…
            </Button>
            <Button size="sm" variant="quietDanger" onClick={() => onMatching('delete')}>
              Delete all matching…
            </Button>
          </>
        )}
      </span>
    </div>
  );
}
