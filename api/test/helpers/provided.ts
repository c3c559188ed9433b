/** What the run's globalSetup hands every test file (vitest's provide/inject). */
declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export {};
