import type { Command } from 'commander';
import type { App } from '../command.js';

// Placeholder until its issue lands: registered so the command tree is whole.
export function register(program: Command, _app: App): void {
  program.command('auth').description('(not yet available)');
}
