import { Args } from '@oclif/core';

// oclif reads a missing positional argument from piped standard input, so that
// `echo x | miniqueue topics:create` would make a topic named x. Here stdin is only for payloads
// and keys, so every argument ignores it.

export function arg(description: string) {
  return Args.string({ description, required: true, ignoreStdin: true });
}

export function optionalArg(description: string) {
  return Args.string({ description, required: false, ignoreStdin: true });
}
