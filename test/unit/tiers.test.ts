import { expect, it } from 'vitest'
import { howToRun, TIERS } from '../support/tiers.js'

it('names one command that runs every skipped tier: the installs first, then npm test, as root where one needs it', () => {
  expect(howToRun([TIERS.redis])).toBe('apt-get install redis-server && npm test')
  expect(howToRun([TIERS.tmpfs])).toBe('sudo npm test')
  expect(howToRun([TIERS.redis, TIERS.tmpfs])).toBe('apt-get install redis-server && sudo npm test')
  expect(howToRun([TIERS.redis, TIERS.cluster, TIERS.tmpfs])).toBe('apt-get install redis-server && sudo npm test')
  expect(howToRun([TIERS.firefox], 'npm run test:browser')).toBe('apt-get install firefox-esr && npm run test:browser')
})
