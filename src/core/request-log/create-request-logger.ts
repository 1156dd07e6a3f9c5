import type { RequestLogEntry } from './create-request-log.js'

export type LogFormat = 'pretty' | 'json' | 'off'

/** Holds a promise the upstream broke. */
export interface LoggedViolation {
  time: string
  promise: string
  expected: string
  method: string
  path: string
  status: number
  key: string
}

/** Holds an open point the upstream decided otherwise (D39). */
export interface LoggedDifference extends LoggedViolation {
  /** Names the decisions behind it (`D3`). */
  decisions: string
}

/** Creates the stdout log, escaping controls so no request forges a line. */
export function createRequestLogger(
  format: LogFormat,
  write: (line: string) => void,
  colour: boolean,
  now: () => number = Date.now,
  // A session name may be a key or the admin token (D35).
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
      const status = paint(statusColour(entry.status), entry.status === 0 ? 'dropped' : String(entry.status))
      const source = entry.source === undefined ? '' : ` source=${entry.source}`
      // A session name's rule admits no control.
      const session = entry.session === undefined ? '' : ` session=${mask(entry.session)}`
      const key = escapeControls(entry.key)
      write(
        `${escapeControls(entry.method)} ${escapeControls(entry.path)} ${status} ${ms}ms key=${key}${source}${session}`,
      )
    },
    /** Writes a hint (a Prefer header this sandbox ignores). */
    note(message: string): void {
      if (format === 'json') json({ time: new Date(now()).toISOString(), note: message })
      else if (format === 'pretty') write(`${paint('36', 'note')} ${escapeControls(message)}`)
    },
    /** Writes why the proxy left an answer unchecked. */
    problem(message: string): void {
      if (format === 'json') json({ time: new Date(now()).toISOString(), problem: message })
      else if (format === 'pretty') write(`${paint('33', 'problem')} ${escapeControls(message)}`)
    },
    violation(violation: LoggedViolation): void {
      if (format === 'off') return
      if (format === 'json') json({ ...violation, violation: violation.promise })
      else {
        const { promise, expected, method, path, status, key } = violation
        const text = `${promise}: expected ${expected} (${method} ${path} ${status} key=${key})`
        write(`${paint('31', 'violation')} ${escapeControls(text)}`)
      }
    },
    difference(difference: LoggedDifference): void {
      if (format === 'off') return
      if (format === 'json') json({ ...difference, difference: difference.promise })
      else {
        const { promise, decisions, expected, method, path, status, key } = difference
        const answer = `(${method} ${path} ${status} key=${key})`
        const text = `${promise} (${decisions}): the sandbox's choice is ${expected} ${answer}`
        write(`${paint('36', 'difference')} ${escapeControls(text)}`)
      }
    },
  }
}

export type RequestLogger = ReturnType<typeof createRequestLogger>

function statusColour(status: number): string {
  if (status >= 500 || status === 0) return '31'
  if (status >= 400) return '33'
  return '32'
}

// Controls that could end a line or drive the terminal (C0, C1, DEL, U+2028/9).
const CONTROLS = /[\p{Cc}\u2028\u2029]/gu

/** Escapes every control, so `text` prints on one line. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (control) => {
    const code = control.charCodeAt(0)
    return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`
  })
}

/** Escapes the controls JSON leaves raw (DEL, C1, U+2028/9). */
function escapeJsonLine(line: string): string {
  return line.replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (control) => `\\u${control.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
