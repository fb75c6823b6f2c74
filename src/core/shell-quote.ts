// The one way fcast quotes a path (or any word) in a hint a user pastes: the same word in
// bash, zsh and fish. The word goes in single quotes, where none of the three expands anything,
// except that fish reads \' and \\ inside them as escapes: so each ' and \ is written outside
// the quotes, backslash-escaped, which all three read alike.
export function shellQuote(word: string): string {
  const quoted = `'${word.replace(/['\\]/g, (c) => `'\\${c}'`)}'`;
  // `'\''` at either end leaves an empty pair there; the empty word itself keeps its pair.
  return quoted === "''" ? quoted : quoted.replace(/^''(?!$)/, '').replace(/(?<!^)''$/, '');
}
