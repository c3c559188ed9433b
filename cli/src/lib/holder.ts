import { Flags } from '@oclif/core';

/**
 * Acks, nacks and extends succeed only for the consumer holding the message: the key's client
 * name plus the MiniQueue-Instance header its program sent when it claimed it.
 */
export const instanceFlag = {
  instance: Flags.string({
    summary: "Act as this replica of the key's program (MiniQueue-Instance), when it claimed the message under one.",
    helpGroup: 'CONNECTION',
  }),
};
