import type { Interfaces } from '@oclif/core';

export declare const CLI_ROOT: string;
export declare function oclifOptions(): Promise<Interfaces.LoadOptions>;
