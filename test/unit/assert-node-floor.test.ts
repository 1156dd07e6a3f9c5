import { expect, it } from 'vitest'
import { assertNodeFloor } from '../../src/core/assert-node-floor.js'

it('names the floor and the running version on a Node older than 22.12', () => {
  expect(() => assertNodeFloor('20.20.2')).toThrow(
    'petstore-sandbox needs Node 22.12 or newer (this is v20.20.2): `nvm install 24`, or `npm i -D node@24` in the app and run it through npm scripts',
  )
  expect(() => assertNodeFloor('22.11.0')).toThrow('(this is v22.11.0)')
})

it('accepts 22.12 and newer, and a runtime without a Node version', () => {
  for (const version of ['22.12.0', '22.23.1', '23.0.0', '24.21.0', undefined])
    expect(() => assertNodeFloor(version)).not.toThrow()
})
