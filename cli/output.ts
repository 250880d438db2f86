/** What a command prints, and how it exits when the output itself says it failed. */
export interface Output {
  stdout?: string;
  stderr?: string;
  /** 1 when the output itself says the command failed (an import's problems, with --json). */
  exitCode?: 1;
}
