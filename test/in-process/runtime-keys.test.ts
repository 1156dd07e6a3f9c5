import { expect, it } from 'vitest'
import { ConfigError, createSandbox, type KeyChanges } from '../../src/index.js'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

const { sandbox, api } = useInProcessSandbox({ pets: 3 })

it('serves a key added at runtime with its plan, from the next request on', async () => {
  expect((await api('/pets', { key: 'partner-key' })).status).toBe(401)
  const added = await sandbox.apiKeys.add({ key: 'partner-key', plan: 'pro' })
  expect(added).toEqual({ key: 'partner-key', plan: 'pro', perMinute: 300, perDay: 10000 })
  const response = await api('/pets', { key: 'partner-key' })
  expect(response.status).toBe(200)
  expect(response.headers.get('x-ratelimit-limit')).toBe('300')
  expect(sandbox.keys.map((key) => key.key)).toContain('partner-key')
  await sandbox.apiKeys.revoke('partner-key')
})

it('changes a key plan, keeping what it has used, and takes optional limits', async () => {
  await api('/pets', { key: 'sandbox-free-key' })
  await sandbox.apiKeys.setPlan('sandbox-free-key', 'business')
  const response = await api('/pets', { key: 'sandbox-free-key' })
  expect(response.headers.get('x-ratelimit-limit')).toBe('1000')
  expect(response.headers.get('x-ratelimit-remaining')).toBe('998')
  const enterprise = await sandbox.apiKeys.setPlan('sandbox-free-key', 'enterprise', { perMinute: 7, perDay: 70 })
  expect(enterprise).toEqual({ key: 'sandbox-free-key', plan: 'enterprise', perMinute: 7, perDay: 70 })
  expect((await sandbox.state()).keys.find((key) => key.key === 'sandbox-free-key')).toMatchObject({
    plan: 'enterprise',
    perMinute: 7,
    perDay: 70,
  })
  await sandbox.apiKeys.setPlan('sandbox-free-key', 'free')
})

it('refuses a revoked key with 401, and a reset does not bring it back', async () => {
  await sandbox.apiKeys.revoke('sandbox-pro-key')
  expect((await api('/pets', { key: 'sandbox-pro-key' })).status).toBe(401)
  await sandbox.reset()
  expect((await api('/pets', { key: 'sandbox-pro-key' })).status).toBe(401)
  await sandbox.apiKeys.add({ key: 'sandbox-pro-key', plan: 'pro' })
  expect((await api('/pets', { key: 'sandbox-pro-key' })).status).toBe(200)
})

it('forgets a revoked key’s scenario in every session: added again, the key starts with none in each', async () => {
  await sandbox.apiKeys.add({ key: 'scenario-key', plan: 'pro' })
  const team = sandbox.session('revoke-team')
  await sandbox.scenarios.set('scenario-key', 'slow')
  await team.scenarios.set('scenario-key', 'flaky')
  expect([sandbox.scenarios.get('scenario-key'), team.scenarios.get('scenario-key')]).toEqual(['slow', 'flaky'])
  await sandbox.apiKeys.revoke('scenario-key')
  await sandbox.apiKeys.add({ key: 'scenario-key', plan: 'pro' })
  expect([sandbox.scenarios.get('scenario-key'), team.scenarios.get('scenario-key')]).toEqual([undefined, undefined])
  await sandbox.apiKeys.revoke('scenario-key')
  await sandbox.sessions.delete('revoke-team')
})

