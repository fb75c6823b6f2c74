// Where the help text sends a reader for more: to something the installed fcast has (its man
// pages, and docs/ inside the installed package: scripts/pack.js puts both in the tarball),
// never to the repository, which a user who installed the package may not have. The one place
// that says so: the help text, and the man pages' FILES section (scripts/pack.js), call this.

/** The installed docs for the README's install (`npm install -g … --prefix ~/.local`). */
export const INSTALLED_DOCS = '~/.local/lib/node_modules/fcast/docs';

/** A pointer to docs/*.md: the file in the installed package, named by where it is (and, in help text, the man page that says so). */
export function docsPointer(file: string, man = true): string {
  return `${file} in fcast's installed docs (${INSTALLED_DOCS}${man ? ", or 'man fcast'" : ''})`;
}

/** The releases, where the standalone executables are (scripts/release.js makes them). */
export const RELEASES_URL = 'https://github.com/OWNER/fcast/releases/latest';
