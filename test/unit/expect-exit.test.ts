// The exit-code assertion must say what the run printed when it fails: that is its whole point.
import { describe, expect, it } from 'vitest';
import { expectExit } from '../helpers/cli.js';

describe('expectExit', () => {
  it('passes on the expected code', () => {
    expectExit({ code: 0, stdout: 'data\n', stderr: '' }, 0);
  });

  it('fails showing the captured stdout and stderr', () => {
    const run = { code: 2, stdout: 'partial data\n', stderr: "fcast: unknown option '--nope'" };
    expect(() => expectExit(run, 0)).toThrow(
      "the run printed\n--- stdout\npartial data\n--- stderr\nfcast: unknown option '--nope'\n--- and its exit code: expected 2 to be +0",
    );
  });

  it('says when a stream was empty, and takes a spawned run that had no exit code', () => {
    expect(() => expectExit({ code: null, stdout: '', stderr: '' }, 0)).toThrow(
      '--- stdout (empty)\n--- stderr (empty)',
    );
  });
});
