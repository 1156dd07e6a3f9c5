import type { Plan, Sandbox } from 'petstore-sandbox'

/**
 * The demo's rehearsal panel: the clock, the selected key's plan and quota, and reset, moved
 * through the sandbox object in the page, as a test or a demo script would, and the world saved
 * as a capsule. `changed` runs after each move so the app shows its effect, and `clockMoved` first
 * after a move of the clock.
 */
export function startRehearsal(document: Document, sandbox: Sandbox, changed: () => void, clockMoved: () => void) {
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
  const keySelect = $<HTMLSelectElement>('key')
  const planSelect = $<HTMLSelectElement>('plan')
  const clock = $<HTMLOutputElement>('clock')
  const scenarioSelect = $<HTMLSelectElement>('scenario')
  for (const { name, description } of sandbox.scenarios.list()) {
    const option = document.createElement('option')
    option.value = name
    option.textContent = name
    option.title = description
    scenarioSelect.append(option)
  }
  // The sunset the contract records (D18), read from the key's getPet answers would need a request.
  const sunset = Date.parse('2030-12-05T00:00:00Z')

  const showClock = () => {
    clock.textContent = new Date(sandbox.clock.now()).toISOString().slice(0, 19).replace('T', ' ')
  }
  const showPlan = () => {
    planSelect.value = sandbox.keys.find((key) => key.key === keySelect.value)?.plan ?? 'free'
    scenarioSelect.value = sandbox.scenarios.get(keySelect.value) ?? ''
  }
  const after =
    (move: () => unknown, { clock = false } = {}) =>
    async () => {
      await move()
      if (clock) clockMoved()
      showClock()
      showPlan()
      changed()
    }

  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-advance]')) {
    button.addEventListener(
      'click',
      after(() => sandbox.clock.advance(Number(button.dataset.advance)), { clock: true }),
    )
  }
  $('past-sunset').addEventListener(
    'click',
    after(() => sandbox.clock.set(sunset + 86_400_000), { clock: true }),
  )
  $('real-time').addEventListener(
    'click',
    after(() => sandbox.clock.reset(), { clock: true }),
  )
  $('set-plan').addEventListener(
    'click',
    after(() => {
      const plan = planSelect.value as Plan
      const current = sandbox.keys.find((key) => key.key === keySelect.value)
      // Enterprise limits are agreed per key: keep the key's own when it moves there.
      const limits = plan === 'enterprise' && current ? { perMinute: current.perMinute, perDay: current.perDay } : {}
      return sandbox.apiKeys.setPlan(keySelect.value, plan, limits)
    }),
  )
  $('spend').addEventListener(
    'click',
    after(() => sandbox.quota.set(keySelect.value, { remaining: 0 })),
  )
  scenarioSelect.addEventListener(
    'change',
    after(() =>
      scenarioSelect.value === ''
        ? sandbox.scenarios.clear(keySelect.value)
        : sandbox.scenarios.set(keySelect.value, scenarioSelect.value),
    ),
  )
  $('reset-sandbox').addEventListener(
    'click',
    after(() => sandbox.reset()),
  )
  // The world arranged here, as a capsule (D34): what a bug report carries to a test.
  $('save-capsule').addEventListener('click', async () => {
    const capsule = await sandbox.capsule()
    const link = document.createElement('a')
    link.href = URL.createObjectURL(new Blob([JSON.stringify(capsule, null, 2)], { type: 'application/json' }))
    link.download = 'animal-store-demo.capsule.json'
    link.click()
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000)
  })
  keySelect.addEventListener('change', showPlan)
  showClock()
  showPlan()
  setInterval(showClock, 1000)
}
