import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeNode {
  target: string[];
  any: { message?: string; data?: { contrastRatio?: number } }[];
}
interface AxeResult {
  violations: { nodes: AxeNode[] }[];
  incomplete: { nodes: AxeNode[] }[];
}

/**
 * Text on the page whose contrast falls short of WCAG AA (4.5:1, 3:1 for large text): one line per
 * element, its text and the ratio found. axe-core measures it in the browser, but leaves out text
 * of one or two characters ("too short to determine"), which is exactly what a count of 0 is; those
 * are measured here, by painting the computed colours (Tailwind's are oklch) onto a canvas and
 * blending the backgrounds up to the first opaque one. Disabled controls are exempt, as in WCAG.
 */
export async function contrastFailures(page: Page): Promise<string[]> {
  // Evaluated rather than added as a <script>: the dashboard's CSP refuses inline scripts, as it should.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await readFile(axePath, 'utf8'));
  await installContrastOf(page);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<AxeResult> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations', 'incomplete'] });
    const describe = (element: Element | null, ratio: number | string, target: string) =>
      `${(element?.textContent ?? '').trim().slice(0, 40)} (${ratio}:1) ${target}`;
    const failures = result.violations.flatMap((violation) =>
      violation.nodes.map((node) => describe(document.querySelector(node.target.join(' ')), node.any[0]?.data?.contrastRatio ?? '?', node.target.join(' '))),
    );

    const measure = (window as unknown as ContrastWindow).contrastOf;
    for (const node of result.incomplete.flatMap((entry) => entry.nodes)) {
      if (!node.any.some((check) => check.message?.includes('too short'))) continue;
      const element = document.querySelector(node.target.join(' '));
      if (!element || (element as HTMLButtonElement).disabled) continue;
      const style = getComputedStyle(element);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const ratio = measure(element);
      if (ratio < (large ? 3 : 4.5)) failures.push(describe(element, ratio.toFixed(2), node.target.join(' ')));
    }
    return failures;
  });
}

interface ContrastWindow {
  contrastOf: (element: Element) => number;
}

/** The contrast ratio of each element matching `selector` against what is painted behind it. */
export async function contrastRatios(page: Page, selector: string): Promise<Array<{ text: string; ratio: number }>> {
  await installContrastOf(page);
  return page.$$eval(selector, (elements) =>
    elements.map((element) => ({ text: (element.textContent ?? '').trim(), ratio: (window as unknown as ContrastWindow).contrastOf(element) })),
  );
}

/**
 * window.contrastOf(element): its text colour against its backgrounds, blended up to the first
 * opaque one, by painting the computed colours (Tailwind's are oklch) onto a canvas.
 */
async function installContrastOf(page: Page): Promise<void> {
  await page.evaluate(() => {
    if ('contrastOf' in window) return;
    const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgba = (colour: string): [number, number, number, number] => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = colour;
      canvas.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const over = (top: number[], bottom: number[]) => top.slice(0, 3).map((value, i) => value * top[3] + bottom[i] * (1 - top[3]));
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((value) => {
        const c = value / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    (window as unknown as ContrastWindow).contrastOf = (element: Element): number => {
      const layers: number[][] = [];
      for (let at: Element | null = element; at; at = at.parentElement) {
        const layer = rgba(getComputedStyle(at).backgroundColor);
        if (layer[3] > 0) layers.push(layer);
        if (layer[3] >= 1) break;
      }
      const background = layers.reduceRight<number[]>((below, layer) => over(layer, below), [255, 255, 255]);
      const text = over(rgba(getComputedStyle(element).color), background);
      const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a);
      return (light + 0.05) / (dark + 0.05);
    };
  });
}
