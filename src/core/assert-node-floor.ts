// msw 3 and commander 15 use what Node added in 22.12 (Promise.withResolvers among others); on an
// older Node they fail deep inside with an unrelated TypeError, so the package says it first.
const FLOOR = { major: 22, minor: 12 }

/**
 * Throws when `version` (Node's `process.versions.node`) is older than the package supports. In a
 * browser there is no Node version, and nothing is checked.
 *
 * @example
 * assertNodeFloor('20.20.2') // throws "petstore-sandbox needs Node 22.12 or newer (this is v20.20.2): `nvm install 24`, or …"
 */
export function assertNodeFloor(version: string | undefined): void {
  if (version === undefined) return
  const [major = 0, minor = 0] = version.split('.').map(Number)
  if (major < FLOOR.major || (major === FLOOR.major && minor < FLOOR.minor)) {
    // The two ways on (docs/getting-started.md#an-older-node): a newer Node, or one pinned in the app for its npm scripts.
    throw new Error(
      `petstore-sandbox needs Node ${FLOOR.major}.${FLOOR.minor} or newer (this is v${version}): \`nvm install 24\`, or \`npm i -D node@24\` in the app and run it through npm scripts`,
    )
  }
}

// Evaluated before msw: the entry points import this module first.
assertNodeFloor((globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node)
