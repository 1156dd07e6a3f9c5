import { expect, it } from 'vitest'
import { compareAnswers, type ComparedAnswer, type KeySequences } from '../../src/node/proxy/compare-answers.js'
import { createShadowReport, MAX_DIFFERENCE_GROUPS } from '../../src/node/proxy/shadow-report.js'

const example = {
  time: '2030-01-01T00:00:00.000Z',
  method: 'GET',
  path: '/v1/pets/1',
  upstreamStatus: 200,
  sandboxStatus: 200,
}

it('groups differences by operation, aspect and kind, and holds at most its bound of groups, counting the rest', () => {
  const report = createShadowReport()
  for (let index = 0; index < 3000; index++) {
    report.handed()
    report.compared()
    report.differed({
      operation: 'getPet',
      aspect: `body:field:f${index % 1000}`,
      kind: 'decision',
      decision: 'D7',
      upstream: '"x"',
      sandbox: 'absent',
      example,
    })
  }
  report.differed({
    operation: 'getPet',
    aspect: 'body:field:f0',
    kind: 'decision',
    decision: 'D7',
    upstream: '"y"',
    sandbox: 'absent',
    example,
  })
  const snapshot = report.snapshot()
  expect(snapshot.differences).toHaveLength(MAX_DIFFERENCE_GROUPS)
  expect(snapshot.differences[0]).toMatchObject({ aspect: 'body:field:f0', count: 4, upstream: '"x"' })
  // 1000 distinct groups seen three times each: the 900 past the bound are counted, not kept.
  expect(snapshot.unlisted).toBe(900 * 3)
  expect(snapshot).toMatchObject({ exchanges: 3000, compared: 3000, dropped: 0 })
})

const answer = (status: number, headers: Record<string, string>, body: unknown): ComparedAnswer => ({
  status,
  headers,
  body,
  json: true,
})

it('reads X-RateLimit-Remaining on each side against that side’s own last answer, never one origin’s numbers against the other’s', () => {
  const sequences: KeySequences = {}
  const rate = (remaining: number, reset: string) => ({
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': reset,
  })
  const query = new URLSearchParams()
  // Other numbers on each side, both counting down by one: no difference.
  expect(
    compareAnswers('listPets', query, answer(200, rate(41, '900'), []), answer(200, rate(12, '120'), []), sequences),
  ).toEqual([])
  expect(
    compareAnswers('listPets', query, answer(200, rate(40, '900'), []), answer(200, rate(11, '120'), []), sequences),
  ).toEqual([])
  // The upstream stuck, the sandbox counting: the spec's count-down broken.
  expect(
    compareAnswers('listPets', query, answer(200, rate(40, '900'), []), answer(200, rate(10, '120'), []), sequences),
  ).toEqual([
    {
      aspect: 'header:X-RateLimit-Remaining',
      upstream: 'down by 0 (40 to 40)',
      sandbox: 'down by 1 (11 to 10)',
      promise: 'remaining-counts-down',
    },
  ])
  // One side's window rolled over, not the other's.
  expect(
    compareAnswers('listPets', query, answer(200, rate(59, '960'), []), answer(200, rate(9, '120'), []), sequences),
  ).toEqual([{ aspect: 'header:X-RateLimit-Reset', upstream: 'a new window', sandbox: 'the same window' }])
})

it('tells a listing in another order from one of other pets, and leaves a created pet’s id to the upstream', () => {
  const pets = (...ids: number[]) => ids.map((id) => ({ id, name: `Pet ${id}`, categoryId: 1 }))
  const query = new URLSearchParams()
  expect(
    compareAnswers('listPets', query, answer(200, {}, pets(3, 2, 1)), answer(200, {}, pets(1, 2, 3)), undefined).map(
      (d) => d.aspect,
    ),
  ).toEqual(['body:order'])
  expect(
    compareAnswers('listPets', query, answer(200, {}, pets(1, 2)), answer(200, {}, pets(1, 3)), undefined).map(
      (d) => d.aspect,
    ),
  ).toEqual(['body:ids'])
  const created = { id: 51, name: 'Rex', categoryId: 2, status: 'sold' }
  expect(
    compareAnswers('createPet', query, answer(201, {}, created), answer(201, {}, { ...created, id: 7 }), undefined, {
      ignoreId: true,
    }),
  ).toEqual([])
  expect(
    compareAnswers(
      'createPet',
      query,
      answer(201, {}, created),
      answer(201, {}, { ...created, id: 7, status: 'available' }),
      undefined,
      { ignoreId: true },
    ),
  ).toEqual([{ aspect: 'body:field:status', upstream: '"sold"', sandbox: '"available"' }])
})
