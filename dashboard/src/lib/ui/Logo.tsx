export function Logo({ className = 'size-7' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden>
      <rect width="32" height="32" rx="7" fill="#4f46e5" />
      <rect x="7" y="9" width="18" height="3.5" rx="1.5" fill="#fff" />
      <rect x="7" y="14.5" width="13" height="3.5" rx="1.5" fill="#c7d2fe" />
      <rect x="7" y="20" width="8" height="3.5" rx="1.5" fill="#a5b4fc" />
    </svg>
  );
}
