import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { FIREFOX, howToRun, TIERS, tierMissing } from './tiers.js'

/** A headless Firefox, driven through Marionette in its privileged (chrome) context. */
export interface Firefox {
  /**
   * Runs `script` as the body of a function in Firefox's chrome context, where the browser's own
   * modules (DevTools among them) can be loaded; `arguments` holds `args`. A promise it returns is
   * awaited. Resolves with the returned value, as JSON.
   */
  chrome<T>(script: string, args?: unknown[]): Promise<T>
  close(): Promise<void>
}

/**
 * Starts Debian's firefox-esr headless with Marionette on a port of its choosing, in a throwaway
 * profile. Marionette is Firefox's own automation protocol (length-prefixed JSON over TCP,
 * https://firefox-source-docs.mozilla.org/testing/marionette/Protocol.html); Playwright drives only
 * its own patched Firefox builds, which this machine cannot download. System access, which the
 * chrome context needs, is granted by the `-remote-allow-system-access` flag.
 */
export async function launchFirefox(): Promise<Firefox> {
  const missing = tierMissing('firefox')
  if (missing !== undefined)
    throw new Error(
      `The Firefox check needs firefox-esr (or FIREFOX_PATH): ${missing}. ${howToRun([TIERS.firefox], 'npm run test:browser')}`,
    )
  const profile = await mkdtemp(join(tmpdir(), 'petstore-firefox-'))
  // Port 0: Marionette picks a free port and writes it to MarionetteActivePort in the profile.
  await writeFile(join(profile, 'user.js'), 'user_pref("marionette.port", 0);\n')
  const child = spawn(
    FIREFOX,
    ['--headless', '--marionette', '-remote-allow-system-access', '--no-remote', '--profile', profile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
    await rm(profile, { recursive: true, force: true })
  }
  try {
    const portFile = join(profile, 'MarionetteActivePort')
    for (const started = Date.now(); !existsSync(portFile); await sleep(100)) {
      if (child.exitCode !== null || Date.now() - started > 30_000)
        throw new Error(`Firefox did not start Marionette within 30 s:\n${output}`)
    }
    const session = await openSession(connect(Number(await readFile(portFile, 'utf8')), '127.0.0.1'))
    await session.send('WebDriver:NewSession', {})
    await session.send('Marionette:SetContext', { value: 'chrome' })
    return {
      async chrome<T>(script: string, args: unknown[] = []) {
        const { value } = (await session.send('WebDriver:ExecuteScript', { script, args })) as { value: T }
        return value
      },
      async close() {
        // The quit's answer may never come: Firefox is gone by then.
        await Promise.race([
          session.send('Marionette:Quit', { flags: ['eForceQuit'] }).catch(() => undefined),
          sleep(5_000),
        ])
        session.socket.destroy()
        await stop()
      },
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Marionette's framing: `<length>:<JSON>`; a command is `[0, id, name, params]`, its answer `[1, id, error, result]`. */
async function openSession(socket: Socket) {
  const waiting = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>()
  let hello: (() => void) | undefined
  const greeted = new Promise<void>((resolve, reject) => {
    hello = resolve
    socket.once('error', reject)
  })
  let buffer = Buffer.alloc(0)
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    for (;;) {
      const colon = buffer.indexOf(':')
      if (colon < 0) return
      const length = Number(buffer.subarray(0, colon).toString())
      if (buffer.length < colon + 1 + length) return
      const message = JSON.parse(buffer.subarray(colon + 1, colon + 1 + length).toString())
      buffer = buffer.subarray(colon + 1 + length)
      if (!Array.isArray(message)) {
        hello?.()
        continue
      }
      const [, id, error, result] = message as [1, number, { error: string; message: string } | null, unknown]
      const pending = waiting.get(id)
      waiting.delete(id)
      if (error) pending?.reject(new Error(`Marionette: ${error.error}: ${error.message}`))
      else pending?.resolve(result)
    }
  })
  socket.on('close', () => {
    for (const pending of waiting.values()) pending.reject(new Error('Marionette closed the connection'))
    waiting.clear()
  })
  await greeted
  let next = 0
  return {
    socket,
    send(name: string, params: object): Promise<unknown> {
      const id = ++next
      const text = JSON.stringify([0, id, name, params])
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject })
        socket.write(`${Buffer.byteLength(text)}:${text}`)
      })
    },
  }
}
