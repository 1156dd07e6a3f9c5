import { expect, it } from 'vitest'
import { ConfigError } from '../../src/core/errors/config-error.js'
import { readStateFile } from '../../src/node/persistence/read-state-file.js'

const HEADER = '{"petstoreSandboxState":1,"seed":1,"pets":2}\n'
const pet = (id: number) => `{"created":{"id":${id},"name":"P${id}","categoryId":1}}\n`

it('replays created pets and resets into the pets since the last reset and the next id', () => {
  expect(readStateFile(HEADER + pet(3) + pet(4), 'f', 2)).toMatchObject({
    created: [{ id: 3 }, { id: 4 }],
    nextId: 5,
    tornTail: false,
  })
  expect(readStateFile(`${HEADER + pet(3)}{"reset":true}\n${pet(3)}`, 'f', 2)).toMatchObject({
    created: [{ id: 3 }],
    nextId: 4,
  })
  expect(readStateFile(`${HEADER + pet(3)}{"reset":true}\n`, 'f', 2)).toMatchObject({ created: [], nextId: 3 })
})

it('drops an incomplete last line and says so', () => {
  expect(readStateFile(`${HEADER + pet(3)}{"created":{"id":4,`, 'f', 2)).toMatchObject({
    created: [{ id: 3 }],
    nextId: 4,
    tornTail: true,
  })
})

it('reports corruption with the line number', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /line 1: the file is empty/],
    ['{"petstoreSandboxState":1', /line 1: the header line is incomplete/],
    ['{"something":"else"}\n', /line 1: not a petstore-sandbox state header/],
    ['{"petstoreSandboxState":1,"seed":1,"pets":2,"given":"abc"}\n', /line 1: not a petstore-sandbox state header/],
    [`${HEADER + pet(3)}garbage\n`, /line 3: not JSON/],
    [`${HEADER}{"created":{"id":3,"name":"","categoryId":1}}\n`, /line 2: not a created pet/],
    [`${HEADER}{"deleted":3}\n`, /line 2: not a change the journal knows \(one of created, put, reset\)/],
    [`${HEADER}{"reset":false}\n`, /line 2: a reset holds true/],
    [HEADER + pet(4) + pet(4), /line 3: pet id 4 does not ascend/],
    [HEADER + pet(2), /line 2: pet id 2 does not ascend/],
  ]
  for (const [text, message] of cases) {
    expect(() => readStateFile(text, 'state.jsonl', 2), JSON.stringify(text)).toThrow(ConfigError)
    expect(() => readStateFile(text, 'state.jsonl', 2)).toThrow(message)
  }
})

it('reads the digest of given pets from the header, and a header without one as generated pets', () => {
  const given = 'a'.repeat(64)
  expect(
    readStateFile(`{"petstoreSandboxState":1,"seed":1,"pets":2,"given":"${given}"}\n${pet(3)}`, 'f', 2).header,
  ).toEqual({
    petstoreSandboxState: 1,
    seed: 1,
    pets: 2,
    given,
  })
  expect(readStateFile(HEADER, 'f', 2).header).toEqual({ petstoreSandboxState: 1, seed: 1, pets: 2 })
})
