import { expect, it } from 'vitest'
import { adminContractViolations, createAdminContractChecker } from '../support/admin-contract.js'
import { rawExchange, rawRequest, toFetchResponse } from '../support/raw-http.js'
import { startCli } from '../support/start-cli.js'

const adminContract = createAdminContractChecker()
const TOKEN = 'admin-token-right-one'
const WRONG = 'admin-token-wrong-guess'

/** GET /__sandbox/state from a loopback address of its own, checked against the admin contract. */
async function state(url: string, token: string, localAddress: string) {
  const answer = await rawExchange(url, rawRequest({ target: '/__sandbox/state', headers: [['Authorization', `Bearer ${token}`]] }), { localAddress })
  expect(answer).toBeDefined()
  const origin = new URL(url).origin
  expect(await adminContractViolations('GET', `${origin}/__sandbox/state`, toFetchResponse(answer!))).toEqual([])
  return answer!
}

it('limits wrong admin tokens per client address to 10 a minute, then 429 with Retry-After, never slowing the right token', async () => {
  const cli = await startCli(['--log', 'pretty', '--pets', '1', '--admin-token', TOKEN])
  try {
    const attacker = '127.0.0.21'
    for (let i = 0; i < 10; i++) expect((await state(cli.url, `${WRONG}${i}`, attacker)).status).toBe(401)
    const limited = await state(cli.url, WRONG, attacker)
    expect(limited.status).toBe(429)
    expect(JSON.parse(limited.body.toString())).toMatchObject({ code: 'rate_limited', status: 429 })
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60)
    // Even the guessed-right token from the limited address is let in at once.
    expect((await state(cli.url, TOKEN, attacker)).status).toBe(200)
    // Another address has its own count.
    expect((await state(cli.url, WRONG, '127.0.0.22')).status).toBe(401)
    // The right token never counts: a hundred calls later, still 200.
    for (let i = 0; i < 100; i++) expect((await state(cli.url, TOKEN, '127.0.0.23')).status).toBe(200)

    // The request log shows each refusal with a fingerprint of what was presented, never the token.
    await new Promise((resolve) => setTimeout(resolve, 100))
    const lines = cli
      .output()
      .split('\n')
      .filter((line) => line.startsWith('GET /__sandbox/state'))
    expect(lines.filter((line) => / 401 .* key=refused:…#[0-9a-f]{4}$/.test(line))).toHaveLength(11)
    expect(lines.filter((line) => / 429 .* key=refused:…#[0-9a-f]{4}$/.test(line))).toHaveLength(1)
    expect(lines.filter((line) => / 200 .* key=admin$/.test(line))).toHaveLength(101)
    expect(cli.output()).not.toContain(WRONG)
    expect(cli.output()).not.toContain(TOKEN)
  } finally {
    await cli.stop()
  }
})

it('lets the window pass: after the sandbox clock moves on a minute, wrong tokens get 401 again', async () => {
  const cli = await startCli(['--log', 'off', '--pets', '1', '--admin-token', TOKEN])
  try {
    for (let i = 0; i < 11; i++) await state(cli.url, WRONG, '127.0.0.31')
    expect((await state(cli.url, WRONG, '127.0.0.31')).status).toBe(429)
    const origin = new URL(cli.url).origin
    const moved = await fetch(`${origin}/__sandbox/clock`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"advanceMs":61000}',
    })
    adminContract.check('POST', `${origin}/__sandbox/clock`, moved)
    expect(moved.status).toBe(200)
    expect((await state(cli.url, WRONG, '127.0.0.31')).status).toBe(401)
  } finally {
    await cli.stop()
  }
})
