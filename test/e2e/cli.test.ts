import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { contractViolations } from '../support/contract.js'
import { runCli, startCli } from '../support/start-cli.js'

async function keysFile(content: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-keys-'))
  const file = join(dir, 'keys.json')
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content))
  return file
}

it('prints where it listens and the demo keys, then serves them', async () => {
  const cli = await startCli()
  try {
    expect(cli.output()).toMatch(/Listening on http:\/\/127\.0\.0\.1:\d+\/v1/)
    for (const key of ['sandbox-free-key', 'sandbox-pro-key', 'sandbox-business-key', 'sandbox-enterprise-key']) {
      expect(cli.output()).toContain(key)
      const response = await fetch(`${cli.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } })
      expect(response.status).toBe(200)
    }
  } finally {
    await cli.stop()
  }
})

it('logs one line per request with the key masked', async () => {
  const cli = await startCli()
  try {
    await fetch(`${cli.url}/pets?limit=2`, { headers: { authorization: 'Bearer sandbox-business-key' } })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const line = cli
      .output()
      .split('\n')
      .find((entry) => entry.startsWith('GET /v1/pets?limit=2'))
    expect(line).toMatch(/^GET \/v1\/pets\?limit=2 200 [\d.]+ms key=sand…#[0-9a-f]{4}$/)
    expect(cli.output()).not.toContain('Bearer sandbox-business-key')
  } finally {
    await cli.stop()
  }
})

it('goes on serving once its stdout has no reader (start | grep -m1 Listening): the lines are dropped', async () => {
  const cli = await startCli()
  try {
    // The read end of its stdout pipe closed, as grep closes it after its one match: writes are EPIPE.
    cli.child.stdout!.destroy()
    for (let i = 0; i < 5; i++) {
      const url = `${cli.url}/pets?limit=1`
      const response = await fetch(url, {
        headers: { authorization: 'Bearer sandbox-free-key', 'x-sandbox-session': `fresh-${i}` },
      })
      expect(await contractViolations('GET', url, response.clone())).toEqual([])
      expect(response.status).toBe(200)
      await response.arrayBuffer()
    }
    const healthz = await fetch(cli.url.replace(/\/v1$/, '/healthz'))
    expect(healthz.status).toBe(200)
    expect(cli.child.exitCode).toBeNull()
  } finally {
    expect(await cli.stop()).toEqual({ code: 0, signal: null })
  }
})

it('logs JSON lines with --log json', async () => {
  const cli = await startCli(['--log', 'json'])
  try {
    await fetch(`${cli.url}/pets`, { headers: { authorization: 'Bearer sandbox-pro-key' } })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const line = cli
      .output()
      .split('\n')
      .find((entry) => entry.startsWith('{'))
    expect(JSON.parse(line!)).toMatchObject({ method: 'GET', url: '/v1/pets', status: 200 })
    expect(line).not.toContain('sandbox-pro-key')
  } finally {
    await cli.stop()
  }
})

it('serves the same pets for the same seed in two processes, and others for another seed', async () => {
  const [a, b, c] = await Promise.all([
    startCli(['--seed', '11']),
    startCli(['--seed', '11']),
    startCli(['--seed', '12']),
  ])
  try {
    const body = async (url: string) =>
      (await fetch(`${url}/pets?limit=100`, { headers: { authorization: 'Bearer sandbox-pro-key' } })).text()
    const [first, second, other] = await Promise.all([body(a.url), body(b.url), body(c.url)])
    expect(first).toBe(second)
    expect(first).not.toBe(other)
  } finally {
    await Promise.all([a.stop(), b.stop(), c.stop()])
  }
})

it('uses the keys of a keys file and no demo keys', async () => {
  const file = await keysFile({
    keys: [
      { key: 'team-a-secret-key', plan: 'pro' },
      { key: 'big-customer-key', plan: 'enterprise', perMinute: 2, perDay: 5 },
    ],
  })
  const cli = await startCli(['--keys', file])
  try {
    expect(cli.output()).not.toContain('sandbox-free-key')
    const ok = await fetch(`${cli.url}/pets`, { headers: { authorization: 'Bearer team-a-secret-key' } })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('x-ratelimit-limit')).toBe('300')
    const enterprise = await fetch(`${cli.url}/pets`, { headers: { authorization: 'Bearer big-customer-key' } })
    expect(enterprise.headers.get('x-ratelimit-limit')).toBe('2')
    const demo = await fetch(`${cli.url}/pets`, { headers: { authorization: 'Bearer sandbox-free-key' } })
    expect(demo.status).toBe(401)
  } finally {
    await cli.stop()
  }
})

it.each([
  [
    { keys: [{ key: 'k-one-two-three', plan: 'gold' }] },
    /keys\[0\]\.plan must be one of free, pro, business, enterprise/,
  ],
  [
    {
      keys: [
        { key: 'k-one-two-three', plan: 'free' },
        { key: 'vip-key-value', plan: 'enterprise', perMinute: 10 },
      ],
    },
    /keys\[1\]\.perDay is required when plan is enterprise/,
  ],
  [{ keys: [{ key: 'k-one-two-three', plan: 'free', perMinute: -1 }] }, /keys\[0\]\.perMinute must be at least 1/],
  [
    { keys: [{ key: 'has space', plan: 'free' }] },
    /keys\[0\]\.key must be a bearer token \(RFC 6750 b64token\) of 8 to 256 characters/,
  ],
  [
    { keys: [{ key: '/', plan: 'free' }] },
    /keys\[0\]\.key must be a bearer token \(RFC 6750 b64token\) of 8 to 256 characters/,
  ],
  [{ nokeys: true }, /nokeys: unknown field; did you mean keys\?/],
  [[], /: the input must be an object$/],
  ['{ not json', /: not valid JSON at line 1, column 3$/],
])('refuses a bad keys file with a one-line message naming the entry (%#)', async (content, message) => {
  const file = await keysFile(content)
  const result = await runCli(['start', '--port', '0', '--keys', file])
  expect(result.code).not.toBe(0)
  expect(result.stderr.trim().split('\n')[0]).toMatch(message)
})

it('refuses a keys file that does not exist', async () => {
  const result = await runCli(['start', '--port', '0', '--keys', '/nonexistent/keys.json'])
  expect(result.code).not.toBe(0)
  expect(result.stderr).toContain('cannot read keys file /nonexistent/keys.json: ENOENT')
})

it.each([
  [['start', '--port', 'abc'], /--port/],
  [['start', '--port', '70000'], /--port/],
  [['start', '--pets', '100001'], /--pets/],
  [['start', '--pets', '-1'], /--pets/],
  [['start', '--log', 'loud'], /--log/],
  [['start', '--now', 'tomorrow'], /--now/],
  [['start', '--ban-seconds', '0'], /--ban-seconds/],
  [['start', '--unknown'], /unknown option/],
  [['stop'], /unknown command/],
])('exits non-zero with a one-line message for %j', async (args, message) => {
  const result = await runCli(args)
  expect(result.code).not.toBe(0)
  expect(result.stderr.split('\n')[0]).toMatch(message)
})

it('reads the port from PORT', async () => {
  const probe = await startCli()
  const port = Number(new URL(probe.url).port)
  await probe.stop()
  const result = await runCli(['start', '--port', 'x'], { PORT: String(port) })
  expect(result.code).not.toBe(0)
  // PORT alone is honoured when --port is not given.
  const { spawn } = await import('node:child_process')
  const { BIN } = await import('../support/start-cli.js')
  const child = spawn(process.execPath, [BIN, 'start', '--log', 'off'], { env: { ...process.env, PORT: String(port) } })
  const output = await new Promise<string>((resolve) => {
    let text = ''
    child.stdout.on('data', (chunk) => {
      text += chunk
      if (text.includes('Listening on')) resolve(text)
    })
  })
  expect(output).toContain(`Listening on http://127.0.0.1:${port}/v1`)
  child.kill('SIGTERM')
})

it('exits 0 on SIGTERM and on SIGINT', async () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const cli = await startCli()
    expect(await cli.stop(signal)).toEqual({ code: 0, signal: null })
  }
})

it('finishes an in-flight request on SIGTERM', async () => {
  const cli = await startCli()
  const pending = fetch(`${cli.url}/pets?limit=100`, { headers: { authorization: 'Bearer sandbox-pro-key' } })
  await new Promise((resolve) => setTimeout(resolve, 5))
  const stopped = cli.stop('SIGTERM')
  const response = await pending
  expect(response.status).toBe(200)
  expect(await stopped).toEqual({ code: 0, signal: null })
})

it('exits non-zero with a one-line message when the port is taken', async () => {
  const cli = await startCli()
  try {
    const port = new URL(cli.url).port
    const result = await runCli(['start', '--port', port])
    expect(result.code).not.toBe(0)
    expect(result.stderr.trim().split('\n')).toEqual([
      `error: port ${port} on 127.0.0.1 is already in use (another sandbox?); stop that process, choose another --port, or use --port 0 for a free one`,
    ])
  } finally {
    await cli.stop()
  }
})
