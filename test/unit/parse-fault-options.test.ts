import { InvalidArgumentError } from 'commander'
import { expect, it } from 'vitest'
import {
  parseErrorKinds,
  parseLatency,
  parseOperationFault,
  parseRate,
} from '../../src/node/cli/parse-fault-options.js'

it('reads a latency as fixed ms or a min-max range', () => {
  expect(parseLatency('200')).toEqual({ min: 200, max: 200 })
  expect(parseLatency('100-400')).toEqual({ min: 100, max: 400 })
  for (const bad of ['', '-5', '400-100', '1.5', '70000', 'ten'])
    expect(() => parseLatency(bad), bad).toThrow(InvalidArgumentError)
})

it('reads an error rate from 0 to 1', () => {
  expect(parseRate('0')).toBe(0)
  expect(parseRate('0.25')).toBe(0.25)
  expect(parseRate('.5')).toBe(0.5)
  expect(parseRate('1')).toBe(1)
  for (const bad of ['1.5', '-0.1', 'half', '', '1e-1']) expect(() => parseRate(bad), bad).toThrow(InvalidArgumentError)
})

it('reads error kinds as a comma-separated list of 500, 503 and drop', () => {
  expect(parseErrorKinds('500,drop')).toEqual(['500', 'drop'])
  expect(() => parseErrorKinds('500,418')).toThrow(InvalidArgumentError)
})

it('collects per-operation faults from repeated --fault options', () => {
  const first = parseOperationFault('createPet:error-rate=0.5,latency=100-300', undefined)
  const both = parseOperationFault('getPet:latency=20', first)
  expect(both).toEqual({
    createPet: { errorRate: 0.5, latency: { min: 100, max: 300 } },
    getPet: { latency: { min: 20, max: 20 } },
  })
  for (const bad of [
    'createPet',
    'createPet:',
    'createPet:speed=1',
    'createPet:error-rate',
    'createPet:latency=1=2',
    ':latency=1',
  ]) {
    expect(() => parseOperationFault(bad, undefined), bad).toThrow(InvalidArgumentError)
  }
})

it("words an out-of-bounds value with the admin document's fault schema, as the admin API and the faults option do", () => {
  expect(() => parseLatency('70000')).toThrow('latency must be between 0 and 60000.')
  expect(() => parseLatency('100-70000')).toThrow('latency.max must be between 0 and 60000.')
  expect(() => parseLatency('400-100')).toThrow('latency: min must not be above max.')
  expect(() => parseRate('1.5')).toThrow('errorRate must be between 0 and 1.')
  expect(() => parseErrorKinds('500,418')).toThrow('kinds[1] must be one of 500, 503, drop.')
})
