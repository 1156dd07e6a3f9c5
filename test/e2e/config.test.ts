import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { runCli, startCli } from '../support/start-cli.js'

async function keysFile(content: unknown): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'petstore-config-')), 'keys.json')
  await writeFile(file, JSON.stringify(content))
  return file
}

it('refuses an unknown field in a keys file, naming it and the nearest known one, in one line', async () => {
  const typo = await keysFile({ keys: [{ key: 'team-a-secret-key', plan: 'pro', permin: 5 }] })
  const result = await runCli(['start', '--port', '0', '--keys', typo])
  expect(result.code).toBe(1)
  expect(result.stderr.trim()).toBe(`error: keys file ${typo}: keys[0].permin: unknown field; did you mean perMinute?`)
  expect(result.stderr).not.toContain('team-a-secret-key')

  const top = await keysFile({ kyes: [] })
  expect((await runCli(['start', '--port', '0', '--keys', top])).stderr.trim()).toBe(
    `error: keys file ${top}: kyes: unknown field; did you mean keys?`,
  )
  const far = await keysFile({ keys: [{ key: 'team-a-secret-key', plan: 'pro', colour: 'red' }] })
  expect((await runCli(['start', '--port', '0', '--keys', far])).stderr.trim()).toBe(
    // A name that is no near miss is not repeated: it could be a key pasted in the wrong place.
    `error: keys file ${far}: keys[0] has an unknown field; known fields: key, plan, perMinute, perDay`,
  )
})

it('lists each key of a keys file with its plan and limits, masked, in the banner', async () => {
  const file = await keysFile({
    keys: [
      { key: 'team-a-secret-key', plan: 'pro' },
      { key: 'big-customer-key', plan: 'enterprise', perMinute: 2000, perDay: 500000 },
    ],
  })
  const cli = await startCli(['--log', 'off', '--keys', file])
  try {
    expect(cli.output()).toMatch(
      /2 key\(s\) from the keys file \(masked\):\n {2}pro +team…#[0-9a-f]{4} +300\/min +10000\/day\n {2}enterprise +big-…#[0-9a-f]{4} +2000\/min +500000\/day/,
    )
    expect(cli.output()).not.toContain('team-a-secret-key')
    expect(cli.output()).not.toContain('big-customer-key')
    expect(cli.output()).toContain('/readyz (ready to serve)')
  } finally {
    await cli.stop()
  }
})

it('reads every flag from PETSTORE_SANDBOX_<FLAG>, lists each variable in start --help, and a flag wins', async () => {
  const help = await runCli(['start', '--help'])
  const flags = [...help.stdout.matchAll(/^ {2}(?:-\w, )?--([a-z-]+)/gm)]
    .map((match) => match[1]!)
    .filter((flag) => flag !== 'help')
  expect(flags.length).toBeGreaterThan(20)
  const text = help.stdout.replace(/\s+/g, ' ')
  // --redis takes a URL, and its variable says so.
  for (const flag of flags)
    expect(text, flag).toMatch(new RegExp(`env: PETSTORE_SANDBOX_${flag.toUpperCase().replaceAll('-', '_')}(_URL)?\\)`))

  const fromEnv = await startCli(['--log', 'off'], {
    PETSTORE_SANDBOX_PETS: '7',
    PETSTORE_SANDBOX_SEED: '3',
    PETSTORE_SANDBOX_MAX_PETS: '9',
  })
  try {
    expect(fromEnv.output()).toContain(
      '  pets: 7 generated (seed 3) (from PETSTORE_SANDBOX_PETS, PETSTORE_SANDBOX_SEED)',
    )
    expect(fromEnv.output()).toContain('Stores at most 9 pets')
  } finally {
    await fromEnv.stop()
  }
  const flagWins = await startCli(['--log', 'off', '--pets', '4'], { PETSTORE_SANDBOX_PETS: '7' })
  try {
    expect(flagWins.output()).toContain('  pets: 4 generated (seed 1)\n')
  } finally {
    await flagWins.stop()
  }
  const bad = await runCli(['start', '--port', '0'], { PETSTORE_SANDBOX_MAX_PETS: 'lots' })
  expect(bad.code).toBe(1)
  expect(bad.stderr).toContain('PETSTORE_SANDBOX_MAX_PETS')
})
