import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminContractViolations } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { startUpstream, type Upstream } from '../support/mutants/start-upstream.js'
import { rawExchange, toFetchResponse } from '../support/raw-http.js'
import { type CliProcess, startCli } from '../support/start-cli.js'

// The stdout log of both commands, read from the one request log: what a client sends can never
// forge a line or drive the terminal, and every key is masked, those added at runtime included.
const TOKEN = 'request-log-admin-token'
const contract = createContractChecker()
const admin = createContractChecker(adminContractViolations, 'admin responses that break fixtures/admin-openapi.yaml')

// A demo key (configured under both commands), then CR LF, a forged line, and the escapes that
// erase the line above and move the cursor up.
const FORGED = '/v1/pets?limit=1&q=sandbox-free-key%0d%0aPOST%20/__sandbox/reset%20200%200.2ms%20key=admin%1b[2K%1b[1A'
// The same with the key percent-encoded, which only decoding reveals.
const FORGED_ENCODED =
  '/v1/pets?limit=1&q=sandbox%2Dfree%2Dkey%0d%0aPOST%20/__sandbox/reset%20200%200.2ms%20key=admin%1b[2K%1b[1A'

async function settled(cli: CliProcess, expected: RegExp): Promise<string[]> {
  for (let i = 0; i < 50 && !expected.test(cli.output()); i++) await new Promise((resolve) => setTimeout(resolve, 50))
  return cli.output().split('\n')
}

for (const command of ['start', 'proxy'] as const) {
  describe(`the stdout log under ${command}`, () => {
    let cli: CliProcess
    let origin: string
    let upstream: Upstream | undefined
    beforeAll(async () => {
      if (command === 'proxy') upstream = await startUpstream()
      const args = ['--log', 'pretty', '--pets', '3', '--admin-token', TOKEN]
      cli =
        command === 'start' ? await startCli(args) : await startCli(['--upstream', upstream!.url, ...args], {}, 'proxy')
      origin = new URL(cli.url).origin
    })
    afterAll(async () => {
      await cli.stop()
      await upstream?.close()
    })

    it('prints a URL that decodes to CR LF and terminal escapes as one line, still encoded, its key masked', async () => {
      for (const target of [FORGED, FORGED_ENCODED]) {
        const bytes = `GET ${target} HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nConnection: close\r\n\r\n`
        const answer = await rawExchange(origin, bytes)
        expect(answer?.status).toBe(401)
        contract.check('GET', `${origin}${target}`, toFetchResponse(answer!))
      }
      // Both lines, or a key left whole.
      const lines = await settled(cli, /%2Dkey|sand…#[0-9a-f]{4}%0d%0aPOST[\s\S]*sand…#[0-9a-f]{4}%0d%0aPOST/)
      const logged = lines.filter((line) => line.startsWith('GET /v1/pets?limit=1&q='))
      expect(logged).toEqual([
        expect.stringMatching(
          /^GET \/v1\/pets\?limit=1&q=sand…#[0-9a-f]{4}%0d%0aPOST%20\/__sandbox\/reset%20200%200\.2ms%20key=admin%1b\[2K%1b\[1A 401 /,
        ),
        expect.stringMatching(
          /^GET \/v1\/pets\?limit=1&q=sand…#[0-9a-f]{4}%0d%0aPOST%20\/__sandbox\/reset%20200%200\.2ms%20key=admin%1b\[2K%1b\[1A 401 /,
        ),
      ])
      expect(lines.filter((line) => line.startsWith('POST /__sandbox/reset'))).toEqual([])
      expect(cli.output()).not.toContain('\r')
      expect(cli.output()).not.toContain('\u001b')
      // The banner of `start` lists the demo keys; no log line shows one.
      expect(logged.join('\n')).not.toContain('sandbox-free-key')
    })

    it('masks a key added at runtime wherever a client puts it', async () => {
      const key = `runtime-added-${command}-key`
      const added = await fetch(`${origin}/__sandbox/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ key, plan: 'free' }),
      })
      admin.check('POST', `${origin}/__sandbox/keys`, added.clone())
      expect(added.status).toBe(200)
      for (const path of [
        `/pets?limit=1&q=${key}`,
        `/pets?limit=1&q=${encodeURIComponent(key).replaceAll('-', '%2D')}`,
        `/pets/${key}`,
      ]) {
        const response = await fetch(`${cli.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
        contract.check('GET', `${cli.url}${path}`, response.clone())
        await response.arrayBuffer()
      }
      const lines = (await settled(cli, /GET \/v1\/pets\/runt…#/)).filter(
        (line) => line.startsWith('GET /v1/pets') && line.includes('runt…#'),
      )
      expect(lines).toHaveLength(3)
      for (const line of lines) expect(line).toMatch(/ key=runt…#[0-9a-f]{4}( |$)/)
      expect(cli.output()).not.toContain(key)
      expect(cli.output()).not.toMatch(/runtime%2Dadded/)
    })
  })
}
