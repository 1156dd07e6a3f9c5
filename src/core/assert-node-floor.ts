// msw 3 and commander 15 fail obscurely below it.
const FLOOR = { major: 22, minor: 12 }

export function assertNodeFloor(version: string | undefined): void {
  if (version === undefined) return
  const [major = 0, minor = 0] = version.split('.').map(Number)
  if (major < FLOOR.major || (major === FLOOR.major && minor < FLOOR.minor)) {
    throw new Error(
      `petstore-sandbox needs Node ${FLOOR.major}.${FLOOR.minor} or newer (this is v${version}): ` +
        '`nvm install 24`, or `npm i -D node@24` in the app and run it through npm scripts',
    )
  }
}

assertNodeFloor((globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node)
