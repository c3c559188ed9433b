import { CHART_WINDOWS, type ChartWindow } from '../api/windows';

/** 5 min, 1 h or 24 h: one set of buttons, the chosen one pressed. */
export function WindowPicker({ value, onChange, label }: { value: ChartWindow; onChange: (window: ChartWindow) => void; label: string }) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-md ring-1 ring-inset ring-slate-300">
      {CHART_WINDOWS.map((window) => (
        <button
          key={window.id}
          type="button"
          aria-pressed={window.id === value.id}
          onClick={() => onChange(window)}
          className={`px-2.5 py-1 text-xs first:rounded-l-md last:rounded-r-md ${window.id === value.id ? 'bg-indigo-600 font-semibold text-white' : 'text-slate-700 hover:bg-slate-50'}`}
        >
          {window.label}
        </button>
      ))}
    </div>
  );
}
