import { useState } from 'react';
import { Button } from './Button';

/**
 * The Clipboard API only exists in secure contexts (https, localhost); a dashboard opened over
 * plain http on another host falls back to selecting the text for the person to copy.
 */
async function copy(text: string, fallbackTarget: HTMLElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!fallbackTarget) return false;
    const range = document.createRange();
    range.selectNodeContents(fallbackTarget);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    return false;
  }
}

export function CopyButton({ text, targetId, label = 'Copy' }: { text: string; targetId?: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'selected'>('idle');
  const onClick = async () => {
    const copied = await copy(text, targetId ? document.getElementById(targetId) : null);
    setState(copied ? 'copied' : 'selected');
  };
  return (
    <Button variant="secondary" size="sm" onClick={onClick} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'selected' ? 'Selected: press Ctrl+C' : label}
    </Button>
  );
}
