import { unlink, writeFile } from 'node:fs/promises'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'

/** Creates the health of the disk under a `--state` file (D26). */
export function createDiskHealth(path: string) {
  let failure: string | undefined
  let probing: Promise<void> | undefined
  const probe = async (): Promise<void> => {
    const probePath = `${path}.${process.pid}.probe`
    try {
      await writeFile(probePath, Buffer.alloc(4096), { flush: true })
      failure = undefined
    } catch {
    } finally {
      await unlink(probePath).catch(() => undefined)
      probing = undefined
    }
  }
  return {
    failed(error: unknown): string {
      failure = (error as NodeJS.ErrnoException).code ?? 'EIO'
      return failure
    },
    succeeded(): void {
      failure = undefined
    },
    /** Returns why the file cannot be written, or undefined; probes the disk meanwhile. */
    notReady(): string | undefined {
      if (failure === undefined) return undefined
      probing ??= probe()
      return failure
    },
    settled: (): Promise<void> => probing ?? Promise.resolve(),
  }
}

/** Refuses a change not made durable with a 503 (D26); `torn`: only a restart writes again. */
export function unwritable(what: string, code: string, torn = false): HttpError {
  const next = torn ? 'the sandbox must be restarted' : 'retry once the disk has room again'
  return new HttpError(
    503,
    ErrorCode.serviceUnavailable,
    `The sandbox cannot write its ${what} (${code}); nothing was stored; ${next}`,
    {
      'retry-after': '1',
    },
  )
}
