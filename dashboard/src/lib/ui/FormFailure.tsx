/** Why a submit failed, announced to screen readers as it appears. */
export function FormFailure({ failure, className = '' }: { failure: string | null; className?: string }) {
  if (!failure) return null;
  return (
    <p role="alert" className={`rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800 ring-1 ring-rose-200 ${className}`}>
      {failure}
    </p>
  );
}
