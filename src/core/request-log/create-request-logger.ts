import type { RequestLogEntry } from './create-request-log.js'

export type LogFormat = 'pretty' | 'json' | 'off'

/** A broken promise of the spec by the upstream, as the proxy logs it (create-proxy-stats.ts). */
export interface LoggedViolation {
  time: string
  promise: string
  expected: string
  method: string
  path: string
  status: number
  key: string
}

/** An open point of the spec the upstream decided otherwise than the sandbox: no violation (D39). */
export interface LoggedDifference extends LoggedViolation {
  /** The sandbox's decisions behind the promise, e.g. `D3`. */
  decisions: string
}

/**
 * The stdout log of `start` and `proxy`: one line per answered request, read from the request log
 * (keys already masked there, runtime ones included), and under `proxy` one per broken promise of
 * the spec, per open point decided otherwise (D39) or per check that could not run; `pretty` or
 * `json` lines, colour only on a terminal. Whatever a client sent is printed with its control
 * characters escaped, so no request can forge a line or move the cursor of the terminal that
 * shows the log.
 */
export function createRequestLogger(
  format: LogFormat,
  write: (line: string) => void,
  colour: boolean,
  now: () => number = Date.now,
  // A key or the admin token may be used as a session name (D35): `mask` masks it in the secrets in force.
  mask: (text: string) => string = (text) => text,
) {
  const paint = (code: string, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text)
  const json = (value: object) => write(escapeJsonLine(JSON.stringify(value)))
  return {
    answer(entry: RequestLogEntry): void {
      if (format === 'off') return
      const ms = entry.durationMs
      if (format === 'json') {
        const { time, method, path: url, status, key, fault, source } = entry
        const session = entry.session === undefined ? undefined : mask(entry.session)
        json({
          time,
          method,
          url,
          status,
          ms,
          key,
          ...(fault === undefined ? {} : { fault }),
          ...(source === undefined ? {} : { source }),
          ...(session === undefined ? {} : { session }),
        })
        return
      }
      // Status 0: an injected dropped connection, which has no HTTP status.
      const status = paint(statusColour(entry.status), entry.status === 0 ? 'dropped' : String(entry.status))
      const source = entry.source === undefined ? '' : ` source=${entry.source}`
      // A session name is checked against its rule before it is logged: nothing to escape.
      const session = entry.session === undefined ? '' : ` session=${mask(entry.session)}`
      write(
        `${escapeControls(entry.method)} ${escapeControls(entry.path)} ${status} ${ms}ms key=${escapeControls(entry.key)}${source}${session}`,
      )
    },
    /** A hint for whoever reads the log, said once where it applies (a Prefer header this sandbox ignores). */
    note(message: string): void {
      if (format === 'json') json({ time: new Date(now()).toISOString(), note: message })
      else if (format === 'pretty') write(`${paint('36', 'note')} ${escapeControls(message)}`)
    },
    /** Something that kept the proxy from checking an answer; the answer itself was sent. */
    problem(message: string): void {
      if (format === 'json') json({ time: new Date(now()).toISOString(), problem: message })
      else if (format === 'pretty') write(`${paint('33', 'problem')} ${escapeControls(message)}`)
    },
    violation(violation: LoggedViolation): void {
      if (format === 'off') return
      if (format === 'json') json({ ...violation, violation: violation.promise })
      else
        write(
          `${paint('31', 'violation')} ${escapeControls(`${violation.promise}: expected ${violation.expected} (${violation.method} ${violation.path} ${violation.status} key=${violation.key})`)}`,
        )
    },
    difference(difference: LoggedDifference): void {
      if (format === 'off') return
      if (format === 'json') json({ ...difference, difference: difference.promise })
      else
        write(
          `${paint('36', 'difference')} ${escapeControls(`${difference.promise} (${difference.decisions}): the sandbox's choice is ${difference.expected} (${difference.method} ${difference.path} ${difference.status} key=${difference.key})`)}`,
        )
    },
  }
}

export type RequestLogger = ReturnType<typeof createRequestLogger>

function statusColour(status: number): string {
  if (status >= 500 || status === 0) return '31'
  if (status >= 400) return '33'
  return '32'
}

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators: any of them could end a
// line or drive the terminal (ESC, CSI) when printed.
const CONTROLS = /[\p{Cc}\u2028\u2029]/gu

/**
 * `text` with every control character written as `\xNN` (`\uNNNN` above 0xff), so that it prints
 * on one line and as itself.
 *
 * @example
 * escapeControls('a\r\nb\u001b[2K') // 'a\\x0d\\x0ab\\x1b[2K'
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (control) => {
    const code = control.charCodeAt(0)
    return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`
  })
}

/** A JSON line with the controls JSON itself leaves raw (DEL, C1, U+2028/9) escaped as well. */
function escapeJsonLine(line: string): string {
  return line.replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (control) => `\\u${control.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