it.each([
  ['an existing key', () => sandbox.apiKeys.add({ key: 'sandbox-free-key', plan: 'pro' }), 'key is already configured'],
  [
    'an unknown plan',
    () => sandbox.apiKeys.add({ key: 'new-key-1', plan: 'gold' as never }),
    'plan must be one of free, pro, business, enterprise',
  ],
  [
    'enterprise without limits',
    () => sandbox.apiKeys.add({ key: 'new-key-2', plan: 'enterprise' }),
    'perMinute is required when plan is enterprise',
  ],
  [
    'a key that is no bearer token',
    () => sandbox.apiKeys.add({ key: 'a b c d e', plan: 'free' }),
    'key must be a bearer token (RFC 6750 b64token)',
  ],
  [
    'a one-character key',
    () => sandbox.apiKeys.add({ key: '~', plan: 'free' }),
    'key must be a bearer token (RFC 6750 b64token) of 8 to 256 characters',
  ],
  ['a plan change of an unknown key', () => sandbox.apiKeys.setPlan('nobody', 'pro'), 'no configured key "nobody"'],
  ['revoking an unknown key', () => sandbox.apiKeys.revoke('nobody'), 'no configured key "nobody"'],
])('refuses %s with a ConfigError and changes nothing', async (_, change, message) => {
  const before = sandbox.keys
  await expect(change()).rejects.toThrow(ConfigError)
  await expect(change()).rejects.toThrow(message)
  expect(sandbox.keys).toEqual(before)
})

it('refuses a key equal to the admin token', async () => {
  const guarded = createSandbox({ adminToken: 'admin-token-1234' })
  await expect(guarded.apiKeys.add({ key: 'admin-token-1234', plan: 'free' })).rejects.toThrow(
    'key must differ from the admin token',
  )
})

it('commits each change to the key storage before it is in force, and starts from what it restored', async () => {
  const committed: KeyChanges[] = []
  const storage = {
    restored: { put: [{ key: 'kept-key-1', plan: 'pro' as const }], revoked: ['sandbox-free-key'] },
    commit: async (changes: KeyChanges) => {
      committed.push(structuredClone(changes))
    },
  }
  const restarted = createSandbox({ keyStorage: storage })
  expect(restarted.keys.map((key) => key.key)).toEqual([
    'sandbox-pro-key',
    'sandbox-business-key',
    'sandbox-enterprise-key',
    'kept-key-1',
  ])
  await restarted.apiKeys.add({ key: 'new-key-two', plan: 'business', perMinute: 5 })
  await restarted.apiKeys.revoke('kept-key-1')
  await restarted.apiKeys.add({ key: 'sandbox-free-key', plan: 'free' })
  expect(committed).toEqual([
    {
      put: [
        { key: 'kept-key-1', plan: 'pro' },
        { key: 'new-key-two', plan: 'business', perMinute: 5 },
      ],
      revoked: ['sandbox-free-key'],
    },
    { put: [{ key: 'new-key-two', plan: 'business', perMinute: 5 }], revoked: ['sandbox-free-key'] },
    // A revoked configured key added back keeps its place among the changes.
    {
      put: [
        { key: 'sandbox-free-key', plan: 'free' },
        { key: 'new-key-two', plan: 'business', perMinute: 5 },
      ],
      revoked: [],
    },
  ])
})

it('leaves the keys as they were when the storage cannot commit', async () => {
  const failing = createSandbox({
    keyStorage: { restored: { put: [], revoked: [] }, commit: () => Promise.reject(new Error('disk full')) },
  })
  await expect(failing.apiKeys.revoke('sandbox-free-key')).rejects.toThrow('disk full')
  expect(failing.keys.map((key) => key.key)).toContain('sandbox-free-key')
  await expect(failing.apiKeys.add({ key: 'x-key-one', plan: 'free' })).rejects.toThrow('disk full')
})

it('refuses restored entries that are not valid keys when the sandbox is created', () => {
  expect(() =>
    createSandbox({
      keyStorage: {
        restored: { put: [{ key: 'k-one-two', plan: 'gold' as never }], revoked: [] },
        commit: async () => {},
      },
    }),
  ).toThrow('restored keys: put[0].plan must be one of')
})

it('pushes each answered request to onRequest listeners, masked, until they stop', async () => {
  const seen: string[] = []
  const stop = sandbox.onRequest((entry) => seen.push(`${entry.status} ${entry.path} ${entry.key}`))
  await api('/pets?limit=1')
  await api('/pets/sandbox-free-key')
  stop()
  await api('/pets')
  expect(seen).toEqual(['200 /v1/pets?limit=1 sand…#63f3', '400 /v1/pets/sand…#63f3 sand…#63f3'])
})
