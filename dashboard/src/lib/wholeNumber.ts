/** What to say when an optional whole-number field holds something else. */
export interface WholeNumberWords {
  notWhole: string;
  outOfRange: string;
}

/**
 * An optional whole-number field as a person typed it: null when empty, the number when it is
 * whole and within the contract's range, else what is wrong with it, in words.
 */
export function optionalWholeNumber(text: string, range: { min: number; max: number }, words: WholeNumberWords): number | null | string {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return words.notWhole;
  const value = Number(trimmed);
  return value < range.min || value > range.max ? words.outOfRange : value;
}
