import { ux } from '@oclif/core';

// ux.colorize leaves text alone unless stdout and stderr are terminals (and NO_COLOR is unset).
export const bold = (text: string): string => ux.colorize('bold', text);
export const dim = (text: string): string => ux.colorize('dim', text);
export const red = (text: string): string => ux.colorize('red', text);
export const yellow = (text: string): string => ux.colorize('yellow', text);

const STATUS_COLORS: Record<string, string> = {
  PENDING: 'yellow',
  UNACKED: 'cyan',
  ACKED: 'green',
  DEAD: 'red',
  CREATED: 'blue',
  PUBLISHED: 'yellow',
  CONSUMED: 'cyan',
  NACKED: 'magenta',
  REDELIVERED: 'magenta',
  REPLAYED: 'blue',
};

/** Text in the colour of a message status or monitor event type. */
export function inStatusColor(status: string, text: string): string {
  return ux.colorize(STATUS_COLORS[status], text);
}
