// The user's home directory, found as os.homedir() finds it, without loading node:os at every
// start (`node -e 0` does not load it; every command did, for this one string): libuv reads
// HOME (USERPROFILE on Windows) and uses it as it is, empty too, and asks the system only when
// the variable is not set.
export function homeDirectory(env: Record<string, string | undefined>, platform: NodeJS.Platform): string {
  const given = platform === 'win32' ? env.USERPROFILE : env.HOME;
  return given ?? process.getBuiltinModule('node:os').homedir();
}
